import Glibc

/// The one clock photogrid reads, two faces of it: monotonic time for durations and deadlines
/// (the event loop's waits, retries, scans' progress, memory pressure; it never jumps when the
/// date is set) and wall time for what is stored with a date (file times, HTTP freshness, the
/// trash's deletion date). `SystemClock` reads the system's; a test passes one it moves by hand
/// (`ManualClock` in the test support), so that what is timed advances instead of waiting.
package protocol Clock: Sendable {
    /// Monotonic nanoseconds, from an unspecified start.
    func monotonicNanoseconds() -> Int64
    /// Nanoseconds since 1970, UTC.
    func wallNanoseconds() -> Int64
}

extension Clock {
    /// Monotonic milliseconds.
    package func now() -> Int { Int(monotonicNanoseconds() / 1_000_000) }
    /// Monotonic seconds, with their fraction.
    package func seconds() -> Double { Double(monotonicNanoseconds()) / 1e9 }
    /// Whole seconds since 1970.
    package func wallSeconds() -> Int { Int(wallNanoseconds() / 1_000_000_000) }
}

/// The system's clocks (clock_gettime), and what goes with them: the calendar and sleeping.
package struct SystemClock: Clock {
    package init() {}

    package func monotonicNanoseconds() -> Int64 { SystemClock.read(CLOCK_MONOTONIC) }
    package func wallNanoseconds() -> Int64 { SystemClock.read(CLOCK_REALTIME) }

    /// The local calendar date and time (localtime_r, the time zone's rules) of seconds since
    /// 1970; nil where the C library cannot say.
    package static func localTime(epochSeconds: Int64) -> (year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int)? {
        var seconds = time_t(epochSeconds)
        var parts = tm()
        guard localtime_r(&seconds, &parts) != nil else { return nil }
        return (Int(parts.tm_year) + 1900, Int(parts.tm_mon) + 1, Int(parts.tm_mday), Int(parts.tm_hour), Int(parts.tm_min), Int(parts.tm_sec))
    }

    /// Sleeps this thread (usleep).
    package static func sleep(milliseconds: Int) { usleep(useconds_t(max(0, milliseconds) * 1000)) }

    private static func read(_ clock: clockid_t) -> Int64 {
        var time = timespec()
        clock_gettime(clock, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }
}
