/// Adds APPn segments (XMP, IPTC, or anything a test needs) to a JPEG file that `JPEG.encode`
/// wrote, so that tests and the sample gallery can build files with any mix of metadata.
package enum JPEGSegmentsWriter {
    /// The largest payload a segment holds: its 2-byte length counts itself too.
    package static let maxPayload = 65_533

    /// `jpeg` with the segments inserted after SOI and after the APPn segments already there, in
    /// the order given: JFIF's APP0 must stay first, and readers expect Exif's APP1 before XMP's.
    /// Payloads longer than `maxPayload` cannot be a segment and stop the program, since callers
    /// only ever pass what they built.
    package static func insert(segments: [(marker: UInt8, payload: [UInt8])], into jpeg: [UInt8]) -> [UInt8] {
        precondition(jpeg.count >= 2 && jpeg[0] == 0xFF && jpeg[1] == 0xD8, "not a JPEG file")
        var bytes: [UInt8] = []
        for (marker, payload) in segments {
            precondition(payload.count <= maxPayload, "a segment payload of \(payload.count) bytes")
            let length = payload.count + 2
            bytes += [0xFF, marker, UInt8(length >> 8), UInt8(length & 0xFF)] + payload
        }
        let at = endOfLeadingAPPSegments(jpeg)
        return Array(jpeg[..<at]) + bytes + Array(jpeg[at...])
    }

    /// Where the APPn segments that follow SOI end (2 if there are none, or if they are damaged).
    static func endOfLeadingAPPSegments(_ jpeg: [UInt8]) -> Int {
        var at = 2
        while at <= jpeg.count - 4, jpeg[at] == 0xFF, (0xE0...0xEF).contains(jpeg[at + 1]) {
            let length = Int(jpeg[at + 2]) << 8 | Int(jpeg[at + 3])
            guard length >= 2, length <= jpeg.count - at - 2 else { return 2 }
            at += 2 + length
        }
        return at
    }
}
