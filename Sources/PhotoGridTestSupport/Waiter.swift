import PhotoGridCore

/// What a test waits for instead of sleeping: the code under test says when anything changed (a
/// tile made, details read, the pipeline gone idle) through `signal`, given as its callback, and
/// `wait(seconds:until:)` sleeps on a condition between those signals, asking the test's question
/// each time one comes. A test then takes as long as the work does, and no longer.
package final class Waiter: @unchecked Sendable {
    private let condition = Condition()
    private var signals = 0

    package init() {}

    /// Something changed: whoever waits looks again.
    package func signal() {
        condition.lock()
        signals += 1
        condition.broadcast()
        condition.unlock()
    }

    /// Waits until no signal has come for `quiet` seconds (whatever signals was quiet that long),
    /// at most `limit` seconds; whether it was.
    package func waitForQuiet(_ quiet: Double, limit: Double) -> Bool {
        let deadline = SystemClock().now() + Int(limit * 1000)
        condition.lock()
        defer { condition.unlock() }
        while true {
            let seen = signals
            let left = deadline - SystemClock().now()
            guard left > 0 else { return false }
            let timedOut = !condition.wait(milliseconds: min(left, Int(quiet * 1000)))
            if timedOut && signals == seen { return left >= Int(quiet * 1000) }
        }
    }

    /// Waits until `done` is true, asked now and after each signal, for at most `seconds`;
    /// whether it came true.
    package func wait(seconds: Double = 20, until done: () -> Bool) -> Bool {
        let deadline = SystemClock().now() + Int(seconds * 1000)
        while true {
            condition.lock()
            let seen = signals
            condition.unlock()
            if done() { return true }
            condition.lock()
            defer { condition.unlock() }
            while signals == seen {
                let left = deadline - SystemClock().now()
                guard left > 0 else { return done() }
                _ = condition.wait(milliseconds: left)
            }
        }
    }
}
