import PhotoGridCatalog
import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem
import PhotoGridTerminal

/// `--print`: a contact sheet of what the grid would show first, written to stdout as its tiles
/// are made (`grid`). A single photo instead of a folder is fitted to the whole area.
struct PrintCommand {
    let options: Options
    let load: (FirstScreen?) throws -> GallerySource

    package func run() throws -> Int32 {
        let (screen, mode) = try terminalSetup()
        // A kitty on this machine is handed the pictures as files (it read the probe's): they are
        // removed if photogrid is stopped first, and after the sheet once the terminal has read them.
        let files = mode == .kitty(.file) ? PrintedFiles() : nil
        defer { files?.finish() }
        if options.url == nil, RawPath(options.path).isRegularFile {
            try TTY.writeAll(try singlePhoto(screen: screen, mode: mode))
            files?.awaitTerminal()
        } else {
            let (session, source) = try grid(screen: screen, mode: mode) { try TTY.writeAll($0) }
            files?.awaitTerminal()
            // The frame is complete: let whoever reads it go on (a previewer, a benchmark) while
            // the new thumbnails are written to the disk cache for next time.
            TTY.closeStandardOutput()
            source.onScreenComplete?()
            // A tree still being read (a remote one, printed from its first photos): what it
            // leaves out is said once it is read.
            if let reading = source.reading {
                reading.waitForEnd()
                if let said = source.leftOut?.withLock({ $0.summary }) { PhotoGrid.printError(said) }
            }
            session.pipeline.waitForStores()
            session.pipeline.stop()
            PhotoGrid.writeStats(session)
        }
        return 0
    }

    /// Size from --size, the terminal, or 80x24; mode from --mode, probing only when both ends
    /// are a terminal (auto without a terminal is half-block).
    private func terminalSetup() throws -> (ScreenMetrics, RenderMode) {
        let window = TTY.windowSize(1)
        let size = options.size ?? window.map { ($0.columns, $0.rows) } ?? (80, 24)
        guard size.columns > 0, size.rows > 1 else { throw ExitError("--size must be at least 1x2", status: 2) }
        var replies = TerminalReplies()
        // A terminal that cannot place the cursor is not asked questions it would print.
        if options.mode == .auto && TTY.isTerminal(0) && TTY.isTerminal(1) && Curses.cannotDraw(term: Environment.value("TERM")) == nil {
            replies = TerminalProbe.run(environment: PhotoGrid.environment())
        }
        let caps = Capabilities.decide(replies: replies, window: window, environment: PhotoGrid.environment(),
                                       choice: options.mode)
        let cell = options.cellSize ?? (caps.cellWidth, caps.cellHeight)
        return (ScreenMetrics(columns: size.columns, rows: size.rows, cellWidth: cell.width, cellHeight: cell.height), caps.mode)
    }

    /// A contact sheet: the whole rows of tiles that fit, without the focus frame or the status
    /// line (they are for a user at the keys), with `--labels` each photo's name under its tile.
    private func grid(screen: ScreenMetrics, mode: RenderMode, write: ([UInt8]) throws -> Void) throws -> (GridSession, GallerySource) {
        var source = try load(FirstScreen(screen: screen, mode: mode, columns: options.columns, fit: options.fit))
        // Said on stderr, which a previewer shows apart from the picture or not at all.
        for said in [source.leftOut?.withLock { $0.summary }].compactMap({ $0 }) + source.notices { PhotoGrid.printError(said) }
        // Read at once, as the dates are: --print has nothing to show meanwhile.
        let wantsDates = options.sortsByDate
        // The reading puts what it reads in the catalog, which the filter then asks.
        let known = wantsDates || options.query?.needsCatalog == true
            ? CaptureDates(readingNow: source.photos, reader: source.infoReader, catalog: source.catalog) : nil
        if wantsDates, let known { source.photos = options.order.apply(source.photos, dates: known.dates) }
        if let query = options.query {
            if query.needsCatalog && source.catalog == nil {
                PhotoGrid.printError("--filter: only the names are matched here (what photos are is kept for folders)")
            }
            let matches = source.catalog?.matching(query, among: source.photos) ?? query.matching(source.photos)
            source.photos = source.photos.filter { matches.contains($0.source) }
            guard !source.photos.isEmpty else { throw ExitError("no photo here matches the filter \(query)") }
        }
        if options.filter != .all {
            var read: [PhotoSource: Int] = [:]
            source.infoReader.read(source.photos.filter(\.format.isDecoded)) { photo, info in read[photo.source] = info?.rating ?? 0; return true }
            let ratings = Ratings()
            ratings.merge(scanned: read, setSince: [])
            let kept = ratings.kept(source.photos, by: options.filter)
            guard !kept.isEmpty else { throw ExitError(options.filter.noneLeft + " here") }
            source.photos = kept
        }
        let photos = source.photos
        let mailbox = Mailbox()
        // A lone photo is shown whole, as in the grid.
        let session = GridSession(source: source, mode: mode, fit: photos.count == 1 ? .fit : options.fit, cacheBytes: options.cacheMegabytes * 1024 * 1024) {
            mailbox.post(.tileReady)
        }
        let controller = GridController(title: source.title, session: session,
                                        screen: screen, columns: options.columns, modeName: mode.description)
        let (layout, position) = (controller.layout, controller.position)
        // Whole rows only; with labels, each row's gap below it holds the names.
        var wholeRows = layout.fullyVisibleRows
        if options.labels && wholeRows * layout.rowPitch > layout.viewportRows + GridLayout.statusRows { wholeRows -= 1 }
        wholeRows = max(1, wholeRows)
        let height = min(layout.viewportRows + GridLayout.statusRows,
                         wholeRows * layout.rowPitch - (options.labels ? 0 : GridLayout.gap))
        let shown = { (tile: PaintTile) in tile.row < wholeRows * layout.rowPitch }
        // Only the final tiles of those rows: nobody sees a preview of a printed frame.
        var wanted = session.wanted(layout: layout, position: position, direction: 1)
            .filter { $0.priority == .visible && !$0.request.isPreview && layout.row(of: session.photos.index(of: $0.request.photo) ?? 0) < wholeRows }
        // Made largest files first, so that the last decode to finish is a short one. To a
        // terminal, where the canvas can, each tile is written as soon as it is made, in whatever
        // order they come: each is drawn from the frame's first line (DECSC, down, across, draw,
        // DECRC), so the picture is the same, and the terminal reads one tile while the next are
        // decoded instead of waiting behind a large one (docs/decisions.md, "A sheet's tiles as
        // they come"). To a pipe or a file the frame goes whole, its bytes the same every time.
        let streams = mode.drawsPixels && controller.canvas.printsTilesApart && TTY.isTerminal(1)
        wanted.sort { session.table[$0.request.photo].fileSize > session.table[$1.request.photo].fileSize }
        session.pipeline.holdStores()
        if session.fit == .fit && options.url == nil { readShapes(of: wanted.map(\.request.photo), session: session, mailbox: mailbox) }
        session.pipeline.want(wanted)
        let label = { (tile: PaintTile) in options.labels ? PrintCommand.label(tile, row: tile.row + layout.tileRows) : nil }
        // The tiles written so far, by their place on the sheet.
        var written = Set<[Int]>()
        if streams { try write(PrintComposer.start(rows: height)) }
        while true {
            // Until the pipeline is idle too: a budget too small for the screen leaves tiles unmade.
            // Asked before the tiles are looked at, so that a tile made in between is not missed.
            let idle = session.pipeline.isIdle
            let tiles = controller.contents().tiles.filter(shown).sorted { ($0.row, $0.column) < ($1.row, $1.column) }
            let done = idle || tiles.allSatisfy { !$0.content.isPending }
            if streams {
                var out: [UInt8] = []
                for tile in tiles where done || !tile.content.isPending {
                    guard written.insert([tile.row, tile.column]).inserted else { continue }
                    for op in controller.canvas.printOps([tile]) + [label(tile)].compactMap({ $0 }) {
                        PrintComposer.append(op, rows: height, to: &out)
                    }
                }
                if !out.isEmpty { try write(out) }
            }
            if done {
                if streams { try write(PrintComposer.end(rows: height)); break }
                let ops = controller.canvas.printOps(tiles) + tiles.compactMap(label)
                try write(mode.drawsPixels ? PrintComposer.relative(ops, rows: height) : PrintComposer.lines(ops, rows: height))
                break
            }
            mailbox.wait(milliseconds: 1000)
            _ = mailbox.drain()
        }
        return (session, source)
    }

    /// The photos' details read first, on the workers, where a short read of a file each: a
    /// fitted tile of a photo whose shape is known is made from a smaller decode (a 16:9 photo
    /// in a square box from one at 1/8 scale, not 2/8). Not for a remote gallery, where each
    /// read is a request.
    private func readShapes(of photos: [PhotoID], session: GridSession, mailbox: Mailbox) {
        session.pipeline.want([], infos: photos.map { WantedInfo($0, .visible) })
        while !photos.allSatisfy(session.pipeline.hasReadInfo) && !session.pipeline.isIdle {
            mailbox.wait(milliseconds: 1000)
            _ = mailbox.drain()
        }
    }

    /// A tile's name on the row under it, clipped to its width, made safe for a terminal.
    static func label(_ tile: PaintTile, row: Int) -> PaintOp? {
        let text = TerminalText.clip(TerminalText.sanitize(tile.name), to: tile.width)
        guard !text.isEmpty else { return nil }
        return PaintOp(row: row, column: tile.column, bytes: Array(text.utf8), cells: TerminalText.width(text))
    }

    private func singlePhoto(screen: ScreenMetrics, mode: RenderMode) throws -> [UInt8] {
        let photo = Photo(path: RawPath(options.path), relativePath: RawPath(options.path).lastComponent)
        let box: (width: Int, height: Int) = mode.drawsPixels
            ? (screen.columns * screen.cellWidth, screen.rows * screen.cellHeight)
            : (screen.columns, screen.rows * 2)
        let image: RGBImage
        switch Result(catching: { () throws(DecodeError) -> RGBImage in try fitted(photo, into: box) }) {
        case .success(let fitted): image = fitted
        case .failure(let error): throw ExitError("\(options.path): \(error)")
        }
        let request = TileRequest(photo: PhotoID(raw: 0), width: image.width, height: image.height, fit: .fit, mode: mode)
        let rows = (image.height + screen.cellHeight - 1) / max(1, screen.cellHeight)
        let columns = (image.width + screen.cellWidth - 1) / max(1, screen.cellWidth)
        return mode.format.makeCanvas().printPicture(TileEncoder().encode(image, for: request), request: request, columns: columns, rows: rows)
    }

    /// The photo scaled to fit inside `box`, no larger.
    private func fitted(_ photo: Photo, into box: (width: Int, height: Int)) throws(DecodeError) -> RGBImage {
        let upright = try PhotoDecoder.decodeUpright(photo, atLeast: box, fit: .fit)
        let size = Resampler.fittedSize(width: upright.width, height: upright.height, inside: box.width, box.height)
        let whole = Resampler.Region(x: 0, y: 0, width: Double(upright.width), height: Double(upright.height))
        return Resampler.resample(upright, region: whole, width: size.width, height: size.height)
    }
}

/// The files a `--print` hands a kitty on this machine (`t=t`), which kitty deletes as it reads
/// them. Whatever it has not read is removed: once it has answered a query sent after the sheet
/// (it answers in order), when photogrid is stopped by a signal, and at the end.
final class PrintedFiles {
    private let signals: SignalSources

    init() {
        // Ctrl-C also makes the pty drop what it holds for the terminal: pictures sent but not
        // yet read would stay. Terminal modes are put back as the probe found them.
        let modes = TTY.modes(0)
        signals = SignalSources([SignalSources.interrupt, SignalSources.terminate, SignalSources.hangUp], label: "photogrid.print") { number in
            if let modes { TTY.restore(modes, to: 0) }
            TemporaryFiles.removeLeftovers()
            ThisProcess.exitNow(128 + number)
        }
    }

    /// Waits (at most two seconds) for the terminal to have taken the sheet, files and all.
    func awaitTerminal() {
        if !TerminalProbe.caughtUp(timeoutMilliseconds: 2000) {
            PhotoGrid.printError("the terminal did not answer within 2 s: pictures it has not read yet are removed")
        }
    }

    func finish() {
        TemporaryFiles.removeLeftovers()
        signals.cancel()
    }
}
