import PhotoGridModel
import PhotoGridSystem

/// The EXIF fields photogrid uses, read from the TIFF structure inside an Exif APP1 segment.
///
/// Files are not trusted: every offset and count is checked against the data before it is read,
/// IFDs that point back into themselves are read once, and what cannot be read is left nil.
package struct ExifInfo: Sendable, Equatable {
    package var orientation: Orientation = .up
    package var dateTimeOriginal: String?
    package var imageDescription: String?
    package var make: String?
    package var model: String?
    /// Degrees, negative in the south and west.
    package var latitude: Double?
    package var longitude: Double?
    /// Seconds (ExposureTime, 0x829A).
    package var exposureTime: Double?
    /// The f-number (FNumber, 0x829D).
    package var fNumber: Double?
    /// PhotographicSensitivity (0x8827), formerly ISOSpeedRatings.
    package var iso: Int?
    /// Millimetres, as the lens saw it, not the 35 mm equivalent (FocalLength, 0x920A).
    package var focalLength: Double?
    /// LensModel (0xA434) and LensMake (0xA433).
    package var lensModel: String?
    package var lensMake: String?
    /// Where IFD1's JPEG thumbnail lies in the TIFF data.
    package var thumbnail: Range<Int>?

    package init() {}

    package static func parse(_ tiff: [UInt8]) -> ExifInfo {
        var info = ExifInfo()
        guard let reader = TIFFReader(tiff) else { return info }
        var visited = Set<Int>()
        let ifd0 = reader.entries(at: reader.firstIFD, visited: &visited)
        for entry in ifd0.entries {
            switch entry.tag {
            case 0x0112:
                if let value = reader.integer(entry), let orientation = Orientation(rawValue: value) { info.orientation = orientation }
            case 0x010E: info.imageDescription = reader.string(entry)
            case 0x010F: info.make = reader.string(entry)
            case 0x0110: info.model = reader.string(entry)
            case 0x8769:
                if let offset = reader.integer(entry) { info.readExifIFD(reader.entries(at: offset, visited: &visited).entries, reader) }
            case 0x8825:
                if let offset = reader.integer(entry) { info.readGPS(reader.entries(at: offset, visited: &visited).entries, reader) }
            default: break
            }
        }
        if let next = ifd0.next {
            let ifd1 = reader.entries(at: next, visited: &visited).entries
            let start = ifd1.first { $0.tag == 0x0201 }.flatMap(reader.integer)
            let length = ifd1.first { $0.tag == 0x0202 }.flatMap(reader.integer)
            if let start, let length, length > 0, start <= tiff.count, length <= tiff.count - start {
                info.thumbnail = start..<(start + length)
            }
        }
        return info
    }
}

/// Bounds-checked reading of TIFF IFDs in either byte order.
struct TIFFReader {
    struct Entry { var tag: UInt16; var type: UInt16; var count: Int; var valueOffset: Int }

    static let maxEntries = 512
    let data: [UInt8]
    let bigEndian: Bool
    let firstIFD: Int

    init?(_ data: [UInt8]) {
        guard data.count >= 8 else { return nil }
        if data[0] == 0x49 && data[1] == 0x49 { bigEndian = false }
        else if data[0] == 0x4D && data[1] == 0x4D { bigEndian = true }
        else { return nil }
        self.data = data
        guard let magic = TIFFReader.u16(data, 2, bigEndian), magic == 42,
              let first = TIFFReader.u32(data, 4, bigEndian) else { return nil }
        firstIFD = first
    }

    static func u16(_ d: [UInt8], _ at: Int, _ be: Bool) -> Int? {
        guard at >= 0, at <= d.count - 2 else { return nil }
        return be ? Int(d[at]) << 8 | Int(d[at + 1]) : Int(d[at + 1]) << 8 | Int(d[at])
    }

    static func u32(_ d: [UInt8], _ at: Int, _ be: Bool) -> Int? {
        guard at >= 0, at <= d.count - 4 else { return nil }
        let b = (0..<4).map { Int(d[at + $0]) }
        return be ? b[0] << 24 | b[1] << 16 | b[2] << 8 | b[3] : b[3] << 24 | b[2] << 16 | b[1] << 8 | b[0]
    }

    /// The entries of the IFD at `offset` and the offset of the next IFD; nothing for an IFD
    /// already read (a loop) or one that does not fit in the data.
    func entries(at offset: Int, visited: inout Set<Int>) -> (entries: [Entry], next: Int?) {
        guard offset >= 8, !visited.contains(offset), let count = TIFFReader.u16(data, offset, bigEndian),
              count <= TIFFReader.maxEntries, offset + 2 + count * 12 + 4 <= data.count else { return ([], nil) }
        visited.insert(offset)
        var result: [Entry] = []
        for i in 0..<count {
            let at = offset + 2 + i * 12
            guard let tag = TIFFReader.u16(data, at, bigEndian), let type = TIFFReader.u16(data, at + 2, bigEndian),
                  let n = TIFFReader.u32(data, at + 4, bigEndian) else { continue }
            let size = TIFFReader.typeSize(type)
            guard size > 0, n <= data.count / size else { continue }
            let valueOffset = n * size <= 4 ? at + 8 : (TIFFReader.u32(data, at + 8, bigEndian) ?? -1)
            guard valueOffset >= 0, valueOffset <= data.count - n * size else { continue }
            result.append(Entry(tag: UInt16(tag), type: UInt16(type), count: n, valueOffset: valueOffset))
        }
        let next = TIFFReader.u32(data, offset + 2 + count * 12, bigEndian).flatMap { $0 == 0 ? nil : $0 }
        return (result, next)
    }

    static func typeSize(_ type: Int) -> Int {
        switch type {
        case 1, 2, 6, 7: return 1
        case 3, 8: return 2
        case 4, 9, 11: return 4
        case 5, 10, 12: return 8
        default: return 0
        }
    }

    /// The first value of a BYTE, SHORT or LONG entry.
    func integer(_ e: Entry) -> Int? {
        guard e.count >= 1 else { return nil }
        switch e.type {
        case 1, 7: return Int(data[e.valueOffset])
        case 3: return TIFFReader.u16(data, e.valueOffset, bigEndian)
        case 4: return TIFFReader.u32(data, e.valueOffset, bigEndian)
        default: return nil
        }
    }

    /// An ASCII (or UTF-8, as many writers put there) entry, without its trailing NULs and spaces.
    func string(_ e: Entry) -> String? {
        guard e.type == 2 || e.type == 7 || e.type == 1 else { return nil }
        var bytes = Array(data[e.valueOffset..<(e.valueOffset + e.count)])
        if let nul = bytes.firstIndex(of: 0) { bytes.removeSubrange(nul...) }
        let text = String(decoding: bytes, as: UTF8.self)
        let trimmed = String(text.reversed().drop { $0 == " " }.reversed())
        return trimmed.isEmpty ? nil : trimmed
    }

    func rationals(_ e: Entry) -> [Double]? {
        guard e.type == 5 else { return nil }
        return (0..<e.count).compactMap { i in
            guard let n = TIFFReader.u32(data, e.valueOffset + i * 8, bigEndian),
                  let d = TIFFReader.u32(data, e.valueOffset + i * 8 + 4, bigEndian), d != 0 else { return nil }
            return Double(n) / Double(d)
        }
    }
}
