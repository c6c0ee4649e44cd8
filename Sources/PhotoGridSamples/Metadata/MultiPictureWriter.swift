/// Makes a JPEG carry a second, smaller JPEG the way cameras do (CIPA DC-007, Multi-Picture
/// Format): an APP2 "MPF" index after the other APPn segments listing both images, and the second
/// one appended after the photo's end of image. For tests and for camera-like copies of photos
/// (`photogrid-bench mpf`): no camera on this machine writes them.
package enum MultiPictureWriter {
    /// MP entry types (the low 24 bits of an entry's attributes).
    package enum Kind: UInt32, Sendable {
        case largeThumbnailVGA = 0x01_0001
        case largeThumbnailFullHD = 0x01_0002
        /// What Ultra HDR's gain map and other undefined images say.
        case undefined = 0x00_0000
        case multiAngle = 0x02_0003
    }

    /// `primary` with `second` appended and indexed as `kind`. `offsetShift` moves the second
    /// entry's offset (tests of a stale or hostile index); `bigEndian` picks the index's order.
    package static func add(_ second: [UInt8], as kind: Kind = .largeThumbnailFullHD, to primary: [UInt8],
                            bigEndian: Bool = true, offsetShift: Int = 0) -> [UInt8] {
        // The index's size does not depend on its values: laid out once with zeros to learn
        // where it will start, then again with the offsets.
        let placeholder = index(primaryLength: 0, secondLength: 0, secondOffset: 0, kind: kind, bigEndian: bigEndian)
        let segmentStart = JPEGSegmentsWriter.endOfLeadingAPPSegments(primary)
        let indexStart = segmentStart + 4 + 4   // marker, length, "MPF\0"
        let primaryLength = primary.count + 4 + 4 + placeholder.count
        let payload = Array("MPF".utf8) + [0] + index(primaryLength: primaryLength, secondLength: second.count,
                                                       secondOffset: primaryLength - indexStart + offsetShift,
                                                       kind: kind, bigEndian: bigEndian)
        return JPEGSegmentsWriter.insert(segments: [(0xE2, payload)], into: primary) + second
    }

    /// The TIFF structure: header, one IFD of version, count and the entry list, then the list.
    package static func index(primaryLength: Int, secondLength: Int, secondOffset: Int, kind: Kind, bigEndian: Bool) -> [UInt8] {
        func u16(_ v: Int) -> [UInt8] { bigEndian ? [UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] : [UInt8(v & 0xFF), UInt8(v >> 8 & 0xFF)] }
        func u32(_ v: Int) -> [UInt8] {
            let b = [UInt8(v >> 24 & 0xFF), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)]
            return bigEndian ? b : b.reversed()
        }
        let listOffset = 8 + 2 + 3 * 12 + 4
        var out: [UInt8] = bigEndian ? [0x4D, 0x4D] : [0x49, 0x49]
        out += u16(42) + u32(8) + u16(3)
        out += u16(0xB000) + u16(7) + u32(4) + Array("0100".utf8)
        out += u16(0xB001) + u16(4) + u32(1) + u32(2)
        out += u16(0xB002) + u16(7) + u32(32) + u32(listOffset)
        out += u32(0)
        // The primary: representative (bit 29), "Baseline MP Primary Image" (0x030000), offset 0.
        out += u32(0x2003_0000) + u32(primaryLength) + u32(0) + u16(0) + u16(0)
        out += u32(Int(kind.rawValue)) + u32(secondLength) + u32(secondOffset) + u16(0) + u16(0)
        return out
    }
}
