import Dispatch
import PhotoGridModel
import PhotoGridSystem

/// At most one decode or encode per core at a time, however many pipeline threads there are:
/// a network gallery runs more threads than cores so that downloads overlap, and they take the
/// gate only for the work that needs a core.
package final class CPUGate: Sendable {
    package static let shared = CPUGate(permits: WorkerThreads.cores)

    private let semaphore: DispatchSemaphore

    package init(permits: Int) { semaphore = DispatchSemaphore(value: max(1, permits)) }

    package func run<T, E: Error>(_ body: () throws(E) -> T) throws(E) -> T {
        semaphore.wait()
        defer { semaphore.signal() }
        return try body()
    }
}
