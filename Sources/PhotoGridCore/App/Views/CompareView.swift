import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Compare (`c` with two to four photos marked): the photos side by side, or two over two,
/// each fitted to its pane, zoomed and panned together, to choose among a burst. One of them has
/// the focus (the amber frame; `Tab`, and `h` `l` at fit, move it): the culling keys, `i`, `m` and
/// `Enter` are about that one. `q` or `Esc` goes back to where it was opened.
///
/// The panes are tiles of the photo view's kind (`viewRequest`, cropped when zoomed), painted by
/// a grid painter, so every canvas shows them as it shows the grid's tiles.
final class CompareView: ScreenView {
    /// The photos compared, in the grid's order; one zoom state each, changed together.
    private(set) var photos: [PhotoID]
    private var states: [ZoomState]
    private(set) var focus = 0
    private var painter: GridPainter
    /// What each pane last showed and where: the grid painter keeps a tile to its slot, while a
    /// pane's picture changes its size and place (a placeholder, a preview, the photo fitted, a
    /// zoom), and a sixel picture leaves the pixels it does not cover.
    private var drawn: [Drawn] = []
    private struct Drawn: Equatable { var rect: CellRect; var content: TileContent.ContentID }

    static let photoRange = 2...4

    init(_ context: ViewContext, photos: [PhotoID]) {
        self.photos = photos
        states = photos.map { ZoomState(photo: $0) }
        painter = GridPainter(canvas: context.canvas)
    }

    func currentPhoto(_ context: ViewContext) -> PhotoID? { photos[focus] }

    /// Goes on while every photo compared is still in the list (a filter or a trash took none).
    func listChanged(_ context: ViewContext) -> Bool {
        drawn = []
        return photos.allSatisfy(context.photos.contains)
    }

    /// Pane `i`'s cells: side by side for two or three, two over two for four.
    func pane(_ i: Int, _ context: ViewContext) -> CellRect {
        let across = photos.count == 4 ? 2 : photos.count, down = photos.count == 4 ? 2 : 1
        let gap = GridLayout.gap, areaRows = max(1, context.areaRows)
        let width = max(1, (context.screen.columns - (across - 1) * gap) / across), height = max(1, (areaRows - (down - 1) * gap) / down)
        return CellRect(row: (i / across) * (height + gap), column: (i % across) * (width + gap), columns: width, rows: height)
    }

    func frame(_ context: ViewContext, clear: Bool) -> ViewFrame {
        if clear { painter.invalidate() }
        let session = context.session, screen = context.screen
        let format = session.mode.format, cell = format.cell(screen)
        var tiles: [PaintTile] = [], wanted: [WantedTile] = []
        for (i, photo) in photos.enumerated() {
            let pane = pane(i, context), name = session.table[photo].name
            var tile = PaintTile(photo: photo, column: pane.column, row: pane.row, width: pane.columns, rows: pane.rows,
                                 content: session.content(of: nil, photo: photo), name: name)
            if let shape = session.photoShape(photo) {
                let geometry = ZoomGeometry.compute(state: &states[i], area: (pane.columns * cell.width, pane.rows * cell.height),
                                                    cell: cell, image: shape)
                let request = format.viewRequest(photo, width: geometry.width, height: geometry.height, crop: geometry.region, screen: screen)
                wanted += [WantedTile(request.preview, .visible), WantedTile(request, .visible)]
                tile = PaintTile(photo: photo, column: pane.column + geometry.column, row: pane.row + geometry.row,
                                 width: min(pane.columns, (geometry.width + cell.width - 1) / cell.width),
                                 rows: min(pane.rows, (geometry.height + cell.height - 1) / cell.height),
                                 content: session.content(of: request, photo: photo), name: name)
            }
            tile.badges = Ratings.badge(context.rating(of: photo))
            tile.fullRows = tile.rows
            tiles.append(tile)
        }
        session.pipeline.want(wanted, infos: photos.map { WantedInfo($0, .visible) })
        let marker = tiles.indices.contains(focus)
            ? FocusMarker(tile: tiles[focus], gridRows: max(1, context.areaRows), screenColumns: screen.columns) : nil
        let loading = tiles.filter { $0.content.isPending }.count
        // Another picture in a pane: the whole area made plain and every pane drawn again, or the
        // edges of the last one (and its focus frame) would stay round the new one.
        let now = tiles.map { Drawn(rect: CellRect(row: $0.row, column: $0.column, columns: $0.width, rows: $0.rows), content: $0.content.id) }
        var before: [UInt8] = []
        if !clear, !drawn.isEmpty, now != drawn {
            painter.invalidate()
            before = Array("\u{1B}7\u{1B}[0m".utf8)
            for row in 0..<max(1, context.areaRows) {
                before += GridPainter.moveTo(row: row, column: 0) + context.canvas.blanking.erase(screen.columns)
            }
            before += Array("\u{1B}8".utf8)
        }
        drawn = now
        let bytes = screen.rows >= 2 ? before + painter.paint(tiles, focus: marker, headers: []) : []
        return ViewFrame(bytes: bytes, status: statusParts(loading: loading, context), hint: hint(context), tilesLoading: loading)
    }

    func statusParts(loading: Int, _ context: ViewContext) -> [StatusLine.Part] {
        let current = photos[focus], photo = context.session.table[current]
        var parts = [StatusLine.Part(context.gallery.title, dropOrder: 3), StatusLine.Part("compare \(photos.count)"),
                     StatusLine.Part(photo.relativePath.description),
                     StatusLine.Part("\((context.photos.index(of: current) ?? 0) + 1) of \(context.photos.count)")]
        let rating = context.rating(of: current)
        if rating != 0 { parts.append(StatusLine.Part(Ratings.words(rating))) }
        parts.append(StatusLine.Part(states[0].isZoomedIn ? "zoom \(ZoomStatus.factor(states[0].zoom))" : "fit", dropOrder: 1))
        if loading > 0 { parts.append(StatusLine.Part("loading \(loading)")) }
        return parts
    }

    func hint(_ context: ViewContext) -> String? { "Tab next  +/- zoom  1-5 x rate  q back " }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        if case .mouse = key { return .done }
        let zoomed = states[0].isZoomedIn
        var actions: [Action] = []
        switch key {
        case .character("Q"): return .taken(.quit)
        case .character("q"), .escape: actions = [.close(self)]
        case .character("?"): actions = [.openHelp]
        case .control("i"), .character("\t"): focus = (focus + 1) % photos.count
        case .character("+"): for i in states.indices { states[i].zoomIn() }
        case .character("-"), .character("_"): for i in states.indices { states[i].zoomOut() }
        case .character("="): for i in states.indices { states[i].fit() }
        case .left, .character("h"): if zoomed { pan(-1, 0, context) } else { focus = (focus + photos.count - 1) % photos.count }
        case .right, .character("l"): if zoomed { pan(1, 0, context) } else { focus = (focus + 1) % photos.count }
        case .up, .character("k"): if zoomed { pan(0, -1, context) } else if photos.count == 4 { focus = (focus + 2) % 4 }
        case .down, .character("j"): if zoomed { pan(0, 1, context) } else if photos.count == 4 { focus = (focus + 2) % 4 }
        case .character(let c) where ("0"..."5").contains(c): actions = [.rate(Int(String(c))!)]
        case .character("x"): actions = [.toggleReject]
        case .character("i"): actions = [.toggleDetails]
        case .character("m"): actions = [.mark(photos[focus])]
        // The photo alone, over compare: leaving it comes back here.
        case .enter: actions = [.openPhoto(photos[focus])]
        case .control("l"): actions = [.repaint]
        default: break
        }
        return .taken(actions)
    }

    /// Every photo panned by the same part of what it shows: a burst's photos stay on the same
    /// spot.
    private func pan(_ dx: Double, _ dy: Double, _ context: ViewContext) {
        let session = context.session, cell = session.mode.format.cell(context.screen)
        for i in states.indices {
            guard let shape = session.photoShape(photos[i]) else { continue }
            let pane = pane(i, context)
            let geometry = ZoomGeometry.compute(state: &states[i], area: (pane.columns * cell.width, pane.rows * cell.height), cell: cell, image: shape)
            states[i].pan(dx: dx, dy: dy, visible: geometry.region)
        }
    }
}
