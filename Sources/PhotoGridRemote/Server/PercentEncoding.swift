/// Percent-encoding of URL paths (RFC 3986), for the ids the server puts in its URLs and finds
/// again in requests.
///
/// Ids are file paths, and file names hold anything but `/` and NUL: spaces, `%`, `?`, `#`,
/// non-ASCII letters, bytes that are not UTF-8. Everything but the unreserved characters and `/`
/// is encoded, so that any id survives a trip through a client's URL resolution unchanged.
enum PercentEncoding {
    /// `bytes` with every byte but `A-Z a-z 0-9 - . _ ~` and `/` written as `%XX`.
    static func encodePath(_ bytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            if isUnreserved(byte) || byte == UInt8(ascii: "/") {
                out.append(byte)
            } else {
                out.append(UInt8(ascii: "%"))
                out.append(hexDigits[Int(byte >> 4)])
                out.append(hexDigits[Int(byte & 0x0F)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    static func encodePath(_ string: String) -> String { encodePath(Array(string.utf8)) }

    /// The bytes `encoded` stands for, decoded exactly once (`%252e` is `%2e`, not `.`); nil when
    /// a `%` is not followed by two hex digits. `+` is left alone: it means a space only in
    /// form data, not in paths.
    static func decode(_ encoded: Substring.UTF8View) -> [UInt8]? {
        var out: [UInt8] = []
        out.reserveCapacity(encoded.count)
        var iterator = encoded.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "%") else {
                out.append(byte)
                continue
            }
            guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
            out.append(high << 4 | low)
        }
        return out
    }

    private static let hexDigits: [UInt8] = Array("0123456789ABCDEF".utf8)

    private static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        default: return nil
        }
    }
}
