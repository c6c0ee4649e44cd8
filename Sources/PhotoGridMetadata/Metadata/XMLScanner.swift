import PhotoGridModel
import PhotoGridSystem

/// A forward-only scanner over the bytes of a small XML document, enough for reading XMP packets:
/// start and end tags with their attributes, text, and CDATA; comments, processing instructions
/// and declarations are skipped.
///
/// It does not validate. Anything it cannot make sense of (a tag or attribute left open at the end
/// of the data, a missing quote) ends the scan, so a caller only ever sees complete tokens.
/// Every step moves forward, so the scan is linear in the size of the data.
struct XMLScanner {
    /// Notes each prefix `attributes` bind to `namespace` (`xmlns:dc="..."`): writers pick their
    /// own prefixes, so a property is known by its namespace, not by "dc:" or "xmp:".
    static func bind(_ attributes: [(name: String, value: String)], to namespace: String, in prefixes: inout Set<String>) {
        for attribute in attributes where attribute.name.hasPrefix("xmlns:") && attribute.value == namespace {
            prefixes.insert(String(attribute.name.dropFirst(6)))
        }
    }

    enum Token {
        case start(name: String, attributes: [(name: String, value: String)], selfClosing: Bool)
        case end(name: String)
        /// Text with entity references already replaced.
        case text(String)
    }

    private let data: [UInt8]
    private var at = 0
    /// Where the token last returned starts in the data, and where the scan is now (just past it):
    /// what an editor needs to replace a token's bytes and keep every other byte as it was.
    private(set) var tokenStart = 0
    var position: Int { at }
    /// The scan stopped on something it could not make sense of, rather than at the end.
    private(set) var failed = false

    init(_ data: [UInt8]) { self.data = data }

    mutating func next() -> Token? {
        while at < data.count {
            tokenStart = at
            guard data[at] == UInt8(ascii: "<") else {
                let end = data[at...].firstIndex(of: UInt8(ascii: "<")) ?? data.count
                let text = data[at..<end]
                at = end
                return .text(XMLScanner.unescape(text))
            }
            if starts(with: "<!--") {
                guard skip(past: "-->") else { return nil }
            } else if starts(with: "<![CDATA[") {
                let start = at + 9
                guard let end = find("]]>", from: start) else { return stop() }
                at = end + 3
                return .text(String(decoding: data[start..<end], as: UTF8.self))
            } else if starts(with: "<?") {
                guard skip(past: "?>") else { return nil }
            } else if starts(with: "<!") {
                guard skip(past: ">") else { return nil }
            } else if starts(with: "</") {
                guard let end = find(">", from: at + 2) else { return stop() }
                let name = String(decoding: data[(at + 2)..<end], as: UTF8.self)
                at = end + 1
                return .end(name: name.trimmingWhitespace)
            } else {
                return startTag()
            }
        }
        return nil
    }

    /// `<name attr="value" ...>` or `.../>`, with `at` on the "<".
    private mutating func startTag() -> Token? {
        var i = at + 1
        let nameStart = i
        while i < data.count, !XMLScanner.isNameEnd(data[i]) { i += 1 }
        let name = String(decoding: data[nameStart..<i], as: UTF8.self)
        var attributes: [(name: String, value: String)] = []
        while true {
            while i < data.count, XMLScanner.isSpace(data[i]) { i += 1 }
            guard i < data.count else { break }
            if data[i] == UInt8(ascii: ">") {
                at = i + 1
                return .start(name: name, attributes: attributes, selfClosing: false)
            }
            if data[i] == UInt8(ascii: "/") {
                guard i + 1 < data.count, data[i + 1] == UInt8(ascii: ">") else { break }
                at = i + 2
                return .start(name: name, attributes: attributes, selfClosing: true)
            }
            let attributeStart = i
            while i < data.count, !XMLScanner.isNameEnd(data[i]), data[i] != UInt8(ascii: "=") { i += 1 }
            let attributeName = String(decoding: data[attributeStart..<i], as: UTF8.self)
            while i < data.count, XMLScanner.isSpace(data[i]) { i += 1 }
            guard !attributeName.isEmpty, i < data.count, data[i] == UInt8(ascii: "=") else { break }
            i += 1
            while i < data.count, XMLScanner.isSpace(data[i]) { i += 1 }
            guard i < data.count, data[i] == UInt8(ascii: "\"") || data[i] == UInt8(ascii: "'") else { break }
            let quote = data[i]
            guard let close = data[(i + 1)...].firstIndex(of: quote) else { break }
            attributes.append((attributeName, XMLScanner.unescape(data[(i + 1)..<close])))
            i = close + 1
        }
        // Malformed or cut off: nothing after this point can be trusted to be what it seems.
        return stop()
    }

    private mutating func stop() -> Token? {
        at = data.count
        failed = true
        return nil
    }

    private func starts(with prefix: StaticString) -> Bool {
        let bytes = UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount)
        return data[at...].starts(with: bytes)
    }

    private func find(_ needle: StaticString, from: Int) -> Int? {
        let bytes = Array(UnsafeBufferPointer(start: needle.utf8Start, count: needle.utf8CodeUnitCount))
        guard from <= data.count - bytes.count else { return nil }
        var i = from
        while i <= data.count - bytes.count {
            if data[i] == bytes[0] && data[i..<(i + bytes.count)].elementsEqual(bytes) { return i }
            i += 1
        }
        return nil
    }

    private mutating func skip(past needle: StaticString) -> Bool {
        guard let end = find(needle, from: at + 1) else { _ = stop(); return false }
        at = end + needle.utf8CodeUnitCount
        return true
    }

    private static func isSpace(_ byte: UInt8) -> Bool {
        byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D
    }

    private static func isNameEnd(_ byte: UInt8) -> Bool {
        isSpace(byte) || byte == UInt8(ascii: ">") || byte == UInt8(ascii: "/")
    }

    /// Replaces the five predefined entities and numeric character references. A reference that is
    /// not one of those, or names no valid character, stays as written, as a lenient reader should.
    static func unescape(_ bytes: ArraySlice<UInt8>) -> String {
        let text = String(decoding: bytes, as: UTF8.self)
        guard bytes.contains(UInt8(ascii: "&")) else { return text }
        let scalars = Array(text.unicodeScalars)
        var out = String.UnicodeScalarView()
        var i = 0
        while i < scalars.count {
            // The longest reference replaced, "&#x10FFFF;", is 10 scalars.
            if scalars[i] == "&", let semicolon = scalars[i..<min(scalars.count, i + 12)].firstIndex(of: ";"),
               let replacement = XMLScanner.entity(String(String.UnicodeScalarView(scalars[(i + 1)..<semicolon]))) {
                out.append(replacement)
                i = semicolon + 1
            } else {
                out.append(scalars[i])
                i += 1
            }
        }
        return String(out)
    }

    private static func entity(_ name: String) -> Unicode.Scalar? {
        switch name {
        case "amp": return "&"
        case "lt": return "<"
        case "gt": return ">"
        case "quot": return "\""
        case "apos": return "'"
        default: break
        }
        var digits = Substring(name)
        guard digits.first == "#" else { return nil }
        digits = digits.dropFirst()
        var radix = 10
        if digits.first == "x" || digits.first == "X" { radix = 16; digits = digits.dropFirst() }
        guard !digits.isEmpty, digits.count <= 8, digits.allSatisfy({ $0.isHexDigit }),
              let value = UInt32(digits, radix: radix), value != 0 else { return nil }
        return Unicode.Scalar(value)
    }
}
