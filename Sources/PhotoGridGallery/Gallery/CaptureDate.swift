import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// When a photo was taken, for the date order: EXIF's capture time where the file has a sensible
/// one, else the file's modification time. Both as seconds on a wall clock without a time zone
/// (EXIF's DateTimeOriginal has none), so a camera's "2024:07:14 19:42:05" and a file saved at
/// 19:42:05 local time compare as the same moment.
package enum CaptureDate {
    /// EXIF's "YYYY:MM:DD HH:MM:SS" (also with `-` between the date's parts); nil when missing,
    /// malformed or absurd (before 1826, the first photograph, or more than a year ahead; a
    /// month 13; "0000:00:00 00:00:00", which cameras write when their clock was never set).
    package static func parse(_ text: String?) -> Int64? {
        guard let text else { return nil }
        let digits = Array(text.utf8)
        guard digits.count >= 19 else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for byte in digits[start..<(start + count)] {
                guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              (1826...(currentYear + 1)).contains(year), (1...12).contains(month), (1...31).contains(day),
              hour < 24, minute < 60, second < 61 else { return nil }
        return wallClock(year: year, month: month, day: day, hour: hour, minute: minute, second: second)
    }

    /// A file's modification time (ns since the epoch) as local wall-clock seconds.
    package static func fromFileTime(_ nanoseconds: Int64) -> Int64 {
        let seconds = nanoseconds / 1_000_000_000
        guard let local = SystemClock.localTime(epochSeconds: seconds) else { return seconds }
        return wallClock(year: local.year, month: local.month, day: local.day, hour: local.hour, minute: local.minute, second: local.second)
    }

    /// The photo's place in the date order: its capture date if known, else the date its path
    /// names (`fromPath`: a day folder, a phone's file name), else its file's time, else nothing
    /// (it goes last). Before the dates are read, the last two are the estimate the time views
    /// show at once.
    package static func sortKey(_ photo: Photo, captured: Int64??) -> Int64 {
        if case .some(.some(let date)) = captured { return date }
        let fileTime = photo.stamp.map { fromFileTime($0.modified) }
        return fromPath(photo.relativePath, fileTime: fileTime) ?? fileTime ?? Int64.max
    }

    /// The time of day of wall-clock seconds.
    package static func timeOfDay(_ seconds: Int64) -> (hour: Int, minute: Int, second: Int) {
        let day = seconds >= 0 ? seconds / 86_400 : (seconds - 86_399) / 86_400
        let time = Int(seconds - day * 86_400)
        return (time / 3600, time / 60 % 60, time % 60)
    }

    /// The calendar date of wall-clock seconds (the inverse of `wallClock`).
    package static func civil(_ seconds: Int64) -> (year: Int, month: Int, day: Int) {
        // Howard Hinnant's civil_from_days.
        let days = Int((seconds >= 0 ? seconds : seconds - 86_399) / 86_400) + 719_468
        let era = (days >= 0 ? days : days - 146_096) / 146_097
        let dayOfEra = days - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// Days since 1970-01-01 (the proleptic Gregorian calendar) times a day, plus the time.
    package static func wallClock(year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int) -> Int64 {
        // Howard Hinnant's days_from_civil.
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = Int64(era * 146_097 + dayOfEra - 719_468)
        return days * 86_400 + Int64(hour * 3600 + minute * 60 + second)
    }

    private static let currentYear = civil(SystemClock().wallNanoseconds() / 1_000_000_000).year
}
