import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Bounds the memory that decodes use while they run (libjpeg's buffers, its output and its
/// copies): a decode waits until what it will use fits beside the decodes already running; one
/// that needs more than the whole bound runs alone. What runs is also lent from the memory
/// cache's budget (`observe`), whose unprotected entries give way to it, and the pipeline plans
/// its prefetches to leave room for the largest recent decode (`largestRecent`).
///
/// Why: a progressive JPEG keeps every DCT coefficient of the whole photo until its last scan,
/// about three bytes a pixel at 4:2:0, whatever the output scale: 44 MB for a 5120x2880 photo,
/// 54 MB for 5640x3172. Two such decodes at once on two workers took the resident peak of a
/// 32 MB budget to 165 MB (docs/reliability.md).
package final class MemoryGate: @unchecked Sendable {
    /// The process's gate, for decodes outside a session (`--print` of one file, tools). A
    /// session's decoder has its own, which the session sets to a third of its memory budget,
    /// at least `floor` (`fit(budget:)`): what runs is lent from the budget, and a larger budget
    /// lets two decodes that cannot scale (a HEIC, an AVIF: 40-80 MB each) run at once, one a core.
    package static let decodes = MemoryGate()
    /// The least any gate allows at once: 48 MB.
    package static let floor = 48 << 20

    private var bound: Int
    private let condition = Condition()
    private var used = 0
    private var peak = 0
    private var recent: [Int] = []
    private var observer: (@Sendable (Int) -> Void)?

    package init(limit: Int = MemoryGate.floor) { bound = max(1, limit) }

    /// Sets the bound for a session whose memory budget is `budget` bytes.
    package func fit(budget: Int) {
        condition.lock()
        bound = max(MemoryGate.floor, budget / 3)
        condition.broadcast()
        condition.unlock()
    }

    /// Runs `body` once `bytes` fit beside what is running (or nothing else runs).
    package func run<T, E: Error>(bytes: Int, _ body: () throws(E) -> T) throws(E) -> T {
        let bytes = max(0, bytes)
        condition.lock()
        while used > 0 && used + bytes > bound { condition.wait() }
        used += bytes
        peak = max(peak, used)
        recent.append(bytes)
        if recent.count > 32 { recent.removeFirst() }
        let observer = self.observer, now = used
        condition.unlock()
        observer?(now)
        defer {
            condition.lock()
            used -= bytes
            let observer = self.observer, now = used
            condition.broadcast()
            condition.unlock()
            observer?(now)
        }
        return try body()
    }

    /// Called with what decodes use, whenever it changes: the running session's cache. One at a
    /// time (a photogrid process has one session).
    package func observe(_ observer: (@Sendable (Int) -> Void)?) {
        condition.lock()
        self.observer = observer
        condition.unlock()
    }

    /// The most one of the last 32 decodes needed.
    package var largestRecent: Int {
        condition.lock()
        defer { condition.unlock() }
        return recent.max() ?? 0
    }

    /// The most that ran at once: for tests.
    package var peakBytes: Int {
        condition.lock()
        defer { condition.unlock() }
        return peak
    }
}
