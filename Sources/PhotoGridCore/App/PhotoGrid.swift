import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem
import PhotoGridTerminal

/// Start-up: what the executable hands its parsed options to.
package enum PhotoGrid {
    /// Runs photogrid and returns the exit status; messages for the user go to stderr. `source`
    /// makes the gallery (a folder, by default); it is called once the command line has been
    /// checked against the terminal, and told the first screen when the terminal has said it
    /// (a given source is a remote gallery, which asks for that screen's pictures ahead).
    package static func main(_ options: Options, source: ((FirstScreen?) throws -> GallerySource)? = nil) -> Int32 {
        do {
            if options.probe { return try probe(options) }
            if options.duplicates { return try DuplicatesCommand.run(options) }
            let load = source ?? { _ in try options.fileList.map { try GallerySource.list(options, $0) } ?? GallerySource.folder(options) }
            return options.print ? try PrintCommand(options: options, load: load).run()
                : try interactive(options, load: load, asksAhead: source != nil)
        } catch let error as ExitError {
            printError(error.description)
            return error.status
        } catch let stopped as StartWait.Stopped {
            return stopped.status
        } catch let error as TTY.WriteError where error.brokenPipe {
            // Whoever read the output stopped (`| head`, a previewer that had enough): nothing to
            // say, as for a program that SIGPIPE ends (photogrid ignores it for the network),
            // with the status a shell shows for one.
            return TTY.brokenPipeStatus
        } catch let error as TTY.WriteError {
            printError("cannot write to standard output: \(error.description)")
            return 1
        } catch {
            printError("\(error)")
            return 1
        }
    }

    /// What the terminal answers, and the mode and cell size photogrid takes from that.
    private static func probeTerminal(_ options: Options) -> (replies: TerminalReplies, capabilities: Capabilities) {
        let replies = TerminalProbe.run(environment: environment())
        var capabilities = Capabilities.decide(replies: replies, window: TTY.windowSize(), environment: environment(),
                                               choice: options.mode)
        if let cell = options.cellSize { capabilities.cellWidth = cell.width; capabilities.cellHeight = cell.height }
        return (replies, capabilities)
    }

    package static func printError(_ message: String) {
        let text = "photogrid: \(TerminalText.sanitize(message))\n"
        _ = try? TTY.writeAll(Array(text.utf8), to: 2)
    }

    /// A message of several lines (an argument's error and the usage after it) on stderr, the
    /// first after "photogrid: ", each line made safe to show.
    package static func printMessage(_ message: String) {
        let lines = message.split(separator: "\n", omittingEmptySubsequences: false).map { TerminalText.sanitize(String($0)) }
        var text = "photogrid: " + lines.joined(separator: "\n")
        if !text.hasSuffix("\n") { text += "\n" }
        _ = try? TTY.writeAll(Array(text.utf8), to: 2)
    }

    /// The photos of a folder, or a clear error. Their paths are absolute (disk cache keys).
    /// What the reading left out goes to `leftOut`, replacing what an earlier reading left.
    static func loadPhotos(_ path: RawPath, scanner: FolderScanner = FolderScanner(), leftOut: Locked<LeftOut>? = nil) throws -> [Photo] {
        let photos: [Photo]
        var missed = LeftOut()
        do { photos = try scanner.scan(path, leftOut: &missed) } catch { throw ExitError("\(error)", status: (error as? FolderScanner.ScanError)?.isUsage == true ? 2 : 1) }
        leftOut?.withLock { $0 = missed }
        guard !photos.isEmpty else {
            throw ExitError("no photos in \(path)" + (missed.summary.map { " (\($0))" } ?? ""))
        }
        return photos
    }

    /// What the terminal probe decides from by default.
    static func environment(_ names: [String] = ["COLORTERM", "TERM", "TMUX", "STY", "TERM_PROGRAM", "XTERM_VERSION"]) -> [String: String] {
        Environment.values(names)
    }

    /// With PHOTOGRID_STATS naming a file, the memory cache's budget and the most it held, and
    /// the work done, for the soaks, the memory benchmark (docs/reliability.md) and tests to check.
    static func writeStats(_ session: GridSession) {
        guard let path = Environment.value("PHOTOGRID_STATS"),
              let file = try? FileDescriptor.open(RawPath(path), .write, options: [.create, .truncate], permissions: 0o644) else { return }
        let work = session.pipeline.workDone
        let text = "cache-budget-bytes \(session.cache.limitBytes)\ncache-peak-bytes \(session.cache.peakBytes)\n"
            + "decodes \(work.decodes)\nencodes \(work.encodes)\ntiles-from-disk \(work.tileDiskHits)\n"
            + "budget-shortfalls \(session.pipeline.budgetShortfalls)\n"
        try? file.writeAll(Array(text.utf8))
        try? file.close()
    }

    /// What the terminal says of itself, for bug reports and for checking a new terminal.
    private static func probe(_ options: Options) throws -> Int32 {
        guard TTY.isTerminal(0), TTY.isTerminal(1) else { throw ExitError("--probe needs a terminal", status: 2) }
        let started = SystemClock().now()
        let replies = TerminalProbe.run(environment: environment())
        let elapsed = SystemClock().now() - started
        let window = TTY.windowSize()
        var lines = Capabilities.report(replies: replies, window: window, environment: environment(), choice: options.mode,
                                        elapsed: elapsed)
        lines.removeAll { $0.isEmpty }
        if !replies.other.isEmpty { lines.append("other input: \(replies.other.count) bytes") }
        try TTY.writeAll(Array((lines.map(TerminalText.sanitize).joined(separator: "\n") + "\n").utf8))
        return 0
    }

    /// Refuses a terminal the grid cannot be drawn on, before a byte is written to it.
    private static func checkCanDraw() throws(ExitError) {
        if let problem = Curses.cannotDraw(term: Environment.value("TERM")) {
            throw ExitError("\(problem), which the grid needs: set TERM to the terminal's name (xterm-256color, "
                            + "tmux-256color...), or use --print to write a contact sheet to stdout", status: 2)
        }
    }

    private static func interactive(_ options: Options, load: (FirstScreen?) throws -> GallerySource, asksAhead: Bool) throws -> Int32 {
        // The folder first: "no such file or folder" helps more than "not a terminal". A gallery
        // that asks ahead for its first screen (a remote one) is loaded once the terminal has
        // said what that screen is.
        var probed: (replies: TerminalReplies, capabilities: Capabilities)?
        if asksAhead && options.pathOutput == nil && TTY.isTerminal(0) && TTY.isTerminal(1) {
            try checkCanDraw()
            CrashGuard.saveModes()
            probed = probeTerminal(options)
        }
        let source = try load(probed.flatMap { probed in
            TTY.windowSize().map { window in
                FirstScreen(screen: GridApp.metrics(columns: window.columns, rows: window.rows, capabilities: probed.capabilities),
                            mode: probed.capabilities.mode, columns: options.columns, fit: options.fit)
            }
        })
        // -o: stdout carries the paths; the grid is drawn on the terminal itself, and its keys
        // read from it when stdin is a pipe too.
        var pathsOutput: FileDescriptor?
        if options.pathOutput != nil {
            do throws(SystemError) {
                let tty = try FileDescriptor.open(RawPath("/dev/tty"), .readWrite, options: .noControllingTerminal)
                try tty.closing { tty throws(SystemError) in
                    pathsOutput = try FileDescriptor.standardOutput.duplicate()
                    try tty.duplicate(as: .standardOutput)
                    if !TTY.isTerminal(0) { try tty.duplicate(as: .standardInput) }
                }
            } catch {
                throw ExitError("-o needs a terminal to draw on (/dev/tty: \(error))", status: 2)
            }
        }
        guard TTY.isTerminal(0), TTY.isTerminal(1) else {
            if TTY.isTerminal(0) {
                throw ExitError("standard output is not a terminal: -o or -0 write the chosen photos' paths there (the grid "
                                + "on the terminal), --print a contact sheet", status: 2)
            }
            throw ExitError("not a terminal: run photogrid in a terminal, or use --print to write one frame to stdout", status: 2)
        }
        if probed == nil {
            try checkCanDraw()
            CrashGuard.saveModes()
        }
        let (replies, capabilities) = probed ?? probeTerminal(options)

        let mailbox = Mailbox()
        let signals = SignalWatcher(mailbox: mailbox)
        let curses: Curses
        do { curses = try Curses() } catch { throw ExitError(error.description) }
        let keys = KeyReader()
        keys.unread(replies.other)
        keys.mouse = options.mouse
        // A raw file beside a JPEG of its name is one tile with it (`RawPairs`); in a folder still
        // being read, once it is read whole (the grid grows by the list as it comes until then).
        let shown = source.reading == nil ? RawPairs.pair(source.photos).shown : source.photos
        let first = shown.isEmpty ? source.photos : shown
        // One session for the run: a new order, a filter or a rescan is a new list it shows.
        // A lone photo is shown whole: a square crop of the only photo hides part of it for nothing.
        let session = GridSession(photos: first, mode: capabilities.mode, fit: first.count == 1 ? .fit : options.fit,
                                  cacheBytes: options.cacheMegabytes * 1024 * 1024, loader: source.loader, decoder: source.decoder,
                                  tierStore: source.tierStore) { mailbox.post(.tileReady) }
        let pressure = Caches.watchPressure { [cache = session.cache] in cache }
        // The readers tell the loop through the mailbox what they bring (`GalleryNews`).
        source.reading?.onChange { mailbox.post(.news(.folderRead)) }
        source.changes?.onChange { mailbox.post(.news(.galleryChanged)) }
        source.watch?.onChange { mailbox.post(.news(.foldersChanged)) }
        var setup = AppSetup(title: source.title, modeName: capabilities.mode.description)
        setup.columns = options.columns
        setup.settings.synchronizedOutput = capabilities.synchronizedOutput
        setup.settings.slideshowSeconds = options.slideshowSeconds
        setup.settings.readOnly = options.readOnly
        setup.settings.insideTmux = Capabilities.isTmux(environment())
        setup.settings.bindings = options.keyBindings
        setup.blanking = capabilities.blanking
        setup.startHint = capabilities.pictureHint
        setup.notice = ([source.leftOut?.withLock { $0.summary }] + source.notices.map { $0 }).compactMap { $0 }.first
        setup.listed = source.photos
        setup.order = source.rescan == nil && !options.sortGiven ? nil : options.order
        setup.showHidden = options.showHidden
        setup.filter = options.filter
        setup.query = options.query
        setup.grouping = options.grouping
        setup.focus = source.focus
        setup.rescan = source.rescan
        setup.readDates = { photos in
            CaptureDates(photos: photos, reader: source.infoReader, catalog: source.catalog) { mailbox.post(.news(.datesRead)) }
        }
        setup.catalog = source.catalog
        setup.readRatings = { photos in RatingScan(photos: photos, reader: source.infoReader) { mailbox.post(.news(.ratingsRead)) } }
        setup.leftOut = source.leftOut.map { box in { box.withLock { $0 } } }
        setup.reading = source.reading
        setup.changes = source.changes
        setup.watch = source.watch
        setup.rescanFolders = source.rescanFolders
        setup.readInfo = { [reader = source.infoReader] photo in reader.info(of: photo) }
        setup.trash = Trash(environment: PhotoGrid.environment(["XDG_DATA_HOME", "HOME"]))
        // Bursts in a folder of this machine's (a remote gallery's photos would be fetched whole).
        if options.stacks, source.rescanFolders != nil {
            setup.findStacks = { photos, dates in
                StackScan(photos: photos, dates: dates, decoder: PhotoDecoder()) { mailbox.post(.news(.stacksFound)) }
            }
        }
        let controller = GridController(setup: setup, session: session, screen: GridApp.metrics(curses: curses, capabilities: capabilities))
        let app = GridApp(controller: controller, mailbox: mailbox, curses: curses, keys: keys, capabilities: capabilities)
        // The folder is watched once the first screen is drawn, so that walking it takes nothing from that.
        app.onScreenComplete = { [watch = source.watch, done = source.onScreenComplete] in
            done?()
            watch?.begin()
        }
        CrashGuard.install(resetSequence: capabilities.exitSequence + KeyReader.mouseOff + Array("\u{1B}[0m".utf8) + curses.resetSequence()
                           + Array("\r\n".utf8))
        defer { CrashGuard.uninstall() }
        var status: Int32 = 1
        var failure: Error?
        do {
            try TTY.writeAll(capabilities.enterSequence + (keys.mouse ? KeyReader.mouseOn : []))
            status = try app.run()
        } catch { failure = error }
        controller.session.pipeline.stop()
        source.watch?.stop()
        writeStats(controller.session)
        // Nothing of ours may stay: clear (for terminals without an alternate screen), give back
        // the private modes we changed, then let ncurses restore the rest.
        curses.clearAll()
        curses.refresh()
        try? TTY.writeAll(controller.canvas.leave() + capabilities.exitSequence + (keys.mouse ? KeyReader.mouseOff : [])
                          + Array("\u{1B}[0m".utf8))
        controller.canvas.finish()
        curses.end()
        pressure.stop()
        withExtendedLifetime(signals) {}
        if let failure { throw ExitError("terminal write failed: \(failure)") }
        if let output = options.pathOutput, let pathsOutput {
            // Only on q: a signal or a crash is no choice of photos.
            if controller.quitRequested {
                let end: UInt8 = output == .nul ? 0 : UInt8(ascii: "\n")
                do throws(TTY.WriteError) {
                    try TTY.writeAll(controller.chosen.flatMap { $0.bytes + [end] }, to: pathsOutput.raw)
                } catch {
                    try? pathsOutput.close()
                    if error.brokenPipe { return TTY.brokenPipeStatus }
                    throw ExitError("cannot write the paths to standard output: \(error.description)")
                }
            }
            do { try pathsOutput.close() } catch { throw ExitError("cannot write the paths to standard output: \(error)") }
        }
        return status
    }
}
