import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The grid: the photos as tiles at one to six columns, the focus framed, sections' headers in
/// the gap rows. It owns the layout, the focus and the scrolling, the direction of travel (where
/// prefetching looks), and the painter that brings the screen up to date. The focus is a place
/// in the list and the photo there: when the list changes the photo is found again.
final class GridView: ScreenView {
    private(set) var layout: GridLayout
    /// The column count the user chose: the layout has fewer while the screen is too narrow for
    /// them, and gets them back when it widens again.
    private(set) var chosenColumns: Int
    var position = GridPosition()
    /// The photo at the focus, as last seen: what the focus goes back to when the list changes.
    var focused: PhotoID?
    /// +1 after moving down, -1 after moving up: where prefetching looks.
    var direction = 1
    var painter: GridPainter
    /// The time zoom's days, months or years (`TimeView`): many columns, a section per period.
    let scale: TimeScale?
    /// The months and years as cards: the grid shows the periods' key photos, not the gallery.
    private(set) var cards: TimeCards?

    init(_ context: ViewContext, columns: Int?, scale: TimeScale? = nil, cards: TimeCards? = nil) {
        self.scale = scale
        self.cards = cards
        chosenColumns = columns ?? GridLayout.startColumns(photos: (cards?.list ?? context.photos).count, screen: context.screen)
        layout = GridLayout(screen: context.screen, columns: chosenColumns)
        painter = GridPainter(canvas: context.canvas)
        layout = makeLayout(context)
        focused = (cards?.list ?? context.photos).ids.first
    }

    /// Cards always fill: a letterboxed card is a black band again. Nil: the session's fit.
    var cardFit: FitMode? { cards == nil ? nil : .fill }

    /// What the grid shows: the gallery's photos, or the cards' key photos.
    func list(_ context: ViewContext) -> PhotoList { cards?.list ?? context.photos }

    /// New cards for a changed list (the same scale); the focus goes to `card`.
    func setCards(_ next: TimeCards, focus card: Int, _ context: ViewContext) {
        cards = next
        layout = makeLayout(context)
        position = GridPosition()
        move(to: card, context)
    }

    func currentPhoto(_ context: ViewContext) -> PhotoID? {
        list(context).ids.indices.contains(position.focus) ? list(context).ids[position.focus] : nil
    }

    /// Each photo's section header: its month or year in the time zoom, else the grid's sections.
    func groupNames(_ context: ViewContext) -> [String]? {
        if cards != nil { return nil }
        return scale.map { context.gallery.timeGroups($0).names } ?? context.gallery.groupNames
    }

    /// The layout for the current screen, columns and sections.
    func makeLayout(_ context: ViewContext) -> GridLayout {
        let count = list(context).count
        if let cards {
            return TimeCards.layout(cards.scale, screen: context.screen, cards: count)
        }
        if let scale {
            let columns = scale.columns(for: context.screen)
            return GridLayout(screen: context.screen, columns: columns, sections: true, groupStarts: context.gallery.timeGroups(scale).starts,
                              photos: count, limit: columns)
        }
        return GridLayout(screen: context.screen, columns: chosenColumns, sections: context.gallery.grouping != .none,
                          groupStarts: context.gallery.groupStarts, photos: count)
    }

    /// The layout made again (a new screen size, sections, another list), the focused photo
    /// kept where it was on screen.
    func relayout(_ context: ViewContext) {
        let old = layout
        layout = makeLayout(context)
        position = position.anchored(from: old, to: layout, photos: list(context).count)
    }

    /// The focused photo found in the new list (else the one now at its place), on the same
    /// screen row where it can be.
    func listChanged(_ context: ViewContext) -> Bool {
        let photos = list(context)
        if let focused, let index = photos.index(of: focused) { position.focus = index }
        position.focus = max(0, min(photos.count - 1, position.focus))
        relayout(context)
        position.focus(position.focus, photos: photos.count, layout: layout)
        focused = currentPhoto(context)
        return true
    }

    /// Columns as chosen; a full frame when the layout changes.
    func setColumns(_ columns: Int, _ context: ViewContext) -> [Action] {
        chosenColumns = max(GridLayout.columnRange.lowerBound, min(GridLayout.columnRange.upperBound, columns))
        let next = makeLayout(context)
        guard next.columns != layout.columns else { return [] }
        let old = layout
        layout = next
        position = position.anchored(from: old, to: layout, photos: list(context).count)
        return [.clearScreen]
    }

    /// Asks the pipeline for the screen and what comes next, and paints what is ready.
    func frame(_ context: ViewContext, clear: Bool) -> ViewFrame {
        if clear { painter.invalidate() }
        let session = context.session, screen = context.screen
        session.pipeline.want(session.wanted(layout: layout, position: position, direction: direction, list: cards?.list,
                                             fit: cardFit, neighbours: cards == nil),
                              infos: wantedInfos(context))
        var (tiles, marker, loading) = contents(context)
        if screen.slowLink { loading -= keepWhatIsDrawn(&tiles, context) }
        let held = screen.frameBudget.map { holdBack(&tiles, budget: $0, context) } ?? 0
        painter.screenColumns = screen.columns
        var frame = ViewFrame(bytes: painter.paint(tiles, focus: marker, headers: headerLines(tiles, context)),
                              status: statusParts(loading: loading + held, context), hint: hint(context), tilesLoading: loading + held)
        frame.heldBack = held > 0
        return frame
    }

    /// On a slow link, a tile the screen already shows as a fast link makes it (drawn before the
    /// link was found slow, or when it was fast again) stays as it is rather than be sent again
    /// in the slow link's kind. Returns how many tiles were kept so.
    func keepWhatIsDrawn(_ tiles: inout [PaintTile], _ context: ViewContext) -> Int {
        var fast = layout.screen
        fast.frameBudget = nil
        fast.slowLink = false
        fast.pictureScale = 1
        var kept = 0
        for i in tiles.indices where tiles[i].content.isPending {
            guard let index = list(context).index(of: tiles[i].photo), let place = layout.placement(of: index, topRow: position.topRow) else { continue }
            let request = context.session.request(tiles[i].photo, frame: place.frame, visibleRows: place.visibleRows, screen: fast,
                                                  fit: cardFit)
            guard let picture = context.session.cache.encoded(request) else { continue }
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
    func holdBack(_ tiles: inout [PaintTile], budget: Int, _ context: ViewContext) -> Int {
        let focus = currentPhoto(context)
        let order = tiles.indices.filter { tiles[$0].photo == focus } + tiles.indices.filter { tiles[$0].photo != focus }
        var spent = 0, held = 0
        for i in order where !painter.shows(tiles[i]) {
            let cost = painter.canvas.bytesToShow(tiles[i].content)
            guard cost > 0 else { continue }
            if spent > 0 && spent + cost > budget {
                var waiting = tiles[i]
                waiting.content = .loading
                if case .image(let request, _) = tiles[i].content, let preview = context.session.cache.encoded(request.preview) {
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
    /// screen at 1-3 columns, for the badges. In fit mode, the focused one's too while its shape
    /// is unknown, for the frame to go round the photo and not its whole square: a tile from
    /// the disk cache comes without a decode, and a first run's frame came from the decode.
    func wantedInfos(_ context: ViewContext) -> [WantedInfo] {
        let focused = currentPhoto(context)
        var infos = context.detailsOpen ? focused.map { [WantedInfo($0, .visible)] } ?? [] : []
        if layout.columns <= GridSession.badgeColumns {
            infos += layout.visibleIndexes(topRow: position.topRow, photos: list(context).count).map { WantedInfo(list(context).ids[$0], .background) }
        } else if context.session.fit == .fit, cards == nil, let focused, !context.detailsOpen, context.session.photoShape(focused) == nil {
            infos.append(WantedInfo(focused, .visible))
        }
        return infos
    }

    /// The tiles on screen with what each shows now, the focus frame, and how many still load.
    func contents(_ context: ViewContext) -> (tiles: [PaintTile], marker: FocusMarker?, loading: Int) {
        let gallery = context.gallery, table = context.session.table
        var tiles = context.screen.rows >= 2
            ? context.session.paintTiles(layout: layout, position: position, list: cards?.list, fit: cardFit) : []
        for i in tiles.indices {
            let photo = table[tiles[i].photo]
            var badges: [String] = []
            // A mark is a badge of its own, at every column count, then stars and rejects.
            let rating = Ratings.badge(context.rating(of: tiles[i].photo))
            if !rating.isEmpty { badges.append(rating) }
            // The colour label in words (a terminal's colours differ; its name does not).
            if let label = gallery.labels[photo.source] ?? context.session.pipeline.info(tiles[i].photo)?.label, !label.isEmpty {
                badges.append(label.lowercased())
            }
            // A raw file shown with its JPEG (`RawPairs`).
            if gallery.raws[photo.source] != nil { badges.append("RAW") }
            // A stack of a burst: its count, or the photo's place in it while it is open.
            if let stack = gallery.stacks.badge(photo.source) { badges.append(stack) }
            // A video says so at every column count, over its frame or its placeholder; in words,
            // as xterm's default fonts have no play sign (U+25B6).
            if photo.format.isVideo { badges.append("video") }
            if !tiles[i].badges.isEmpty { badges.append(tiles[i].badges) }
            tiles[i].badges = (gallery.marked.contains(tiles[i].photo) ? "*" : "") + badges.joined(separator: " ")
        }
        let focus = currentPhoto(context)
        let focusedTile = tiles.first { $0.photo == focus }
        let headerRows = Set(headerLines(tiles, context).map(\.row))
        let marker = focusedTile.map {
            FocusMarker(tile: $0, gridRows: layout.areaRows, screenColumns: context.screen.columns, photo: photoArea(of: $0, context),
                        headerRows: headerRows)
        }
        return (tiles, marker, tiles.filter { $0.content.isPending }.count)
    }

    /// In fit mode, the cells of a tile the photo takes (letterboxed and centred in its square),
    /// once its shape is known: what the focus frame goes round.
    func photoArea(of tile: PaintTile, _ context: ViewContext) -> (column: Int, row: Int, width: Int, rows: Int)? {
        let session = context.session
        guard session.fit == .fit, cards == nil, let shape = session.photoShape(tile.photo), shape.width > 0, shape.height > 0 else { return nil }
        let cell = session.mode.format.cell(context.screen)
        let box = (tile.width * cell.0, tile.fullRows * cell.1)
        let fitted = Resampler.fittedSize(width: shape.width, height: shape.height, inside: box.0, box.1)
        let width = min(tile.width, (fitted.width + cell.0 - 1) / cell.0), rows = min(tile.fullRows, (fitted.height + cell.1 - 1) / cell.1)
        return ((tile.width - width) / 2, (tile.fullRows - rows) / 2, width, rows)
    }

    /// Folder, file, "N of M", columns, mode, and how many tiles on screen are still loading. On a
    /// narrow screen the folder and the mode give way first (`StatusLine`).
    func statusParts(loading: Int, _ context: ViewContext) -> [StatusLine.Part] {
        let gallery = context.gallery, count = list(context).count
        guard let id = currentPhoto(context) else { return [StatusLine.Part(gallery.title), StatusLine.Part("no photos")] }
        if let cards { return cardStatus(cards, loading: loading, context) }
        let photo = context.session.table[id]
        var parts = [StatusLine.Part(gallery.title, dropOrder: 3), StatusLine.Part(photo.relativePath.description),
                     StatusLine.Part("\(position.focus + 1) of \(count)"),
                     StatusLine.Part(scale?.rawValue ?? (layout.columns == 1 ? "1 column" : "\(layout.columns) columns"), dropOrder: scale == nil ? 1 : 0),
                     StatusLine.Part(context.modeName, dropOrder: 2)]
        if context.session.fit == .fit { parts.append(StatusLine.Part("fit", dropOrder: 1)) }
        if let order = gallery.order, order != PhotoOrder() { parts.append(StatusLine.Part(order.description, dropOrder: 1)) }
        if let names = groupNames(context), position.focus < names.count { parts.insert(StatusLine.Part(names[position.focus], dropOrder: 1), at: 1) }
        if gallery.showHidden { parts.append(StatusLine.Part("hidden files shown", dropOrder: 1)) }
        let rating = context.rating(of: id)
        if rating != 0 { parts.insert(StatusLine.Part(Ratings.words(rating), dropOrder: 1), at: min(3, parts.count)) }
        if let filter = gallery.filterStatus { parts.append(StatusLine.Part(filter)) }
        let marked = gallery.marked
        if !marked.isEmpty {
            parts.insert(StatusLine.Part("\(marked.count) marked" + (marked.contains(id) ? " (this one too)" : "")), at: min(3, parts.count))
        }
        // One count: "N of M" grows as the reading settles more photos.
        if gallery.reading != nil { parts.append(StatusLine.Part("reading the folder...")) }
        if let progress = gallery.dateProgress { parts.append(StatusLine.Part(progress)) }
        if loading > 0 { parts.append(StatusLine.Part("loading \(loading)")) }
        return parts
    }

    func hint(_ context: ViewContext) -> String? {
        if let scale {
            switch scale {
            case .days: return "+ grid  - months  q grid "
            case .months: return "+ days  - years  q grid "
            case .years: return "+ months  q grid "
            }
        }
        return "? keys  a " + (context.session.fit == .fit ? "fill" : "fit") + "  / find  q quit "
    }

    /// On the cards: the period, which of how many, the span of the library (where in the years
    /// the screen is), the photo the card shows.
    func cardStatus(_ cards: TimeCards, loading: Int, _ context: ViewContext) -> [StatusLine.Part] {
        let gallery = context.gallery, focus = position.focus
        guard cards.names.indices.contains(focus), let id = currentPhoto(context) else { return [StatusLine.Part(gallery.title)] }
        let unit = cards.scale == .years ? (cards.names.count == 1 ? "year" : "years") : (cards.names.count == 1 ? "month" : "months")
        var parts = [StatusLine.Part(gallery.title, dropOrder: 3), StatusLine.Part(cards.names[focus]),
                     StatusLine.Part(TimeCards.grouped(cards.counts[focus]) + (cards.counts[focus] == 1 ? " photo" : " photos"), dropOrder: 1),
                     StatusLine.Part("\(focus + 1) of \(cards.names.count) \(unit)"),
                     StatusLine.Part(cards.scale.rawValue, dropOrder: 0),
                     StatusLine.Part(context.session.table[id].relativePath.description, dropOrder: 2),
                     StatusLine.Part(context.modeName, dropOrder: 2)]
        if let first = cards.names.first, let last = cards.names.last, cards.names.count > 1 {
            parts.insert(StatusLine.Part(TimeCards.year(of: first) + "-" + TimeCards.year(of: last), dropOrder: 1), at: 4)
        }
        if let progress = gallery.dateProgress { parts.append(StatusLine.Part(progress)) }
        if loading > 0 { parts.append(StatusLine.Part("loading \(loading)")) }
        return parts
    }
}
