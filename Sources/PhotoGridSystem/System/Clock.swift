/// The clock the app's timing reads, in monotonic milliseconds: the event loop's waits, the
/// slideshow, how long a notice stays, when tmux is asked about its pane. The system's
/// (`MonotonicClock`), or one a test moves by hand (`ManualClock` in the test support), so that a
/// test of something timed advances time instead of waiting for it.
package protocol Clock: Sendable {
    func now() -> Int
}

/// The system's monotonic clock.
package struct MonotonicClock: Clock {
    package init() {}
    package func now() -> Int { SystemClock.milliseconds() }
}
