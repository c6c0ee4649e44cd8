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

    private static func read(_ clock: clockid_t) -> timespec {
        var time = timespec()
        clock_gettime(clock, &time)
        return time
    }
}
