import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem

/// The grid: the photos as tiles at one to six columns, the focus framed, sections' headers in
/// the gap rows. It owns the layout, the focus and the scrolling, the direction of travel (where
/// prefetching looks), and the painter that brings the screen up to date.
final class GridView: ScreenView {
    unowned let app: GridController
    var gallery: GalleryModel { app.gallery }
    var session: GridSession { app.gallery.session }
    var screen: ScreenMetrics { app.screen }
    private(set) var layout: GridLayout
    /// The column count the user chose: the layout has fewer while the screen is too narrow for
    /// them, and gets them back when it widens again.
    private(set) var chosenColumns: Int
    var position = GridPosition()
    /// +1 after moving down, -1 after moving up: where prefetching looks.
    var direction = 1
    var painter: GridPainter
    /// The time zoom's months or years (`TimeView`): many columns, a section per month or year.
    let scale: TimeScale?

    init(app: GridController, columns: Int?, scale: TimeScale? = nil) {
        self.app = app
        self.scale = scale
        chosenColumns = columns ?? GridLayout.startColumns(photos: app.gallery.photos.count, screen: app.screen)
        layout = GridLayout(screen: app.screen, columns: chosenColumns)
        painter = GridPainter(canvas: app.canvas)
        if scale != nil { layout = makeLayout() }
    }

    var currentPhoto: Int { position.focus }

    /// Each photo's section header: its month or year in the time zoom, else the grid's sections.
    var groupNames: [String]? { scale.map { gallery.timeGroups($0).names } ?? gallery.groupNames }

    /// The layout for the current screen, columns and sections.
    func makeLayout() -> GridLayout {
        if let scale {
            let columns = scale.columns(for: screen)
            return GridLayout(screen: screen, columns: columns, sections: true, groupStarts: gallery.timeGroups(scale).starts,
                              photos: session.photos.count, limit: columns)
        }
        return GridLayout(screen: screen, columns: chosenColumns, sections: gallery.grouping != .none,
                          groupStarts: gallery.groupStarts, photos: session.photos.count)
    }

    /// The layout made again (a new screen size, sections, another list), the focused photo
    /// kept where it was on screen.
    func relayout() {
        let old = layout
        layout = makeLayout()
        position = position.anchored(from: old, to: layout, photos: session.photos.count)
    }

    func setColumns(_ columns: Int) {
        chosenColumns = max(GridLayout.columnRange.lowerBound, min(GridLayout.columnRange.upperBound, columns))
        let next = makeLayout()
        guard next.columns != layout.columns else { return }
        let old = layout
        layout = next
        position = position.anchored(from: old, to: layout, photos: session.photos.count)
        app.needsClear = true
    }

    /// Asks the pipeline for the screen and what comes next, and paints what is ready.
    func frame(clear: Bool) -> GridController.Frame {
        if clear { painter.invalidate() }
        session.pipeline.want(session.wanted(layout: layout, position: position, direction: direction), infos: wantedInfos())
        var (tiles, marker, loading) = contents()
        if screen.slowLink { loading -= keepWhatIsDrawn(&tiles) }
        let held = screen.frameBudget.map { holdBack(&tiles, budget: $0) } ?? 0
        painter.screenColumns = screen.columns
        var frame = GridController.Frame(clear: clear, status: app.status(statusParts(loading: loading + held), hint: hint),
                                         bytes: painter.paint(tiles, focus: marker, headers: headerLines(tiles)), tilesLoading: loading + held)
        frame.heldBack = held > 0
        return frame
    }

    /// On a slow link, a tile the screen already shows as a fast link makes it (drawn before the
    /// link was found slow, or when it was fast again) stays as it is rather than be sent again
    /// in the slow link's kind. Returns how many tiles were kept so.
    func keepWhatIsDrawn(_ tiles: inout [PaintTile]) -> Int {
        var fast = layout.screen
        fast.frameBudget = nil
        fast.slowLink = false
        fast.pictureScale = 1
        var kept = 0
        for i in tiles.indices where tiles[i].content.isPending {
            guard let place = layout.placement(of: tiles[i].index, topRow: position.topRow) else { continue }
            let request = session.request(tiles[i].index, frame: place.frame, visibleRows: place.visibleRows, screen: fast)
            guard let picture = session.cache.encoded(request) else { continue }
            var drawn = tiles[i]
            drawn.content = .image(request, picture)
            if painter.shows(drawn) {
                tiles[i] = drawn
                kept += 1
            }
        }
        return kept
    }

    /// On a slow link, the pictures this frame would send beyond `budget` bytes wait for the
    /// next frame, in the order the painter draws (the focused tile first): the loop reads the
    /// keys in between, so a screen left is not sent on. At least one picture goes each frame.
    /// A tile held back shows its preview if that is on screen already, else "loading".
    /// Returns how many were held back.
    func holdBack(_ tiles: inout [PaintTile], budget: Int) -> Int {
        let order = tiles.indices.filter { tiles[$0].index == position.focus } + tiles.indices.filter { tiles[$0].index != position.focus }
        var spent = 0, held = 0
        for i in order where !painter.shows(tiles[i]) {
            let cost = painter.canvas.bytesToShow(tiles[i].content)
            guard cost > 0 else { continue }
            if spent > 0 && spent + cost > budget {
                var waiting = tiles[i]
                waiting.content = .loading
                if case .image(let request, _) = tiles[i].content, let preview = session.cache.encoded(request.preview) {
                    var previewed = tiles[i]
                    previewed.content = .preview(request.preview, preview)
                    if painter.shows(previewed) { waiting = previewed }
                }
                tiles[i] = waiting
                held += 1
            } else {
                spent += cost
            }
        }
        return held
    }

    /// Photos whose details the grid needs: the focused one for the panel, and every one on
    /// screen at 1-3 columns, for the badges.
    func wantedInfos() -> [WantedInfo] {
        var infos = app.detailsOpen ? [WantedInfo(position.focus, .visible)] : []
        if layout.columns <= GridSession.badgeColumns {
            infos += layout.visibleIndexes(topRow: position.topRow, photos: session.photos.count).map { WantedInfo($0, .background) }
        }
        return infos
    }

    /// The tiles on screen with what each shows now, the focus frame, and how many still load.
    func contents() -> (tiles: [PaintTile], marker: FocusMarker?, loading: Int) {
        var tiles = screen.rows >= 2 ? session.paintTiles(layout: layout, position: position) : []
        // A video says so at every column count, over its frame or its placeholder; in words, as
        // xterm's default fonts have no play sign (U+25B6).
        for i in tiles.indices where session.photos[tiles[i].index].format.isVideo {
            tiles[i].badges = tiles[i].badges.isEmpty ? "video" : "video " + tiles[i].badges
        }
        // A raw file shown with its JPEG (`RawPairs`).
        if !gallery.raws.isEmpty {
            for i in tiles.indices where gallery.raws[session.photos[tiles[i].index].source] != nil {
                tiles[i].badges = tiles[i].badges.isEmpty ? "RAW" : "RAW " + tiles[i].badges
            }
        }
        // Stars and rejects, at every column count, before the other badges.
        for i in tiles.indices {
            let badge = Ratings.badge(app.rating(ofPhoto: tiles[i].index))
            if !badge.isEmpty { tiles[i].badges = tiles[i].badges.isEmpty ? badge : badge + " " + tiles[i].badges }
        }
        if !gallery.marked.isEmpty {
            // A mark is a badge of its own, at every column count.
            for i in tiles.indices where gallery.marked.contains(session.photos[tiles[i].index].source) { tiles[i].badges = "*" + tiles[i].badges }
        }
        let focused = tiles.first { $0.index == position.focus }
        let headerRows = Set(headerLines(tiles).map(\.row))
        let marker = focused.map {
            FocusMarker(tile: $0, gridRows: layout.areaRows, screenColumns: screen.columns, photo: photoArea(of: $0), headerRows: headerRows)
        }
        return (tiles, marker, tiles.filter { $0.content.isPending }.count)
    }

    /// In fit mode, the cells of a tile the photo takes (letterboxed and centred in its square),
    /// once its shape is known: what the focus frame goes round.
    func photoArea(of tile: PaintTile) -> (column: Int, row: Int, width: Int, rows: Int)? {
        guard session.fit == .fit, let shape = session.photoShape(tile.index), shape.width > 0, shape.height > 0 else { return nil }
        let cell = session.mode.format.cell(screen)
        let box = (tile.width * cell.0, tile.fullRows * cell.1)
        let fitted = Resampler.fittedSize(width: shape.width, height: shape.height, inside: box.0, box.1)
        let width = min(tile.width, (fitted.width + cell.0 - 1) / cell.0), rows = min(tile.fullRows, (fitted.height + cell.1 - 1) / cell.1)
        return ((tile.width - width) / 2, (tile.fullRows - rows) / 2, width, rows)
    }

    /// Folder, file, "N of M", columns, mode, and how many tiles on screen are still loading. On a
    /// narrow screen the folder and the mode give way first (`StatusLine`).
    func statusParts(loading: Int) -> [StatusLine.Part] {
        let count = session.photos.count
        let photo = session.photos[min(position.focus, count - 1)]
        var parts = [StatusLine.Part(gallery.title, dropOrder: 3), StatusLine.Part(photo.relativePath.description),
                     StatusLine.Part("\(position.focus + 1) of \(count)"),
                     StatusLine.Part(scale?.rawValue ?? (layout.columns == 1 ? "1 column" : "\(layout.columns) columns"), dropOrder: scale == nil ? 1 : 0),
                     StatusLine.Part(app.modeName, dropOrder: 2)]
        if session.fit == .fit { parts.append(StatusLine.Part("fit", dropOrder: 1)) }
        if let order = gallery.order, order != PhotoOrder() { parts.append(StatusLine.Part(order.description, dropOrder: 1)) }
        if let names = groupNames, position.focus < names.count { parts.insert(StatusLine.Part(names[position.focus], dropOrder: 1), at: 1) }
        if gallery.showHidden { parts.append(StatusLine.Part("hidden files shown", dropOrder: 1)) }
        let rating = app.rating(ofPhoto: position.focus)
        if rating != 0 { parts.insert(StatusLine.Part(Ratings.words(rating), dropOrder: 1), at: min(3, parts.count)) }
        if let filter = app.filterStatus { parts.append(StatusLine.Part(filter)) }
        let marked = gallery.marked
        if !marked.isEmpty {
            parts.insert(StatusLine.Part("\(marked.count) marked" + (marked.contains(photo.source) ? " (this one too)" : "")), at: min(3, parts.count))
        }
        // One count: "N of M" grows as the reading settles more photos.
        if gallery.reading != nil { parts.append(StatusLine.Part("reading the folder...")) }
        if let progress = gallery.dateProgress { parts.append(StatusLine.Part(progress)) }
        if loading > 0 { parts.append(StatusLine.Part("loading \(loading)")) }
        return parts
    }

    var hint: String? {
        if let scale { return scale == .months ? "+ grid  - years  q grid " : "+ months  q grid " }
        return "? keys  a " + (session.fit == .fit ? "fill" : "fit") + "  / find  q quit "
    }
}
