import PhotoGridModel
import PhotoGridSystem

/// The metadata segments of a JPEG file and its frame size, found by walking its markers from SOI
/// to the first scan, without libjpeg and without decoding anything.
///
/// Files are not trusted: every length is checked against the data before anything is read, each
/// step moves forward, and the walk stops after `maxSegments` markers. A segment cut off by the end
/// of the data is ignored rather than half-read, so a truncated file yields exactly what lay
/// before the cut.
package struct JPEGSegments: Sendable, Equatable {
    /// The TIFF structure after "Exif\0\0" in the first Exif APP1 segment.
    package var exif: [UInt8]?
    /// The XMP packet after "http://ns.adobe.com/xap/1.0/\0" in APP1.
    package var xmp: [UInt8]?
    /// The IPTC-NAA (IIM) data of the 8BIM resource 0x0404 in APP13 "Photoshop 3.0\0".
    package var iptc: [UInt8]?
    /// The stored size from the first SOFn segment (before any EXIF orientation is applied).
    package var width: Int?
    package var height: Int?
    package var isProgressive = false
    /// The ICC profile's chunks (APP2 "ICC_PROFILE"), by their sequence number from 1, and how
    /// many the file says there are.
    var iccChunks: [Int: [UInt8]] = [:]
    var iccCount = 0
    /// Where a camera's larger preview lies in the file, from the Multi-Picture index (APP2
    /// "MPF"): `MultiPicture`. Checked against the file only where it is read.
    package var preview: Range<Int>?
    /// Where that index itself lies in the file (the bytes after "MPF\0").
    var multiPictureIndex: Range<Int>?

    /// The ICC profile, when every chunk of it is there.
    package var icc: [UInt8]? {
        guard iccCount > 0, iccChunks.count == iccCount else { return nil }
        var profile: [UInt8] = []
        for sequence in 1...iccCount {
            guard let chunk = iccChunks[sequence] else { return nil }
            profile += chunk
        }
        return profile
    }

    package init() {}

    /// More markers than any real file has before its first scan; a file with more is hostile.
    static let maxSegments = 1_000

    static let exifIdentifier: [UInt8] = Array("Exif".utf8) + [0, 0]
    static let xmpIdentifier: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]
    static let photoshopIdentifier: [UInt8] = Array("Photoshop 3.0".utf8) + [0]
    static let iccIdentifier: [UInt8] = Array("ICC_PROFILE".utf8) + [0]

    package static func parse(_ data: [UInt8]) -> JPEGSegments {
        var result = JPEGSegments()
        guard data.count >= 2, data[0] == 0xFF, data[1] == 0xD8 else { return result }
        var at = 2
        for _ in 0..<maxSegments {
            guard at < data.count, data[at] == 0xFF else { break }
            // A marker may be preceded by any number of 0xFF fill bytes.
            while at < data.count && data[at] == 0xFF { at += 1 }
            guard at < data.count else { break }
            let marker = data[at]
            at += 1
            switch marker {
            case 0xDA, 0xD9: return result                   // SOS: the image data begins; EOI
            case 0x01, 0xD0...0xD7: continue                  // TEM and RSTn stand alone, with no length
            case 0x00, 0xD8: return result                    // a stuffed byte or a second SOI: not a marker stream
            default: break
            }
            guard at <= data.count - 2 else { break }
            let length = Int(data[at]) << 8 | Int(data[at + 1])
            // The length counts its own two bytes: 0 and 1 are impossible and would not move forward.
            guard length >= 2, length <= data.count - at else { break }
            result.take(marker, data[(at + 2)..<(at + length)])
            at += length
        }
        return result
    }

    private mutating func take(_ marker: UInt8, _ payload: ArraySlice<UInt8>) {
        switch marker {
        case 0xE1:
            if exif == nil, payload.starts(with: JPEGSegments.exifIdentifier) {
                exif = Array(payload.dropFirst(JPEGSegments.exifIdentifier.count))
            } else if xmp == nil, payload.starts(with: JPEGSegments.xmpIdentifier) {
                xmp = Array(payload.dropFirst(JPEGSegments.xmpIdentifier.count))
            }
        case 0xE2 where payload.starts(with: MultiPicture.identifier):
            // The slice keeps the data's indices: the index's offset in the file.
            if multiPictureIndex == nil {
                multiPictureIndex = (payload.startIndex + MultiPicture.identifier.count)..<payload.endIndex
                preview = MultiPicture.preview(index: Array(payload.dropFirst(MultiPicture.identifier.count)),
                                               at: payload.startIndex + MultiPicture.identifier.count)
            }
        case 0xE2:
            // "ICC_PROFILE\0", the chunk's number from 1 and the count, then a part of the profile
            // (64 KB segments cut a larger one).
            let identifier = JPEGSegments.iccIdentifier
            guard payload.count > identifier.count + 2, payload.starts(with: identifier) else { return }
            let base = payload.startIndex + identifier.count
            let sequence = Int(payload[base]), count = Int(payload[base + 1])
            guard sequence >= 1, sequence <= count, iccCount == 0 || iccCount == count, iccChunks[sequence] == nil else { return }
            iccCount = count
            iccChunks[sequence] = Array(payload[(base + 2)...])
        case 0xED:
            if iptc == nil, payload.starts(with: JPEGSegments.photoshopIdentifier) {
                iptc = JPEGSegments.iptcResource(Array(payload.dropFirst(JPEGSegments.photoshopIdentifier.count)))
            }
        case 0xC0...0xC3, 0xC5...0xC7, 0xC9...0xCB, 0xCD...0xCF:
            // C4 (DHT), C8 (reserved) and CC (DAC) share the range but are not frames.
            guard width == nil, payload.count >= 6 else { return }
            let base = payload.startIndex
            let h = Int(payload[base + 1]) << 8 | Int(payload[base + 2])
            let w = Int(payload[base + 3]) << 8 | Int(payload[base + 4])
            // A height of 0 means a DNL marker after the first scan gives it: unknown here.
            width = w > 0 ? w : nil
            height = h > 0 ? h : nil
            isProgressive = marker == 0xC2 || marker == 0xC6 || marker == 0xCA || marker == 0xCE
        default:
            break
        }
    }

    /// The data of the IPTC-NAA resource (0x0404) among Photoshop image resources, each laid out as
    /// a 4-byte type, a 2-byte id, a Pascal name padded to an even length, a 4-byte size and the
    /// data padded to an even length.
    static func iptcResource(_ resources: [UInt8]) -> [UInt8]? {
        // Types other than 8BIM come from other Adobe programs; their layout is the same.
        let types: Set<[UInt8]> = [Array("8BIM".utf8), Array("PHUT".utf8), Array("DCSR".utf8),
                                   Array("AgHg".utf8), Array("MeSa".utf8)]
        var at = 0
        // Each resource takes at least 12 bytes, so this ends; the cap is a second guard.
        for _ in 0..<maxSegments {
            guard at <= resources.count - 12 else { return nil }
            let type = Array(resources[at..<(at + 4)])
            guard types.contains(type) else { return nil }
            let id = Int(resources[at + 4]) << 8 | Int(resources[at + 5])
            let nameLength = Int(resources[at + 6])
            let nameField = (1 + nameLength + 1) & ~1
            let sizeAt = at + 6 + nameField
            guard sizeAt <= resources.count - 4 else { return nil }
            let size = (0..<4).reduce(0) { $0 << 8 | Int(resources[sizeAt + $1]) }
            let dataAt = sizeAt + 4
            guard size <= resources.count - dataAt else { return nil }
            if id == 0x0404 && type == Array("8BIM".utf8) { return Array(resources[dataAt..<(dataAt + size)]) }
            // The pad byte may be missing after the last resource: the guard above then ends the walk.
            at = dataAt + size + (size & 1)
        }
        return nil
    }

    /// Where the last marker of `data` past its frame header starts: in entropy-coded data 0xFF
    /// is followed only by 0x00 (a stuffed byte), a restart marker or more 0xFF, so any other
    /// byte after 0xFF begins a marker. nil when there is none after the first scan's start.
    package static func lastMarker(in data: [UInt8]) -> Int? {
        guard let firstScan = (2..<max(2, data.count - 1)).first(where: { data[$0] == 0xFF && data[$0 + 1] == 0xDA }) else { return nil }
        var at = data.count - 2
        while at > firstScan {
            if data[at] == 0xFF, data[at + 1] != 0x00, data[at + 1] != 0xFF, !(0xD0...0xD7).contains(data[at + 1]) { return at }
            at -= 1
        }
        return nil
    }
}
