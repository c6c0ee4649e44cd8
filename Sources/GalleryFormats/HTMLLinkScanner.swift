import PhotoGridModel
/// Finds the links (`<a href>`) of an HTML page, and its title and first heading, without
/// parsing HTML: enough for the directory indexes of nginx, Apache and Python, and tolerant of
/// whatever else a server sends.
///
/// Attribute values may be double-quoted, single-quoted or bare; names are matched in any case;
/// character references (`&amp;`, `&#38;`, `&#x26;` and a few named ones) are replaced in
/// values and text. Comments, and the contents of `<script>` and `<style>`, hold no links.
/// Every step moves forward, so the scan is linear in the size of the page.
struct HTMLLinkScanner {
    /// The `href` of each `<a>`, in document order, with character references replaced.
    private(set) var links: [String] = []
    /// The text of `<title>` and of the first `<h1>`, trimmed.
    private(set) var title: String?
    private(set) var heading: String?

    private let bytes: [UInt8]
    private var at = 0

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        scan()
    }

    private mutating func scan() {
        while let open = find([UInt8(ascii: "<")], from: at) {
            at = open + 1
            if bytes[open...].starts(with: "<!--".utf8) {
                at = find(Array("-->".utf8), from: open + 4).map { $0 + 3 } ?? bytes.count
                continue
            }
            guard at < bytes.count, HTMLLinkScanner.isLetter(bytes[at]) else {
                // An end tag, a doctype or a processing instruction (nothing in them matters),
                // or a bare "<" in text.
                if at < bytes.count, [UInt8(ascii: "/"), UInt8(ascii: "!"), UInt8(ascii: "?")].contains(bytes[at]) {
                    at = find([UInt8(ascii: ">")], from: at).map { $0 + 1 } ?? bytes.count
                }
                continue
            }
            let nameStart = at
            while at < bytes.count, !HTMLLinkScanner.isSpace(bytes[at]), bytes[at] != UInt8(ascii: ">"), bytes[at] != UInt8(ascii: "/") { at += 1 }
            let name = String(decoding: bytes[nameStart..<at].map(HTMLLinkScanner.lowercased), as: UTF8.self)
            let href = attributes(wanting: name == "a" ? "href" : nil)
            switch name {
            case "a": if let href { links.append(href) }
            case "title" where title == nil: title = text()
            case "h1" where heading == nil: heading = text()
            case "script", "style":
                at = find(Array("</\(name)".utf8), from: at, ignoringCase: true) ?? bytes.count
            default: break
            }
        }
    }

    /// Reads a tag's attributes up to and past its ">", returning the value of the first one
    /// called `wanted` (as browsers do when a name is repeated).
    private mutating func attributes(wanting wanted: String?) -> String? {
        var found: String?
        while at < bytes.count {
            while at < bytes.count, HTMLLinkScanner.isSpace(bytes[at]) || bytes[at] == UInt8(ascii: "/") { at += 1 }
            guard at < bytes.count else { break }
            if bytes[at] == UInt8(ascii: ">") { at += 1; break }
            let nameStart = at
            at += 1
            while at < bytes.count, !HTMLLinkScanner.isSpace(bytes[at]),
                  bytes[at] != UInt8(ascii: "="), bytes[at] != UInt8(ascii: ">"), bytes[at] != UInt8(ascii: "/") { at += 1 }
            let name = bytes[nameStart..<at]
            while at < bytes.count, HTMLLinkScanner.isSpace(bytes[at]) { at += 1 }
            var value: ArraySlice<UInt8> = []
            if at < bytes.count, bytes[at] == UInt8(ascii: "=") {
                at += 1
                while at < bytes.count, HTMLLinkScanner.isSpace(bytes[at]) { at += 1 }
                if at < bytes.count, bytes[at] == UInt8(ascii: "\"") || bytes[at] == UInt8(ascii: "'") {
                    let quote = bytes[at]
                    let close = bytes[(at + 1)...].firstIndex(of: quote) ?? bytes.count
                    value = bytes[(at + 1)..<close]
                    at = min(close + 1, bytes.count)
                } else {
                    let start = at
                    while at < bytes.count, !HTMLLinkScanner.isSpace(bytes[at]), bytes[at] != UInt8(ascii: ">") { at += 1 }
                    value = bytes[start..<at]
                }
            }
            if found == nil, let wanted, name.map(HTMLLinkScanner.lowercased).elementsEqual(wanted.utf8) {
                found = HTMLLinkScanner.replacingReferences(value)
            }
        }
        return found
    }

    /// The text up to the next tag, with references replaced and the ends trimmed.
    private func text() -> String {
        let end = find([UInt8(ascii: "<")], from: at) ?? bytes.count
        return HTMLLinkScanner.replacingReferences(bytes[at..<end]).trimmingWhitespace
    }

    // MARK: - Character references

    /// Replaces `&name;`, `&#decimal;` and `&#xhex;`. Of the named ones, those a file name or URL
    /// may hold; others stay as written. A numeric reference to no character (0, a surrogate,
    /// beyond U+10FFFF) becomes U+FFFD, as HTML has it.
    static func replacingReferences(_ raw: ArraySlice<UInt8>) -> String {
        guard raw.contains(UInt8(ascii: "&")) else { return String(decoding: raw, as: UTF8.self) }
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            if raw[i] == UInt8(ascii: "&"),
               let semicolon = raw[i..<min(raw.endIndex, i + 12)].firstIndex(of: UInt8(ascii: ";")),
               let scalar = reference(raw[(i + 1)..<semicolon]) {
                out.append(contentsOf: Unicode.UTF8.encode(scalar)!)
                i = semicolon + 1
            } else {
                out.append(raw[i])
                i += 1
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func reference(_ name: ArraySlice<UInt8>) -> Unicode.Scalar? {
        switch String(decoding: name, as: UTF8.self) {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        case "nbsp": return "\u{A0}"
        default: break
        }
        guard name.first == UInt8(ascii: "#") else { return nil }
        var digits = name.dropFirst()
        var radix: UInt32 = 10
        if let x = digits.first, x | 0x20 == UInt8(ascii: "x") { radix = 16; digits = digits.dropFirst() }
        guard !digits.isEmpty else { return nil }
        var value: UInt32 = 0
        for digit in digits {
            guard let v = RemoteURL.hexValue(digit), v < radix else { return nil }
            value = min(value * radix + UInt32(v), 0x11_0000)
        }
        return value == 0 ? "\u{FFFD}" : Unicode.Scalar(value) ?? "\u{FFFD}"
    }

    // MARK: - Bytes

    private func find(_ needle: [UInt8], from: Int, ignoringCase: Bool = false) -> Int? {
        guard let first = needle.first, needle.count <= bytes.count, from <= bytes.count else { return nil }
        if needle.count == 1 { return bytes[from...].firstIndex(of: first) }
        var i = from
        while i <= bytes.count - needle.count {
            if HTMLLinkScanner.lowercased(bytes[i]) == HTMLLinkScanner.lowercased(first) || bytes[i] == first {
                let candidate = bytes[i..<(i + needle.count)]
                if ignoringCase ? candidate.map(HTMLLinkScanner.lowercased).elementsEqual(needle.map(HTMLLinkScanner.lowercased))
                    : candidate.elementsEqual(needle) { return i }
            }
            i += 1
        }
        return nil
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte | 0x20 : byte
    }

    private static func isLetter(_ byte: UInt8) -> Bool {
        (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(lowercased(byte))
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0C || byte == 0x0D
    }
}
