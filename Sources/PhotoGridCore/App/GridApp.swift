import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// The interactive grid: one event loop on the main thread that owns the terminal. Keys,
/// finished tiles and signals arrive as events; the loop hands them to the `GridController` and
/// paints one frame for however many events arrived: ncurses' status line first, then the
/// grid's escape sequences. Decoding and encoding happen on the pipeline's workers.
final class GridApp {
    let controller: GridController
    let mailbox: Mailbox
    let curses: Curses
    let keys: KeyReader
    let capabilities: Capabilities
    var running = true
    var exitStatus: Int32 = 0
    /// When to look at the window's size again and paint everything once more, after it has
    /// stopped changing (TTY.now ms). Defensive: of several SIGWINCH in quick succession one can
    /// be lost, and a terminal busy resizing may cut what was drawn meanwhile; neither was seen
    /// to leave a wrong screen once the soak waited for the last frame, but both are possible.
    var settleRepaintAt: Int?
    /// `GallerySource.onScreenComplete`, until it has been called.
    var onScreenComplete: (@Sendable () -> Void)?
    /// Whether the stacks were looked for (`GridController.startStacks`).
    var stacksStarted = false
    /// How long a window must keep its size before that.
    static let settleMilliseconds = 150
    /// How fast the terminal takes the frames (a slow link, or not).
    var link = LinkMeter(overSSH: Environment.value("SSH_CONNECTION") != nil || Environment.value("SSH_TTY") != nil)
    /// A frame held pictures back for the next (a slow link's budget): painted again at once,
    /// after the keys that came meanwhile.
    var heldBack = false
    /// On a slow link, when the screen was last drawn whole with its small pictures and nothing
    /// has moved since (TTY.now ms): a second later the sharp pictures follow (`sharpening`),
    /// until a key.
    var completeSince: Int?
    var sharpening = false
    static let sharpenAfterMilliseconds = 1000

    init(controller: GridController, mailbox: Mailbox, curses: Curses, keys: KeyReader, capabilities: Capabilities) {
        self.controller = controller
        self.mailbox = mailbox
        self.curses = curses
        self.keys = keys
        self.capabilities = capabilities
    }

    /// Runs until `q` or a signal; the caller gives the terminal back.
    package func run() throws(TTY.WriteError) -> Int32 {
        while running {
            try paint()
            wait()
            for event in mailbox.drain() { handle(event) }
            while running, let key = keys.read() {
                completeSince = nil
                if sharpening {
                    // The screen moves: the pictures of the next go small again.
                    sharpening = false
                    controller.follow(link)
                }
                switch controller.handle(key) {
                case .quit: running = false
                // ncurses already knows the new size when it reports KEY_RESIZE; telling it
                // again (resizeterm) would queue another KEY_RESIZE.
                case .resize:
                    controller.resize(to: GridApp.metrics(curses: curses, capabilities: capabilities))
                    settleRepaintAt = controller.clock.now() + GridApp.settleMilliseconds
                case .play(let video): play(video)
                case .none: break
                }
            }
            if keys.ended && running {
                // The terminal went away without a hangup signal: nothing can be shown or read.
                running = false
                exitStatus = 128 + SignalSources.hangUp
            }
        }
        return exitStatus
    }

    /// A video played with the terminal handed over: the modes photogrid set given back, ncurses
    /// out of the way (`endwin`), the player run until it exits, then everything set up again and
    /// the screen drawn anew (pictures the terminal held sent again: leaving freed them).
    func play(_ video: PhotoSource) {
        try? TTY.writeAll(capabilities.exitSequence + Array("\u{1B}[0m".utf8))
        try? TTY.writeAll(keys.mouse ? KeyReader.mouseOff : [])
        curses.suspend()
        let failure = Player.play(video, environment: PhotoGrid.environment(["PHOTOGRID_PLAYER", "PATH"]))
        curses.resume()
        keys.reset()
        try? TTY.writeAll(capabilities.enterSequence + (keys.mouse ? KeyReader.mouseOn : []))
        controller.resumed()
        controller.notice = failure
    }

    private func paint() throws(TTY.WriteError) {
        // Through tmux nothing is drawn while a resize settles. tmux drops what passes through it
        // while a window redraw is pending, and defers that redraw while it still has output for
        // the terminal (`tty_client_ready`, `server_client_check_redraw` in its sources), and
        // pictures sent during a split were seen to stay blank. With nothing sent, tmux redraws
        // at once; the settle repaint sends them all again.
        if settleRepaintAt != nil, controller.canvas.waitsForSettle { return }
        let frame = controller.frame()
        // Where the terminal takes it, the frame is one synchronized update: shown whole, the
        // status line with it.
        let synchronized = controller.settings.synchronizedOutput && (frame.clear || !frame.bytes.isEmpty)
        if synchronized { try TTY.writeAll(GridController.beginSynchronized) }
        // Where the canvas keeps pictures in the terminal the screen is erased, not cleared (a
        // cleared screen frees them), and the canvas erased its rows (`Canvas.startOver`).
        if frame.clear { if controller.canvas.clearsScreen { curses.clearAll() } else { curses.eraseAll() } }
        curses.drawBar(frame.status, row: controller.screen.rows - 1)
        curses.refresh()
        if !frame.bytes.isEmpty {
            let started = SystemClock().seconds()
            try TTY.writeAll(frame.bytes)
            link.wrote(frame.bytes.count, seconds: SystemClock().seconds() - started)
            controller.follow(link, sharp: sharpening)
        }
        heldBack = frame.heldBack
        let complete = frame.tilesLoading == 0 && !frame.heldBack
        if !complete { completeSince = nil } else if completeSince == nil { completeSince = controller.clock.now() }
        if synchronized { try TTY.writeAll(GridController.endSynchronized) }
        if frame.tilesLoading == 0, let done = onScreenComplete {
            onScreenComplete = nil
            done()
        }
        // Bursts are looked for once the first screen is drawn, as the folder is watched; in a
        // small folder, with it.
        if frame.tilesLoading == 0 || controller.looksForStacksEarly, !stacksStarted {
            stacksStarted = true
            controller.startStacks()
        }
    }

    private func wait() {
        // The earliest of the settle repaint, the slideshow's next photo and an animation's next
        // frame; else wait for input.
        let due = [settleRepaintAt, controller.viewDue, controller.picturesHeld ? controller.clock.now() + 300 : nil,
                   heldBack ? controller.clock.now() : nil, sharpenDue, keys.due].compactMap { $0 }.min()
        let timeout = due.map { Int32(max(0, min(1000, $0 - controller.clock.now()))) } ?? -1
        mailbox.wait(milliseconds: timeout, orInputOn: 0)
        controller.wakeViews()
        if let due = sharpenDue, controller.clock.now() >= due {
            sharpening = true
            controller.follow(link, sharp: true)
        }
        if let due = settleRepaintAt, controller.clock.now() >= due {
            settleRepaintAt = nil
            if let size = TTY.windowSize(), size.columns != curses.size.columns || size.rows != curses.size.rows {
                curses.resize(columns: size.columns, rows: size.rows)
                controller.resize(to: GridApp.metrics(curses: curses, capabilities: capabilities))
            }
            controller.repaint()
        }
    }

    /// When the sharp pictures should start: a second after a slow link's screen was complete
    /// with pictures smaller than the screen's, while nothing moves.
    private var sharpenDue: Int? {
        guard !sharpening, link.isSlow, let since = completeSince, controller.linkScale(link) < 1 else { return nil }
        return since + GridApp.sharpenAfterMilliseconds
    }

    private func handle(_ event: Mailbox.Event) {
        switch event {
        case .tileReady: break                       // the next frame shows whatever is ready
        case .news(let news): controller.take(news)
        case .resize:
            if let size = TTY.windowSize() { curses.resize(columns: size.columns, rows: size.rows) }
            controller.resize(to: GridApp.metrics(curses: curses, capabilities: capabilities))
            settleRepaintAt = controller.clock.now() + GridApp.settleMilliseconds
        case .resume: controller.resumed()
        case .quit(let signal):
            running = false
            exitStatus = 128 + signal
        }
    }

    /// The terminal's cells, with the cell's pixel size from TIOCGWINSZ when it reports pixels
    /// (it follows font changes), else what start-up found.
    static func metrics(curses: Curses, capabilities: Capabilities) -> ScreenMetrics {
        let size = curses.size
        return metrics(columns: size.columns, rows: size.rows, capabilities: capabilities)
    }

    static func metrics(columns: Int, rows: Int, capabilities: Capabilities) -> ScreenMetrics {
        let size = (columns: columns, rows: rows)
        var cell = (capabilities.cellWidth, capabilities.cellHeight)
        if let w = TTY.windowSize(), w.pixelWidth >= w.columns, w.pixelHeight >= w.rows, w.pixelWidth > 0 {
            cell = (w.pixelWidth / w.columns, w.pixelHeight / w.rows)
        }
        var metrics = ScreenMetrics(columns: size.columns, rows: size.rows, cellWidth: cell.0, cellHeight: cell.1)
        (metrics.maxImageWidth, metrics.maxImageHeight) = (capabilities.maxImageWidth, capabilities.maxImageHeight)
        return metrics
    }
}
