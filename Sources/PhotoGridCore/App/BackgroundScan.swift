import PhotoGridCanvas
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A gallery read on a thread of its own for the interactive grid: a folder (`FolderScanner`
/// walks in natural order) or a remote tree (crawled a few folders at a time). The reader says
/// as it goes how many photos it has found and which of them are settled: the first ones in the
/// order they are shown, which nothing found later can come before. The grid starts as soon as
/// a first screenful is settled, and takes the whole list when the reading is done. Until the
/// grid starts, a reading that takes more than a third of a second says on stderr how far it has got.
package final class BackgroundScan: @unchecked Sendable {
    struct State {
        var count = 0
        var first: [Photo]?
        /// The photos settled after the first ones and not yet taken by the grid (`takeGrown`),
        /// looked at every `growEvery` ms: only what is new is kept, so that a reading holds no
        /// second copy of a million photos.
        var grown: [Photo] = []
        /// How many settled photos the grid has taken, `first` included.
        var taken = 0
        var lastGrowth = 0
        var result: Result<[Photo], ExitError>?
        var onChange: (@Sendable () -> Void)?
        var lastChange = 0
    }

    /// What a reader tells as it goes: photos found so far, and the settled ones (asked for
    /// only when the grid could start with them).
    package typealias Progress = @Sendable (_ count: Int, _ settled: () -> [Photo]) -> Void

    /// Photos enough for any first screen and the rows prefetched after it.
    static let firstScreen = 200
    /// A folder read in less time starts the grid with all its photos. 100 ms: a library's first
    /// screen within 0.3 s of the start (issue 47), where 300 ms left 120,000 photos at 0.43 s;
    /// a folder of 10,000 is read within it.
    static let patience = 100
    /// How often the grid may take the photos settled since it started.
    static let growEvery = 1000

    private let state = Locked(State())
    package let title: String
    /// Patience and the pace of growth are counted on it.
    private let clock: any Clock

    package convenience init(_ root: RawPath, maxDepth: Int, showHidden: Bool, removesLeftovers: Bool = false, leftOut: Locked<LeftOut>? = nil) {
        self.init(title: root.title) { progress in
            var scanner = FolderScanner()
            (scanner.maxDepth, scanner.showHidden, scanner.removesLeftovers) = (maxDepth, showHidden, removesLeftovers)
            // The scanner finds photos in the order they are shown: all it found is settled.
            scanner.progress = { count, photos in progress(count) { photos() } }
            return try PhotoGrid.loadPhotos(root, scanner: scanner, leftOut: leftOut)
        }
    }

    /// Runs `read` on a thread of its own; the grid may start once `firstScreen` photos are settled.
    package init(title: String, firstScreen: Int = BackgroundScan.firstScreen, clock: any Clock = SystemClock(),
                 read: @escaping @Sendable (@escaping Progress) throws -> [Photo]) {
        self.title = title
        self.clock = clock
        let started = clock.now()
        WorkerThreads.start { [self] in
            let progress: Progress = { count, settled in
                let now = clock.now()
                let (wantsFirst, wantsMore) = self.state.withLock { state in
                    (state.first == nil && now - started >= BackgroundScan.patience,
                     state.first != nil && now - state.lastGrowth >= BackgroundScan.growEvery)
                }
                let list = wantsFirst || wantsMore ? settled() : nil
                let change = self.state.withLock { state -> (@Sendable () -> Void)? in
                    state.count = count
                    if state.first == nil, let list, list.count >= firstScreen {
                        state.first = list
                        state.taken = list.count
                        state.lastGrowth = now
                    } else if wantsMore, let list {
                        state.lastGrowth = now
                        let known = state.taken + state.grown.count
                        if list.count > known { state.grown += list[known...] }
                    }
                    guard now - state.lastChange >= 100 else { return nil }
                    state.lastChange = now
                    return state.onChange
                }
                change?()
            }
            let result: Result<[Photo], ExitError>
            do { result = .success(try read(progress)) } catch let error as ExitError {
                result = .failure(error)
            } catch { result = .failure(ExitError("\(error)", status: (error as? FolderScanner.ScanError)?.isUsage == true ? 2 : 1)) }
            state.withLock { $0.result = result }
            state.withLock { $0.onChange }?()
        }
    }

    /// Waits for the whole list, or for a first screenful when the reading takes longer: the
    /// photos, and whether they are all.
    package func waitForStart() throws -> (photos: [Photo], complete: Bool) {
        let started = clock.now()
        var shown = started + BackgroundScan.patience
        // The progress line is erased where it was shown: on a terminal.
        defer { if clock.now() >= started + BackgroundScan.patience, TTY.isTerminal(2) { _ = try? TTY.writeAll(Array("\r\u{1B}[K".utf8), to: 2) } }
        while true {
            let (result, first, count) = state.withLock { ($0.result, $0.first, $0.count) }
            if let result { return (try result.get(), true) }
            if let first { return (first, false) }
            if clock.now() >= shown, TTY.isTerminal(2) {
                shown = clock.now() + 200
                _ = try? TTY.writeAll(Array("\rphotogrid: reading \(TerminalText.sanitize(title)): \(count) photos so far\u{1B}[K".utf8), to: 2)
            }
            SystemClock.sleep(milliseconds: 10)
        }
    }

    /// Waits until the reading is done: `--print` says what it left out once the frame is out.
    package func waitForEnd() {
        while state.withLock({ $0.result == nil }) { SystemClock.sleep(milliseconds: 10) }
    }

    /// Called (on the reading thread) as more photos are found and when the reading is done.
    /// When the reading is already done, `body` is called at once: its last call went to nobody.
    package func onChange(_ body: @escaping @Sendable () -> Void) {
        let done = state.withLock { state -> Bool in
            state.onChange = body
            return state.result != nil
        }
        if done { body() }
    }

    /// Photos found so far.
    package var count: Int { state.withLock { $0.count } }

    /// How many photos are settled and not yet taken.
    package var grownCount: Int { state.withLock { $0.grown.count } }

    /// The photos settled since the grid last took them, in the order they are shown, to go
    /// after the grid's (`GridController.growReading`). Let go here once taken.
    package func takeGrown() -> [Photo] {
        state.withLock { state in
            defer { state.grown = [] }
            state.taken += state.grown.count
            return state.grown
        }
    }

    /// Whether the reading is done.
    package var isFinished: Bool { state.withLock { $0.result != nil } }

    /// The whole list once the reading is done (empty if it failed after the grid started),
    /// given once: the reading holds no copy of it after.
    package func takeFinished() -> [Photo]? {
        state.withLock { state in
            guard let result = state.result else { return nil }
            state.result = .success([])
            (state.grown, state.first) = ([], nil)
            return (try? result.get()) ?? []
        }
    }
}
