import PhotoGridCore

/// A clock that moves only when the test says (`advance`): what is timed runs at once.
package final class ManualClock: Clock, @unchecked Sendable {
    private let time = Locked(1_000_000)

    package init() {}

    package func now() -> Int { time.withLock { $0 } }

    package func advance(milliseconds: Int) { time.withLock { $0 += milliseconds } }
}
