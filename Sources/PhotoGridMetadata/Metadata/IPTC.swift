import PhotoGridModel
import PhotoGridSystem

/// Reads the caption (record 2, dataset 120, Caption/Abstract) out of IPTC-NAA data: the
/// Information Interchange Model records that Photoshop keeps in its 8BIM resource 0x0404.
///
/// IIM data is a run of datasets, each a 0x1C tag marker, a record number, a dataset number, a
/// 2-byte big-endian length and the value. Lengths with the high bit set are the extended form:
/// the low 15 bits give how many bytes of real length follow. Every length is checked against the
/// data before the value is read; the first thing that is not a dataset ends the run.
package enum IPTCReader {
    /// The IIM caption holds at most 2,000 bytes; more are cut the same way XMP captions are.
    package static let maxCharacters = XMPReader.maxCharacters

    package static func caption(_ data: [UInt8]) -> String? {
        var at = 0
        // Each dataset takes at least 5 bytes, so the walk ends; the cap is a second guard.
        for _ in 0..<(data.count / 5 + 1) {
            guard at <= data.count - 5, data[at] == 0x1C else { return nil }
            let record = data[at + 1], dataset = data[at + 2]
            var length = Int(data[at + 3]) << 8 | Int(data[at + 4])
            var valueAt = at + 5
            if length & 0x8000 != 0 {
                // More than 4 bytes of length would be a value no JPEG segment can hold.
                let lengthBytes = length & 0x7FFF
                guard (1...4).contains(lengthBytes), lengthBytes <= data.count - valueAt else { return nil }
                length = (0..<lengthBytes).reduce(0) { $0 << 8 | Int(data[valueAt + $1]) }
                valueAt += lengthBytes
            }
            guard length <= data.count - valueAt else { return nil }
            if record == 2 && dataset == 120 {
                return decode(data[valueAt..<(valueAt + length)])
            }
            at = valueAt + length
        }
        return nil
    }

    /// UTF-8 when the bytes are valid UTF-8, else Latin-1.
    ///
    /// Writers that use UTF-8 should say so in dataset 1:90 (ESC % G), but many do not, and
    /// Latin-1 text with accents is almost never valid UTF-8 by chance: the bytes themselves are
    /// the better guide, so the marker is not needed to choose.
    static func decode(_ bytes: ArraySlice<UInt8>) -> String? {
        let kept = bytes.filter { $0 != 0 }
        var text: String
        if let utf8 = String(validating: kept, as: UTF8.self) {
            text = utf8
        } else {
            text = String(String.UnicodeScalarView(kept.map { Unicode.Scalar($0) }))
        }
        while text.last == " " { text.removeLast() }
        return text.isEmpty ? nil : String(text.prefix(maxCharacters))
    }
}
