import Glibc

/// The two clocks photogrid reads, read in one place: the monotonic one for durations and
/// deadlines (it never jumps when the date is set), the wall clock for what is stored with a date
/// (file times, HTTP freshness).
package enum SystemClock {
    /// Monotonic seconds, with their fraction.
    package static func seconds() -> Double {
        let time = read(CLOCK_MONOTONIC)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    /// Monotonic milliseconds.
    package static func milliseconds() -> Int {
        let time = read(CLOCK_MONOTONIC)
        return time.tv_sec * 1000 + time.tv_nsec / 1_000_000
    }

    /// Wall-clock nanoseconds since 1970, the clock file times are set from.
    package static func wallNanoseconds() -> Int64 {
        let time = read(CLOCK_REALTIME)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    private static func read(_ clock: clockid_t) -> timespec {
        var time = timespec()
        clock_gettime(clock, &time)
        return time
    }
}
