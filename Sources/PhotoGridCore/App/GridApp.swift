import Glibc

/// The interactive grid: one event loop on the main thread that owns the terminal. Keys,
/// finished tiles and signals arrive as events; the loop updates the state and paints one frame
/// for however many events arrived. Decoding and encoding happen on the pipeline's workers.
public final class GridApp {
    let title: String
    let session: GridSession
    let mailbox: Mailbox
    let curses: Curses
    let capabilities: Capabilities
    var painter: GridPainter
    var screen: ScreenMetrics
    var layout: GridLayout
    var position = GridPosition()
    /// +1 after moving down, -1 after moving up: where prefetching looks.
    var direction = 1
    var needsClear = true
    var running = true
    var exitStatus: Int32 = 0

    init(title: String, session: GridSession, mailbox: Mailbox, curses: Curses, capabilities: Capabilities, columns: Int?) {
        self.title = title
        self.session = session
        self.mailbox = mailbox
        self.curses = curses
        self.capabilities = capabilities
        painter = GridPainter(colors: session.halfBlockColors)
        screen = GridApp.metrics(curses: curses, capabilities: capabilities)
        layout = GridLayout(screen: screen, columns: columns ?? GridLayout.startColumns(photos: session.photos.count, screen: screen))
    }

    /// Runs until `q` or a signal; the caller gives the terminal back.
    func run() throws(TTY.WriteError) -> Int32 {
        while running {
            try frame()
            wait()
            for event in mailbox.drain() { handle(event) }
            while running, let key = curses.readKey() { handle(key) }
        }
        return exitStatus
    }

    private func wait() {
        var fds = [pollfd(fd: 0, events: Int16(POLLIN), revents: 0),
                   pollfd(fd: mailbox.readFD, events: Int16(POLLIN), revents: 0)]
        _ = poll(&fds, 2, -1)
    }

    private func handle(_ event: Mailbox.Event) {
        switch event {
        case .tileReady: break                       // the next frame shows whatever is ready
        case .resize: relayout(tellCurses: true)
        case .resume: needsClear = true
        case .quit(let signal):
            running = false
            exitStatus = 128 + signal
        }
    }

    /// Paints what changed, then asks the pipeline for what the new state needs.
    private func frame() throws(TTY.WriteError) {
        if needsClear {
            curses.clearAll()
            painter.invalidate()
            needsClear = false
        }
        session.pipeline.want(session.wanted(layout: layout, position: position, direction: direction))
        let tiles = screen.rows >= 2 ? session.paintTiles(layout: layout, position: position) : []
        let loading = tiles.filter { $0.content.isPending }.count
        curses.drawBar(statusText(loading: loading), row: screen.rows - 1)
        curses.refresh()
        let focused = tiles.first { $0.index == position.focus }
        let marker = focused.map { FocusMarker(tile: $0, gridRows: layout.viewportRows, screenColumns: screen.columns) }
        let bytes = painter.paint(tiles, focus: marker)
        if !bytes.isEmpty { try TTY.writeAll(bytes) }
    }

    /// Folder, file, "N of M", columns, mode, and how many tiles on screen are still loading.
    func statusText(loading: Int) -> String {
        let count = session.photos.count
        let photo = session.photos[min(position.focus, count - 1)]
        let columns = layout.columns == 1 ? "1 column" : "\(layout.columns) columns"
        var parts = [title, photo.relativePath.description, "\(position.focus + 1) of \(count)", columns,
                     capabilities.mode.description]
        if session.fit == .fit { parts.append("fit") }
        if loading > 0 { parts.append("loading \(loading)") }
        let left = " " + parts.map(TerminalText.sanitize).joined(separator: "  ·  ")
        let hint = "+/- columns  a fit  q quit "
        let gap = screen.columns - TerminalText.width(left) - TerminalText.width(hint)
        return gap >= 2 ? left + String(repeating: " ", count: gap) + hint : left
    }

    /// Takes the terminal's new size and keeps the focused photo where it was. After SIGWINCH
    /// ncurses is told the size; after its own KEY_RESIZE it already knows (and telling it again
    /// would queue another KEY_RESIZE).
    func relayout(tellCurses: Bool) {
        if tellCurses, let size = TTY.windowSize() { curses.resize(columns: size.columns, rows: size.rows) }
        let old = layout
        screen = GridApp.metrics(curses: curses, capabilities: capabilities)
        layout = GridLayout(screen: screen, columns: old.columns)
        position = position.anchored(from: old, to: layout, photos: session.photos.count)
        needsClear = true
    }

    func setColumns(_ columns: Int) {
        let clamped = max(GridLayout.columnRange.lowerBound, min(GridLayout.columnRange.upperBound, columns))
        guard clamped != layout.columns else { return }
        let old = layout
        layout = GridLayout(screen: screen, columns: clamped)
        position = position.anchored(from: old, to: layout, photos: session.photos.count)
        needsClear = true
    }

    /// The terminal's cells, with the cell's pixel size from TIOCGWINSZ when it reports pixels
    /// (it follows font changes), else what start-up found.
    static func metrics(curses: Curses, capabilities: Capabilities) -> ScreenMetrics {
        let size = curses.size
        var cell = (capabilities.cellWidth, capabilities.cellHeight)
        if let w = TTY.windowSize(), w.pixelWidth >= w.columns, w.pixelHeight >= w.rows, w.pixelWidth > 0 {
            cell = (w.pixelWidth / w.columns, w.pixelHeight / w.rows)
        }
        return ScreenMetrics(columns: size.columns, rows: size.rows, cellWidth: cell.0, cellHeight: cell.1)
    }
}
