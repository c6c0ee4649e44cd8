/// A file name that is not UTF-8 (`caf\xE9.jpg`, written by a Latin-1 system), carried through
/// text that must be valid UTF-8 (nginx's JSON listing, which holds names as they are on disk)
/// without losing its bytes: each byte of an invalid sequence becomes a private-use character,
/// U+10FF00 plus the byte, and goes back to that byte, percent-encoded, in the URL. Shown with
/// U+FFFD in its place, as a file manager shows it.
enum RawName {
    static let base: UInt32 = 0x10FF00

    /// `bytes` with every byte that is not part of valid UTF-8 replaced by its private-use character.
    static func keepingInvalidBytes(_ bytes: [UInt8]) -> [UInt8] {
        if String(validating: bytes, as: UTF8.self) != nil { return bytes }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count + 16)
        var i = 0
        while i < bytes.count {
            let length = validSequenceLength(bytes, at: i)
            if length > 0 {
                out += bytes[i..<(i + length)]
                i += length
            } else {
                out += Array(String(Character(Unicode.Scalar(base + UInt32(bytes[i]))!)).utf8)
                i += 1
            }
        }
        return out
    }

    /// The name as a URL path segment: its bytes, the kept ones as they were, percent-encoded.
    static func pathSegment(_ name: String) -> String {
        var raw: [UInt8] = []
        for scalar in name.unicodeScalars {
            if scalar.value >= base + 0x80 && scalar.value <= base + 0xFF { raw.append(UInt8(scalar.value - base)) } else { raw += Array(String(scalar).utf8) }
        }
        var out: [UInt8] = []
        RemoteURL.appendEncoded(raw, keepingSlashes: false, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The name to show: a kept byte as U+FFFD.
    static func shown(_ name: String) -> String {
        guard name.unicodeScalars.contains(where: { $0.value >= base + 0x80 && $0.value <= base + 0xFF }) else { return name }
        return String(String.UnicodeScalarView(name.unicodeScalars.map { $0.value >= base + 0x80 && $0.value <= base + 0xFF ? "\u{FFFD}" : $0 }))
    }

    /// How many bytes of valid UTF-8 start at `i` (one scalar); 0 when none do.
    private static func validSequenceLength(_ bytes: [UInt8], at i: Int) -> Int {
        let first = bytes[i]
        let length: Int
        switch first {
        case 0x00...0x7F: return 1
        case 0xC2...0xDF: length = 2
        case 0xE0...0xEF: length = 3
        case 0xF0...0xF4: length = 4
        default: return 0
        }
        guard i + length <= bytes.count else { return 0 }
        return String(validating: bytes[i..<(i + length)], as: UTF8.self) != nil ? length : 0
    }
}
