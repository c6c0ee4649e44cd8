import Dispatch
import Glibc
import PhotoGridCore

/// What a key costs once the memory cache is warm, measured in-process on the app's own
/// controller (no terminal): the time from the key to the frame's bytes, and how many bytes.
struct Interaction {
    struct Figure { var seconds: Double; var bytes: Int; var tilesLoading: Int }

    let controller: GridController
    let session: GridSession

    init(folder: String, mode: RenderMode) throws {
        let photos = try FolderScanner().scan(RawPath(folder))
        session = GridSession(photos: photos, mode: mode, fit: .fill, cacheBytes: 512 * 1024 * 1024) { _ in }
        controller = GridController(title: "bench", session: session,
                                    screen: ScreenMetrics(columns: 240, rows: 67, cellWidth: 10, cellHeight: 20),
                                    columns: 6, modeName: mode.description)
    }

    /// Frames until the screen is final and everything prefetched is made.
    func settle() {
        repeat {
            _ = controller.frame()
            usleep(20_000)
        } while controller.contents().loading > 0 || !session.pipeline.isIdle
    }

    /// One row down: the focus moved to the last whole row, then `j`, which scrolls by one row.
    func scrollOneRow() -> Figure {
        for _ in 1..<controller.layout.fullyVisibleRows { controller.handle(.character("j")) }
        return measure(.character("j"))
    }

    func measure(_ key: Key) -> Figure {
        settle()
        let start = Clock.now()
        controller.handle(key)
        let frame = controller.frame()
        let seconds = Clock.now() - start
        return Figure(seconds: seconds, bytes: frame.bytes.count, tilesLoading: frame.tilesLoading)
    }

    func stop() { session.pipeline.stop() }
}

/// Thumbnails per second: every photo of a folder made into a 6-column tile, from cold.
enum Throughput {
    static func run(folder: String, mode: RenderMode) throws -> (photos: Int, seconds: Double) {
        let photos = try FolderScanner().scan(RawPath(folder))
        let done = DispatchSemaphore(value: 0)
        let session = GridSession(photos: photos, mode: mode, fit: .fill, cacheBytes: 1 << 30) { _ in done.signal() }
        defer { session.pipeline.stop() }
        let layout = GridLayout(screen: ScreenMetrics(columns: 240, rows: 67, cellWidth: 10, cellHeight: 20), columns: 6)
        let requests = photos.indices.map { index in
            (session.request(index, frame: layout.frames[index % layout.columns], visibleRows: layout.tileRows, screen: layout.screen),
             Priority.visible)
        }
        let seconds = Clock.time {
            session.pipeline.want(requests)
            for _ in requests { done.wait() }
        }
        return (photos.count, seconds)
    }
}
