import Glibc
import PhotoGridCore
import PhotoGridTestSupport

/// What a key costs once the memory cache is warm, measured in-process on the app's own
/// controller (no terminal): the time from the key to the frame's bytes, and how many bytes.
struct Interaction {
    struct Figure {
        var seconds: Double; var bytes: Int; var tilesLoading: Int
        /// From the key until every tile on screen is drawn and the pipeline has nothing left.
        var settled: Double = 0
    }

    let controller: GridController
    let session: GridSession

    init(folder: String, mode: RenderMode, columns: Int = 6) throws {
        let photos = try FolderScanner().scan(RawPath(folder))
        session = GridSession(photos: photos, mode: mode, fit: .fill, cacheBytes: 512 * 1024 * 1024) {}
        controller = GridController(title: "bench", session: session,
                                    screen: ScreenMetrics(columns: 240, rows: 67, cellWidth: 10, cellHeight: 20),
                                    columns: columns, modeName: mode.description)
    }

    /// Frames until the screen is final and everything prefetched is made.
    func settle() {
        repeat {
            _ = controller.frame()
            usleep(20_000)
        } while controller.contents().loading > 0 || !controller.session.pipeline.isIdle
    }

    /// The time zoom from 6 columns, the photos in the date order first (their dates read before
    /// anything is measured): `-` out to the months, the first time and again after `q`; `j` a
    /// row down in the months; `-` out to the years; `+` back in to the months.
    func timeZoom() -> [(String, Figure)] {
        let screen = controller.screen
        controller.allowChanges(order: PhotoOrder(.date), showHidden: false, rescan: nil) { photos in
            CaptureDates(photos: photos, reader: InfoReader(loader: FileLoader(), decoder: PhotoDecoder()), catalog: nil) {}
        }
        while controller.order?.key != .date { _ = controller.frame(); controller.takeNews(); usleep(20_000) }
        controller.resize(to: screen)
        var figures = [("6 columns to months, first (-)", measure(.character("-")))]
        _ = measure(.character("q"))
        figures.append(("6 columns to months, again (-)", measure(.character("-"))))
        figures.append(("one row down in the months (j)", measure(.character("j"))))
        figures.append(("months to years (-)", measure(.character("-"))))
        figures.append(("years to months (+)", measure(.character("+"))))
        return figures
    }

    /// One row down: the focus moved to the last whole row, then `j`, each of which scrolls by
    /// one row; the median of `times`.
    func scrollOneRow(times: Int) -> Figure {
        for _ in 1..<controller.layout.fullyVisibleRows { controller.handle(.character("j")) }
        return Interaction.median((0..<times).map { _ in measure(.character("j")) })
    }

    /// `+` and `-` in turn, from 6 columns: the medians of each.
    func columnChanges(times: Int) -> (plus: Figure, minus: Figure) {
        var plus: [Figure] = [], minus: [Figure] = []
        for _ in 0..<times {
            plus.append(measure(.character("+")))
            minus.append(measure(.character("-")))
        }
        return (Interaction.median(plus), Interaction.median(minus))
    }

    static func median(_ figures: [Figure]) -> Figure {
        figures.sorted { $0.seconds < $1.seconds }[figures.count / 2]
    }

    func measure(_ key: Key) -> Figure {
        settle()
        let start = Timing.now()
        controller.handle(key)
        let frame = controller.frame()
        let seconds = Timing.now() - start
        var figure = Figure(seconds: seconds, bytes: frame.bytes.count, tilesLoading: frame.tilesLoading)
        settle()
        figure.settled = Timing.now() - start
        return figure
    }

    func stop() { session.pipeline.stop() }
}

/// Thumbnails per second: every photo of a folder made into a 6-column tile, from cold.
enum Throughput {
    package static func run(folder: String, mode: RenderMode) throws -> (photos: Int, seconds: Double) {
        let photos = try FolderScanner().scan(RawPath(folder))
        // Each finished tile calls back once.
        let finished = Locked(0), done = Waiter()
        let session = GridSession(photos: photos, mode: mode, fit: .fill, cacheBytes: 1 << 30) {
            finished.withLock { $0 += 1 }
            done.signal()
        }
        defer { session.pipeline.stop() }
        let layout = GridLayout(screen: ScreenMetrics(columns: 240, rows: 67, cellWidth: 10, cellHeight: 20), columns: 6)
        let requests = photos.indices.map { index in
            WantedTile(session.request(session.id(at: index), frame: layout.frames[index % layout.columns], visibleRows: layout.tileRows, screen: layout.screen),
                       .visible)
        }
        let seconds = Timing.time {
            session.pipeline.want(requests)
            _ = done.wait(seconds: 24 * 3600) { finished.withLock { $0 } >= requests.count }
        }
        return (photos.count, seconds)
    }
}

/// The zoom view, in-process: how long from Enter to the first picture (a preview from the
/// grid's tier image) and to the sharp one, and how long a step to the next photo takes once its
/// neighbours are prefetched.
struct ZoomTimes {
    struct Figure { var first: Double; var sharp: Double }

    let interaction: Interaction

    /// Frames until the view shows something (`first`) and its final picture (`sharp`).
    func timeToPictures(after key: Key) -> Figure {
        let controller = interaction.controller
        let start = Timing.now()
        controller.handle(key)
        var first: Double? = nil
        while true {
            let frame = controller.frame()
            let now = Timing.now() - start
            if first == nil, !frame.bytes.isEmpty, controller.zoomShowsPicture { first = now }
            if frame.tilesLoading == 0 && controller.zoomShowsPicture { return Figure(first: first ?? now, sharp: now) }
            usleep(500)
        }
    }

    /// Opens the zoom view on the focused photo, then steps `steps` times; medians.
    package func run(steps: Int) -> (open: Figure, zoomIn: Figure, step: Figure) {
        interaction.settle()
        let open = timeToPictures(after: .enter)
        interaction.settle()
        let zoomIn = timeToPictures(after: .character("+"))
        _ = timeToPictures(after: .character("0"))
        var figures: [Figure] = []
        for _ in 0..<steps {
            interaction.settle()
            figures.append(timeToPictures(after: .character("n")))
        }
        let sorted = figures.sorted { $0.sharp < $1.sharp }
        return (open, zoomIn, sorted[sorted.count / 2])
    }
}
