import PhotoGridModel
import PhotoGridSystem

/// The sub-IFDs IFD0 points to: the Exif IFD (tag 0x8769) says when the photo was taken, how it
/// was exposed and through which lens; the GPS IFD (tag 0x8825) where.
extension ExifInfo {
    mutating func readExifIFD(_ entries: [TIFFReader.Entry], _ reader: TIFFReader) {
        for entry in entries {
            switch entry.tag {
            case 0x9003: dateTimeOriginal = reader.string(entry)
            case 0x829A: exposureTime = ExifInfo.positive(reader.rational(entry))
            case 0x829D: fNumber = ExifInfo.positive(reader.rational(entry))
            case 0x920A: focalLength = ExifInfo.positive(reader.rational(entry))
            case 0x8827: iso = reader.integer(entry).flatMap { $0 > 0 ? $0 : nil }
            case 0xA433: lensMake = reader.string(entry)
            case 0xA434: lensModel = reader.string(entry)
            default: break
            }
        }
    }

    mutating func readGPS(_ entries: [TIFFReader.Entry], _ reader: TIFFReader) {
        func coordinate(_ valueTag: UInt16, _ refTag: UInt16, negative: String) -> Double? {
            guard let entry = entries.first(where: { $0.tag == valueTag }),
                  let parts = reader.rationals(entry), parts.count == 3 else { return nil }
            let degrees = parts[0] + parts[1] / 60 + parts[2] / 3600
            guard degrees.isFinite else { return nil }
            let ref = entries.first { $0.tag == refTag }.flatMap(reader.string)
            return ref?.uppercased() == negative ? -degrees : degrees
        }
        latitude = coordinate(2, 1, negative: "S").flatMap { abs($0) <= 90 ? $0 : nil }
        longitude = coordinate(4, 3, negative: "W").flatMap { abs($0) <= 180 ? $0 : nil }
    }

    /// Cameras write 0 for what they do not know (an f-number of 0 for a manual lens without
    /// contacts), which is no value to show.
    private static func positive(_ value: Double?) -> Double? {
        guard let value, value.isFinite, value > 0 else { return nil }
        return value
    }
}

extension TIFFReader {
    /// The first value of a RATIONAL (or SRATIONAL) entry; nil for a zero denominator.
    func rational(_ e: Entry) -> Double? {
        guard e.count >= 1, e.type == 5 || e.type == 10,
              let n = TIFFReader.u32(data, e.valueOffset, bigEndian),
              let d = TIFFReader.u32(data, e.valueOffset + 4, bigEndian), d != 0 else { return nil }
        if e.type == 10 { return Double(Int32(truncatingIfNeeded: n)) / Double(Int32(truncatingIfNeeded: d)) }
        return Double(n) / Double(d)
    }
}
