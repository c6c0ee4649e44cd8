/// Percent-encoding: building paths from names, reading names back, and the normal form's
/// escapes (RFC 3986 sections 2.1-2.4 and 6.2.2).
extension RemoteURL {
    /// `name` as one path segment: its UTF-8 bytes, every one but the unreserved characters
    /// (`A-Z a-z 0-9 - . _ ~`) as `%XX`. A "/" inside a name is encoded too, so it stays one
    /// segment; "." and ".." stay as they are, so callers must not pass them as names.
    package static func percentEncode(pathSegment name: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(name.utf8.count)
        appendEncoded(name.utf8, keepingSlashes: false, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A relative path made of `path`'s "/"-separated parts, each encoded as by
    /// `percentEncode(pathSegment:)`: `alps/lake 01` becomes `alps/lake%2001`. This is how a
    /// manifest's `{id}` is written into its rendition template.
    package static func percentEncode(path: String) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(path.utf8.count)
        appendEncoded(path.utf8, keepingSlashes: true, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// A path's bytes (a file's path need not be UTF-8) with every byte but the unreserved
    /// characters and "/" as `%XX`: how `photogrid serve` writes its ids into URLs.
    package static func percentEncode(pathBytes: [UInt8]) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(pathBytes.count)
        appendEncoded(pathBytes, keepingSlashes: true, to: &out)
        return String(decoding: out, as: UTF8.self)
    }

    /// The bytes `encoded` stands for, decoded exactly once (`%252e` is `%2e`, not `.`); nil when
    /// a `%` is not followed by two hex digits: a server reading a request's path refuses what
    /// `percentDecoded` would let through.
    package static func strictlyPercentDecoded(_ encoded: some Sequence<UInt8>) -> [UInt8]? {
        var out: [UInt8] = []
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

    /// A relative reference to the names in `segments`, in order, each encoded; with a trailing
    /// "/" when `directory`. A first segment such as `10:30.jpg` cannot be mistaken for a scheme,
    /// since ":" is encoded.
    package static func relativePath(segments: [String], directory: Bool = false) -> String {
        segments.map { percentEncode(pathSegment: $0) }.joined(separator: "/") + (directory ? "/" : "")
    }

    static func appendEncoded(_ bytes: some Sequence<UInt8>, keepingSlashes: Bool, to out: inout [UInt8]) {
        for byte in bytes {
            if isUnreserved(byte) || (keepingSlashes && byte == UInt8(ascii: "/")) {
                out.append(byte)
            } else {
                appendEscape(byte, to: &out)
            }
        }
    }

    /// `text` with each `%XX` replaced by its byte and the bytes read as UTF-8. A `%` that starts
    /// no valid escape stays as it is, and bytes that are not UTF-8 become U+FFFD, so any input
    /// gives some text. "+" stays "+": it means a space only in HTML form data, not in paths.
    package static func percentDecoded(_ text: some StringProtocol) -> String {
        let bytes = Array(text.utf8)
        guard bytes.contains(UInt8(ascii: "%")) else { return String(text) }
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = 0
        while i < bytes.count {
            if bytes[i] == UInt8(ascii: "%"), i + 2 < bytes.count,
               let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                out.append(high << 4 | low)
                i += 3
            } else {
                out.append(bytes[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    // MARK: - The normal form

    /// `bytes` with valid escapes in upper case (unescaped when they stand for an unreserved
    /// character) and everything that may not stand raw in a path (or, `inQuery`, a query)
    /// escaped, a stray "%" included.
    static func normalized(_ bytes: ArraySlice<UInt8>, inQuery: Bool) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        var i = bytes.startIndex
        while i < bytes.endIndex {
            let byte = bytes[i]
            if byte == UInt8(ascii: "%"), i + 2 < bytes.endIndex,
               let high = hexValue(bytes[i + 1]), let low = hexValue(bytes[i + 2]) {
                let value = high << 4 | low
                if isUnreserved(value) { out.append(value) } else { appendEscape(value, to: &out) }
                i += 3
                continue
            }
            if isUnreserved(byte) || isSubDelimiter(byte) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: "@")
                || byte == UInt8(ascii: "/") || (inQuery && byte == UInt8(ascii: "?")) {
                out.append(byte)
            } else {
                appendEscape(byte, to: &out)
            }
            i += 1
        }
        return out
    }

    /// RFC 3986 section 5.2.4 on an absolute path: "." segments go, ".." takes the one before it
    /// with it (never past the root), and a path that ended in either ends in "/".
    static func removingDotSegments(_ path: [UInt8]) -> [UInt8] {
        guard hasDotSegment(path) else { return path }
        let segments = path.split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false).dropFirst()
        var kept: [ArraySlice<UInt8>] = []
        var endsInDirectory = false
        for segment in segments {
            endsInDirectory = false
            if segment.elementsEqual([UInt8(ascii: ".")]) {
                endsInDirectory = true
            } else if segment.elementsEqual([UInt8(ascii: "."), UInt8(ascii: ".")]) {
                if !kept.isEmpty { kept.removeLast() }
                endsInDirectory = true
            } else {
                kept.append(segment)
            }
        }
        var out: [UInt8] = [UInt8(ascii: "/")]
        for (index, segment) in kept.enumerated() {
            if index > 0 { out.append(UInt8(ascii: "/")) }
            out.append(contentsOf: segment)
        }
        if endsInDirectory && !kept.isEmpty { out.append(UInt8(ascii: "/")) }
        return out
    }

    /// Whether a "." or ".." segment is there; most paths have none, and keep their bytes.
    private static func hasDotSegment(_ path: [UInt8]) -> Bool {
        var segmentStart = 0
        for i in 0...path.count where i == path.count || path[i] == UInt8(ascii: "/") {
            let length = i - segmentStart
            if (length == 1 || length == 2) && path[segmentStart..<i].allSatisfy({ $0 == UInt8(ascii: ".") }) { return true }
            segmentStart = i + 1
        }
        return false
    }

    // MARK: - Characters

    /// RFC 3986 section 2.3: ALPHA / DIGIT / "-" / "." / "_" / "~".
    static func isUnreserved(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            return true
        default:
            return false
        }
    }

    /// RFC 3986 section 2.2: `! $ & ' ( ) * + , ; =`.
    static func isSubDelimiter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "!"), UInt8(ascii: "$"), UInt8(ascii: "&"), UInt8(ascii: "'"), UInt8(ascii: "("), UInt8(ascii: ")"),
             UInt8(ascii: "*"), UInt8(ascii: "+"), UInt8(ascii: ","), UInt8(ascii: ";"), UInt8(ascii: "="):
            return true
        default:
            return false
        }
    }

    static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): return byte - UInt8(ascii: "0")
        case UInt8(ascii: "A")...UInt8(ascii: "F"): return byte - UInt8(ascii: "A") + 10
        case UInt8(ascii: "a")...UInt8(ascii: "f"): return byte - UInt8(ascii: "a") + 10
        default: return nil
        }
    }

    private static let hexDigits = Array("0123456789ABCDEF".utf8)

    static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "%"))
        appendHex(byte, to: &out)
    }

    /// Two upper-case hex digits.
    static func appendHex(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(hexDigits[Int(byte >> 4)])
        out.append(hexDigits[Int(byte & 15)])
    }

    /// An IPv6 address as RFC 3986 section 3.2.2 writes it between brackets: eight groups of one
    /// to four hex digits, one run of them shortened to "::", the last two perhaps written as an
    /// IPv4 address. Zone ids (`%25eth0`) and IPvFuture are refused: no HTTP server wants them.
    static func isIPv6(_ text: ArraySlice<UInt8>) -> Bool {
        let bytes = Array(text)
        var shortening: Int?
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == UInt8(ascii: ":") && bytes[i + 1] == UInt8(ascii: ":") {
                guard shortening == nil else { return false }
                shortening = i
                i += 2
            } else {
                i += 1
            }
        }
        if let at = shortening {
            guard let head = ipv6Groups(bytes[..<at], last: false),
                  let tail = ipv6Groups(bytes[(at + 2)...], last: true) else { return false }
            return head + tail <= 7
        }
        return ipv6Groups(bytes[...], last: true) == 8
    }

    /// How many 16-bit groups `part` ("1:2:3", perhaps ending in an IPv4 address when it is the
    /// `last` part) writes; nil when it is malformed.
    private static func ipv6Groups(_ part: ArraySlice<UInt8>, last: Bool) -> Int? {
        guard !part.isEmpty else { return 0 }
        let items = part.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false)
        var groups = 0
        for (index, item) in items.enumerated() {
            if last && index == items.count - 1 && item.contains(UInt8(ascii: ".")) {
                guard isIPv4(item) else { return nil }
                groups += 2
            } else {
                guard (1...4).contains(item.count), item.allSatisfy({ hexValue($0) != nil }) else { return nil }
                groups += 1
            }
        }
        return groups
    }

    /// Four decimal numbers 0-255, without leading zeros.
    static func isIPv4(_ text: ArraySlice<UInt8>) -> Bool {
        let parts = text.split(separator: UInt8(ascii: "."), omittingEmptySubsequences: false)
        return parts.count == 4 && parts.allSatisfy { part in
            guard (1...3).contains(part.count), part.allSatisfy({ $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }),
                  part.count == 1 || part.first != UInt8(ascii: "0") else { return false }
            return part.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } <= 255
        }
    }
}
