import PhotoGridModel
import PhotoGridSystem

/// Whether a JPEG file is whole: it runs to its end-of-image marker. A decode that needs only a
/// progressive file's first scans (small tiles), or only its EXIF thumbnail, never reads to the
/// end, so a file still being copied would look whole at those sizes and not at others.
extension JPEGSegments {
    /// The markers walked from the start, through every scan's entropy-coded data (where 0xFF is
    /// followed only by a stuffed 0x00, a restart marker or more 0xFF), to EOI: true when EOI is
    /// reached, false when the data ends first. What follows EOI (a phone's motion photo appends
    /// a video) does not matter.
    package static func reachesEnd(_ data: [UInt8]) -> Bool {
        guard data.count >= 4, data[0] == 0xFF, data[1] == 0xD8 else { return false }
        var at = 2
        var inScan = false
        while at < data.count - 1 {
            if inScan {
                // Entropy-coded data up to the next marker that is not a restart.
                guard let next = nextMarker(in: data, from: at) else { return false }
                at = next
                inScan = false
                continue
            }
            guard data[at] == 0xFF else { return false }
            while at < data.count, data[at] == 0xFF { at += 1 }
            guard at < data.count else { return false }
            let marker = data[at]
            at += 1
            switch marker {
            case 0xD9: return true
            case 0x01, 0xD0...0xD7: continue
            case 0x00, 0xD8: return false
            default: break
            }
            guard at <= data.count - 2 else { return false }
            let length = Int(data[at]) << 8 | Int(data[at + 1])
            guard length >= 2, length <= data.count - at else { return false }
            at += length
            if marker == 0xDA { inScan = true }
        }
        return false
    }

    /// Where the marker after a scan's data starts (its 0xFF), nil when the data ends first.
    package static func nextMarker(in data: [UInt8], from start: Int) -> Int? {
        var at = start
        while at < data.count - 1 {
            if data[at] == 0xFF {
                let byte = data[at + 1]
                if byte != 0x00 && byte != 0xFF && !(0xD0...0xD7).contains(byte) { return at }
                at += byte == 0xFF ? 1 : 2
            } else {
                at += 1
            }
        }
        return nil
    }

    /// The last two bytes are EOI: the answer for nearly every file at the cost of one small read.
    package static func endsWithEOI(_ tail: [UInt8]) -> Bool { tail.count == 2 && tail[0] == 0xFF && tail[1] == 0xD9 }
}
