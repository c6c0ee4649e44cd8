import PhotoGridCore

/// A clock that moves only when the test says (`advance`): what is timed runs at once. Its wall
/// time starts at 2026-01-01 and moves with it.
package final class ManualClock: Clock, @unchecked Sendable {
    private let milliseconds = Locked(1_000_000)
    private static let wallStart: Int64 = 1_767_225_600 * 1_000_000_000

    package init() {}

    package func monotonicNanoseconds() -> Int64 { Int64(milliseconds.withLock { $0 }) * 1_000_000 }
    package func wallNanoseconds() -> Int64 { ManualClock.wallStart + monotonicNanoseconds() }

    package func advance(milliseconds step: Int) { milliseconds.withLock { $0 += step } }
}
