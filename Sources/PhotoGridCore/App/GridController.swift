/// The grid's state and what a frame of it is, without a terminal: the layout, the focus, the
/// direction of travel, and the escape sequences that bring the screen up to date. The event
/// loop (`GridApp`) feeds it keys and sizes and writes out its frames; the benchmark drives it
/// the same way to measure a scroll without a terminal in the way.
package final class GridController {
    package let title: String
    package internal(set) var session: GridSession
    /// Makes the session for another list of photos (a new order, a rescan); nil where the
    /// photos never change (`--print`, the benchmark).
    var makeSession: (([Photo]) -> GridSession)?
    /// Reads the gallery again, hidden files too when asked (`GallerySource.rescan`).
    var rescan: ((Bool) throws -> [Photo])?
    /// The order the photos are shown in; nil while they are in the gallery's own order (a
    /// manifest's, before `s` is pressed).
    package internal(set) var order: PhotoOrder?
    /// Names starting with a dot are shown (`.` toggles).
    package internal(set) var showHidden = false
    /// Starts reading capture dates for the date order.
    var readDates: (([Photo]) -> CaptureDates)?
    /// Capture dates read so far (nil inside: the photo has none).
    var knownDates: [PhotoSource: Int64?] = [:]
    /// Reading dates for `pendingOrder`, the date order asked for.
    var dateReader: CaptureDates?
    var pendingOrder: PhotoOrder?
    /// A key was pressed since start-up.
    var keyPressed = false
    /// The folder still being read: the grid shows the photos found first.
    var reading: BackgroundScan?
    /// What the gallery's last reading left out (`LeftOut`), said after each reading.
    package var leftOut: (() -> LeftOut)?
    /// Word from a gallery read from elsewhere (`GalleryChanges`): changes, or a failure.
    var changes: GalleryChanges?
    /// The slideshow's next step (TTY.now ms), while one runs in the photo view; and its pace.
    package internal(set) var slideshowDue: Int?
    package var slideshowSeconds = 4
    /// Marked photos (`m`, `M`), by path.
    package internal(set) var marked: Set<PhotoSource> = []
    /// Sections (`--group`, `S`), and each photo's group while they are on.
    package internal(set) var grouping: Grouping = .none
    var groupNames: [String]?
    /// The photos that start a group: each starts a row.
    var groupStarts: [Int] = []
    /// Said once on the status line after an action (a rescan's result, an error), until the next key.
    var notice: String?
    package let modeName: String
    package private(set) var painter: GridPainter
    var viewPainter: ViewPainter
    /// How the terminal's protocol draws tiles and what it holds, for both painters.
    package let canvas: any Canvas
    /// Written before the next frame: freeing pictures the terminal may have lost track of.
    var pendingBytes: [UInt8] = []
    /// The zoom view, when it is open.
    package internal(set) var zoom: ZoomState?
    /// The details panel is open.
    package internal(set) var showDetails = false
    /// It was opened in the zoom view, and closes with it.
    var detailsOpenedInZoom = false
    /// The key help (`?`) is open, over the details panel if that is open too.
    package internal(set) var showHelp = false
    /// The caption being typed (`e`).
    package internal(set) var captionEdit: CaptionEdit?
    /// `--read-only`: no caption is saved; photogrid writes nothing but its cache.
    package var readOnly = false
    /// The name search, while typed or kept.
    package internal(set) var search: NameSearch?
    /// The photos' paths in lower case for the search; nil until the first search of a list.
    var searchIndex: [String]?
    /// The panel as last written, so that an unchanged one is not written again.
    var drawnDetails: [UInt8]?
    package private(set) var screen: ScreenMetrics
    package internal(set) var layout: GridLayout
    /// The column count the user chose: the layout has fewer while the screen is too narrow for
    /// them, and gets them back when it widens again.
    private var chosenColumns: Int
    package internal(set) var position = GridPosition()
    /// +1 after moving down, -1 after moving up: where prefetching looks.
    var direction = 1
    /// The whole screen must be repainted (after a resize, a column change, Ctrl-L, a resume).
    package internal(set) var needsClear = true
    /// The next full repaint sends every picture again (`repaint`): through tmux.
    var picturesMayBeLost = false
    /// Pictures were held back (through tmux, the pane not on screen): the loop looks again soon.
    package var picturesHeld: Bool { canvas.picturesHeld }
    /// `q` was pressed.
    package internal(set) var quitRequested = false
    /// Whether the status line says that the memory budget is too small.
    var budgetNotice = BudgetNotice()
    /// The terminal takes synchronized output (`CSI ? 2026`, asked at start-up): a frame is
    /// shown whole or not at all.
    package var synchronizedOutput = false
    /// How both painters make cells plain (`Blanking`).
    package var blanking: Blanking {
        get { canvas.blanking }
        set { canvas.blanking = newValue }
    }
    /// What starts and ends a synchronized update.
    package static let beginSynchronized = Array("\u{1B}[?2026h".utf8), endSynchronized = Array("\u{1B}[?2026l".utf8)
    /// Said on the status line until the first key: how this terminal could show real pictures
    /// (plain xterm: started as `xterm -ti vt340`).
    package var startHint: String?

    /// What one frame changes on screen.
    package struct Frame {
        /// Clear the screen first (and forget what was drawn).
        package var clear: Bool
        package var status: String
        /// The grid's changes, escape sequences to write after the status line.
        package var bytes: [UInt8]
        package var tilesLoading: Int
    }

    package init(title: String, session: GridSession, screen: ScreenMetrics, columns: Int?, modeName: String) {
        self.title = title
        self.session = session
        self.modeName = modeName
        self.screen = screen
        canvas = session.mode.format.makeCanvas()
        painter = GridPainter(canvas: canvas)
        viewPainter = ViewPainter(canvas: canvas)
        chosenColumns = columns ?? GridLayout.startColumns(photos: session.photos.count, screen: screen)
        layout = GridLayout(screen: screen, columns: chosenColumns)
    }

    /// The layout for the current screen, columns and sections.
    func makeLayout(columns: Int? = nil) -> GridLayout {
        GridLayout(screen: screen, columns: columns ?? chosenColumns, sections: grouping != .none,
                   groupStarts: groupStarts, photos: session.photos.count)
    }

    /// Asks the pipeline for what the state needs and says what to draw now.
    package func frame() -> Frame {
        if canvas.beforeFrame(now: TTY.now()) { repaint() }
        finishReading()
        takeGalleryNews()
        finishDateReading()
        let clear = needsClear
        var before = pendingBytes
        pendingBytes = []
        if needsClear {
            painter.invalidate()
            viewPainter.invalidate()
            drawnDetails = nil
            needsClear = false
            before += canvas.startOver(lost: picturesMayBeLost, areaRows: layout.areaRows)
            picturesMayBeLost = false
        }
        var frame: Frame
        budgetNotice.update(shortfalls: session.pipeline.budgetShortfalls, now: TTY.now())
        canvas.panel = overlayArea.map { CellRect(row: 0, column: $0.column, columns: screen.columns - $0.column, rows: $0.rows) }
        if zoom != nil {
            frame = zoomFrame(clear: clear)
        } else {
            session.pipeline.want(session.wanted(layout: layout, position: position, direction: direction), infos: wantedInfos())
            let (tiles, marker, loading) = contents()
            painter.screenColumns = screen.columns
            frame = Frame(clear: clear, status: statusText(loading: loading),
                          bytes: painter.paint(tiles, focus: marker, headers: headerLines(tiles)), tilesLoading: loading)
        }
        // Written first: what the canvas frees or hides, a path for the clipboard (`y`).
        frame.bytes = before + frame.bytes + canvas.endFrame()
        frame.bytes = withDetails(frame.bytes)
        return frame
    }

    /// Photos whose details the grid needs: the focused one for the panel, and every one on
    /// screen at 1-3 columns, for the badges.
    func wantedInfos() -> [WantedInfo] {
        var infos = showDetails ? [WantedInfo(position.focus, .visible)] : []
        if layout.columns <= GridSession.badgeColumns {
            infos += layout.visibleIndexes(topRow: position.topRow, photos: session.photos.count).map { WantedInfo($0, .background) }
        }
        return infos
    }

    /// The tiles on screen with what each shows now, the focus frame, and how many still load.
    package func contents() -> (tiles: [PaintTile], marker: FocusMarker?, loading: Int) {
        var tiles = screen.rows >= 2 ? session.paintTiles(layout: layout, position: position) : []
        // A video says so at every column count, over its frame or its placeholder; in words, as
        // xterm's default fonts have no play sign (U+25B6).
        for i in tiles.indices where session.photos[tiles[i].index].format.isVideo {
            tiles[i].badges = tiles[i].badges.isEmpty ? "video" : "video " + tiles[i].badges
        }
        if !marked.isEmpty {
            // A mark is a badge of its own, at every column count.
            for i in tiles.indices where marked.contains(session.photos[tiles[i].index].source) { tiles[i].badges = "*" + tiles[i].badges }
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

    /// Folder, file, "N of M", columns, mode, and how many tiles on screen are still loading;
    /// with `hints`, the main keys at the right. On a narrow screen the folder and the mode give
    /// way first (`StatusLine`).
    func statusText(loading: Int, hints: Bool = true) -> String {
        let count = session.photos.count
        let photo = session.photos[min(position.focus, count - 1)]
        var parts = [StatusLine.Part(title, dropOrder: 3), StatusLine.Part(photo.relativePath.description),
                     StatusLine.Part("\(position.focus + 1) of \(count)"),
                     StatusLine.Part(layout.columns == 1 ? "1 column" : "\(layout.columns) columns", dropOrder: 1),
                     StatusLine.Part(modeName, dropOrder: 2)]
        if session.fit == .fit { parts.append(StatusLine.Part("fit", dropOrder: 1)) }
        if let order, order != PhotoOrder() { parts.append(StatusLine.Part(order.description, dropOrder: 1)) }
        if let groupNames, position.focus < groupNames.count { parts.insert(StatusLine.Part(groupNames[position.focus], dropOrder: 1), at: 1) }
        if showHidden { parts.append(StatusLine.Part("hidden shown", dropOrder: 1)) }
        if !marked.isEmpty { parts.insert(StatusLine.Part("\(marked.count) marked" + (marked.contains(photo.source) ? " (this one too)" : "")), at: min(3, parts.count)) }
        if let reading { parts.append(StatusLine.Part("reading the folder: \(reading.count) photos so far")) }
        if let dateProgress { parts.append(StatusLine.Part(dateProgress)) }
        if loading > 0 { parts.append(StatusLine.Part("loading \(loading)")) }
        if let searchStatus { parts.insert(StatusLine.Part(searchStatus), at: 0) }
        if let captionStatus { parts.insert(StatusLine.Part(captionStatus), at: 0) }
        if let notice { parts.append(StatusLine.Part(notice)) }
        if budgetNotice.isShown { parts.append(StatusLine.Part(BudgetNotice.text)) }
        if let startHint, !budgetNotice.isShown { parts.append(StatusLine.Part(startHint, dropOrder: 1)) }
        let showHints = hints && !budgetNotice.isShown
        return StatusLine.compose(parts, hint: showHints ? gridHint : nil, shortHint: showHints ? "? keys " : nil, width: screen.columns)
    }

    /// The keys that matter now, in the words of the current state.
    var gridHint: String {
        if captionEdit != nil { return "Enter save  Esc cancel " }
        if search?.typing == true { return "Enter keep  Esc cancel " }
        if showHelp { return "Esc close " }
        if showDetails { return "i/Esc close  ? keys " }
        if search != nil { return "n/N next  Esc clear " }
        return "? keys  a " + (session.fit == .fit ? "fill" : "fit") + "  / find  q quit "
    }

    /// Takes a new screen size and keeps the focused photo where it was.
    package func resize(to newScreen: ScreenMetrics) {
        let old = layout
        screen = newScreen
        layout = makeLayout()
        position = position.anchored(from: old, to: layout, photos: session.photos.count)
        needsClear = true
        // ncurses clears the screen after a resize, and the tiles' sizes change anyway.
        pendingBytes += canvas.forgetAll()
    }

    /// The terminal was handed back after a suspend: repaint, and send what the terminal held
    /// again (the screen was cleared meanwhile, and a terminal may free what a cleared screen held).
    package func resumed() {
        pendingBytes += canvas.forgetAll()
        repaint()
    }

    /// Focuses photo `index` and scrolls it into view (start-up with `photogrid PHOTO`); a date
    /// order that comes later keeps it there, as it keeps a photo focused by a key.
    package func focus(_ index: Int) {
        move(to: index)
        keyPressed = true
    }

    package func setColumns(_ columns: Int) {
        chosenColumns = max(GridLayout.columnRange.lowerBound, min(GridLayout.columnRange.upperBound, columns))
        let next = makeLayout()
        guard next.columns != layout.columns else { return }
        let old = layout
        layout = next
        position = position.anchored(from: old, to: layout, photos: session.photos.count)
        needsClear = true
    }

    /// Ctrl-R, as in lf: the photos on screen whose files changed since they were drawn are made
    /// again (a deleted one says so), and the screen is repainted.
    package func reloadChanged() {
        if let zoom {
            session.pipeline.recheck([zoom.photo])
        } else {
            session.pipeline.recheck(Array(layout.visibleIndexes(topRow: position.topRow, photos: session.photos.count)))
        }
        repaint()
    }

    /// Asks for a full repaint: Ctrl-L, the window settled after a resize, or the terminal was
    /// handed back after a suspend. Through tmux the pictures are sent again too: tmux drops
    /// what passes through it while the pane is hidden, while it is about to redraw (a resize:
    /// two of eight pictures sent then were seen lost), and while the terminal falls behind it
    /// (`tty_client_ready` and `tty_add` in its tty.c), and nothing says which were lost.
    package func repaint() {
        needsClear = true
        if canvas.losesPicturesOnRepaint { picturesMayBeLost = true }
    }
}
