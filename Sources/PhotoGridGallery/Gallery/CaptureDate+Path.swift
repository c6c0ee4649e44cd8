import PhotoGridModel
import PhotoGridSystem

/// A date estimated from where a photo is kept, for the date order and the time views while the
/// dates taken are still being read, and for photos without one: libraries are kept by day
/// (`2015/2015-03-01/IMG_0042.jpg`, darktable's and Shotwell's imports), by month
/// (`2015/03/...`), and phones name photos by the moment (`20150301_142233.jpg`,
/// `IMG_20150301_142233.jpg`, `PXL_20150301_...`).
extension CaptureDate {
    /// The deepest date the path names, as wall-clock seconds: a day's at noon; a month's or a
    /// year's where the file's time falls inside it, else at its start. Nil when it names none.
    package static func fromPath(_ path: RawPath, fileTime: Int64? = nil) -> Int64? {
        // Slices of the path's own bytes, nothing copied: this runs for every photo of a library
        // each time the date order is made on estimates (120,000 paths: 14% of `-`'s time when
        // each component and each run of digits was an array of its own).
        path.bytes.withUnsafeBufferPointer { fromPath(components: $0, fileTime: fileTime) }
    }

    private static func fromPath(components bytes: UnsafeBufferPointer<UInt8>, fileTime: Int64?) -> Int64? {
        var components: [Slice<UnsafeBufferPointer<UInt8>>] = []
        components.reserveCapacity(8)
        var start = 0
        for index in 0...bytes.count where index == bytes.count || bytes[index] == UInt8(ascii: "/") {
            if index > start { components.append(bytes[start..<index]) }
            start = index + 1
        }
        for index in components.indices.reversed() {
            if let (year, month, day) = day(in: components[index]) {
                return wallClock(year: year, month: month, day: day, hour: 12, minute: 0, second: 0)
            }
        }
        // A month: `2015/03` (a year folder, then a month folder), or `2015-03` in one name.
        for index in components.indices.reversed() {
            if let (year, month) = month(in: components[index]) { return within(year, month, fileTime) }
            if index > 0, let year = number(components[index - 1], length: 4), years.contains(year),
               let month = leadingNumber(components[index]), (1...12).contains(month), components[index].count <= 12 {
                return within(year, month, fileTime)
            }
        }
        for component in components.reversed() {
            if let year = number(component, length: 4), years.contains(year) { return within(year, nil, fileTime) }
        }
        return nil
    }

    /// Years a library's folders name: not a file numbered 0042 or 8000.
    static let years = 1900...2099

    /// `2015-03-01`, `2015_03_01`, `2015.03.01` or `20150301`, between non-digits.
    static func day<Name: RandomAccessCollection<UInt8>>(in name: Name) -> (Int, Int, Int)? where Name.Index == Int {
        let first = name.startIndex, last = name.endIndex
        var start = first
        while start < last {
            guard isDigit(name[start]), start == first || !isDigit(name[start - 1]) else { start += 1; continue }
            var end = start
            while end < last && isDigit(name[end]) { end += 1 }
            let count = end - start
            if count == 8, let date = valid(value(name[start..<(start + 4)]), value(name[(start + 4)..<(start + 6)]),
                                            value(name[(start + 6)..<end])) {
                return date
            }
            if count == 4, end + 6 <= last, isSeparator(name[end]), isSeparator(name[end + 3]),
               end + 6 == last || !isDigit(name[end + 6]),
               let date = valid(value(name[start..<end]), value(name[(end + 1)..<(end + 3)]), value(name[(end + 4)..<(end + 6)])) {
                return date
            }
            start = end
        }
        return nil
    }


    /// `2015-03` or `2015_03` as a whole name or its start, not followed by a day.
    static func month<Name: RandomAccessCollection<UInt8>>(in name: Name) -> (Int, Int)? where Name.Index == Int {
        let first = name.startIndex
        guard name.count >= 7, let year = value(name[first..<(first + 4)]), years.contains(year), isSeparator(name[first + 4]),
              let month = value(name[(first + 5)..<(first + 7)]), (1...12).contains(month),
              name.count == 7 || !isDigit(name[first + 7]) else { return nil }
        return (year, month)
    }

    private static func valid(_ year: Int?, _ month: Int?, _ day: Int?) -> (Int, Int, Int)? {
        guard let year, let month, let day, years.contains(year), (1...12).contains(month), (1...31).contains(day) else { return nil }
        return (year, month, day)
    }

    private static func within(_ year: Int, _ month: Int?, _ fileTime: Int64?) -> Int64 {
        if let fileTime {
            let (fileYear, fileMonth, _) = civil(fileTime)
            if fileYear == year && (month == nil || month == fileMonth) { return fileTime }
        }
        return wallClock(year: year, month: month ?? 1, day: 1, hour: 12, minute: 0, second: 0)
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }
    private static func isSeparator(_ byte: UInt8) -> Bool { byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".") }

    /// The number the bytes write, when they are all digits.
    private static func value<S: Sequence<UInt8>>(_ digits: S) -> Int? {
        var result = 0, any = false
        for byte in digits {
            guard isDigit(byte) else { return nil }
            result = result * 10 + Int(byte - UInt8(ascii: "0"))
            any = true
        }
        return any ? result : nil
    }

    /// The name, when it is exactly `length` digits.
    private static func number<Name: RandomAccessCollection<UInt8>>(_ name: Name, length: Int) -> Int? {
        name.count == length ? value(name) : nil
    }

    /// The digits a name starts with (`03`, `03 March`, `3-Holiday`), at most two of them.
    private static func leadingNumber<Name: RandomAccessCollection<UInt8>>(_ name: Name) -> Int? {
        let digits = name.prefix { isDigit($0) }
        guard (1...2).contains(digits.count) else { return nil }
        return value(digits)
    }
}
