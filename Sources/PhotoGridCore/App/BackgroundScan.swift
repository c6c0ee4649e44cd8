import PhotoGridCanvas
import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem

/// A folder read on a thread of its own for the interactive grid: photos are found in the order
/// they are shown (`FolderScanner` walks in natural order), so the grid starts as soon as a first
/// screenful is known, and takes the whole list when the reading is done. Until the grid starts,
/// a tree read for more than a third of a second says on stderr how far it has got.
package final class BackgroundScan: @unchecked Sendable {
    struct State {
        var count = 0
        var first: [Photo]?
        var result: Result<[Photo], ExitError>?
        var onChange: (@Sendable () -> Void)?
        var lastChange = 0
    }

    /// Photos enough for any first screen and the rows prefetched after it.
    static let firstScreen = 200
    /// A folder read in less time starts the grid with all its photos, as before.
    static let patience = 300

    private let state = Locked(State())
    package let title: String

    package init(_ root: RawPath, maxDepth: Int, showHidden: Bool, leftOut: Locked<LeftOut>? = nil) {
        title = root.title
        let started = TTY.now()
        WorkerThreads.start { [self] in
            var scanner = FolderScanner()
            (scanner.maxDepth, scanner.showHidden) = (maxDepth, showHidden)
            scanner.progress = { count, photos in
                let now = TTY.now()
                let change = self.state.withLock { state -> (@Sendable () -> Void)? in
                    state.count = count
                    if state.first == nil, count >= BackgroundScan.firstScreen, now - started >= BackgroundScan.patience {
                        state.first = photos()
                    }
                    guard now - state.lastChange >= 100 else { return nil }
                    state.lastChange = now
                    return state.onChange
                }
                change?()
            }
            let result: Result<[Photo], ExitError>
            do { result = .success(try PhotoGrid.loadPhotos(root, scanner: scanner, leftOut: leftOut)) } catch let error as ExitError {
                result = .failure(error)
            } catch { result = .failure(ExitError("\(error)")) }
            state.withLock { $0.result = result }
            state.withLock { $0.onChange }?()
        }
    }

    /// Waits for the whole list, or for a first screenful when the reading takes longer: the
    /// photos, and whether they are all.
    package func waitForStart() throws -> (photos: [Photo], complete: Bool) {
        let started = TTY.now()
        var shown = started + BackgroundScan.patience
        defer { if TTY.now() >= started + BackgroundScan.patience { _ = try? TTY.writeAll(Array("\r\u{1B}[K".utf8), to: 2) } }
        while true {
            let (result, first, count) = state.withLock { ($0.result, $0.first, $0.count) }
            if let result { return (try result.get(), true) }
            if let first { return (first, false) }
            if TTY.now() >= shown, TTY.isTerminal(2) {
                shown = TTY.now() + 200
                _ = try? TTY.writeAll(Array("\rphotogrid: reading \(TerminalText.sanitize(title)): \(count) photos so far\u{1B}[K".utf8), to: 2)
            }
            SystemClock.sleep(milliseconds: 10)
        }
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

    /// The whole list once the reading is done (empty if it failed after the grid started).
    package var finished: [Photo]? { state.withLock { $0.result.map { (try? $0.get()) ?? [] } } }
}
