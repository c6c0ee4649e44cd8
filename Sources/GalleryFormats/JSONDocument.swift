/// A checked JSON text and a flat table of its values, in document order: what `JSONParser`
/// makes, and what the manifest and listing readers walk.
///
/// Each value (and each object member name) is one 8-byte entry: its kind, the offset of its
/// first byte, and for a container the index of the entry after its last descendant, so that
/// siblings are one step apart however deep their contents. Strings and numbers are decoded
/// only when asked for. A million-photo manifest is thus one allocation of a few tens of MB,
/// not millions of small ones, and every value keeps its position for error messages.
struct JSONDocument: Sendable {
    /// What a value is; four bits of an entry.
    enum Kind: UInt32 {
        case null, `false`, `true`, number
        /// A string without backslashes, which its raw bytes spell exactly.
        case plainString
        case escapedString
        case array, object
    }

    /// One value or member name. Offsets fit 28 bits because `JSONLimits` caps texts at 256 MB,
    /// and indices 32 because every entry takes at least one byte of the text.
    struct Entry: Sendable {
        /// The kind in the top 4 bits, the byte offset of the value's first byte in the low 28.
        var head: UInt32
        /// Containers: the index of the entry after their last descendant. Strings: the offset
        /// of the closing quote. Numbers: the offset after their last character.
        var extent: UInt32

        init(_ kind: Kind, offset: Int, extent: Int = 0) {
            head = kind.rawValue << 28 | UInt32(offset)
            self.extent = UInt32(extent)
        }
    }

    let bytes: [UInt8]
    let entries: [Entry]

    /// The top-level value.
    static let root = 0

    func kind(_ index: Int) -> Kind { Kind(rawValue: entries[index].head >> 28)! }

    /// Where the value's text starts, for error messages.
    func offset(_ index: Int) -> Int { Int(entries[index].head & 0x0FFF_FFFF) }

    /// The index of the value after this one and its contents.
    func after(_ index: Int) -> Int {
        switch kind(index) {
        case .array, .object: return Int(entries[index].extent)
        default: return index + 1
        }
    }

    func isString(_ index: Int) -> Bool { kind(index) == .plainString || kind(index) == .escapedString }

    /// The indices of an array's elements.
    func elements(_ array: Int) -> Children { Children(document: self, position: array + 1, end: after(array), members: false) }

    /// The indices of an object's member names; each one's value is the entry after it.
    func memberNames(_ object: Int) -> Children { Children(document: self, position: object + 1, end: after(object), members: true) }

    /// Steps from one child of a container to the next, over the children's own contents.
    struct Children: Sequence, IteratorProtocol {
        let document: JSONDocument
        var position: Int
        let end: Int
        let members: Bool

        mutating func next() -> Int? {
            guard position < end else { return nil }
            let current = position
            position = document.after(members ? current + 1 : current)
            return current
        }
    }

    /// How many elements an array has (or members an object), counted by stepping over them.
    func count(_ container: Int) -> Int {
        var count = 0
        for _ in kind(container) == .object ? memberNames(container) : elements(container) { count += 1 }
        return count
    }

    // MARK: - Strings

    /// A string value or member name, decoded.
    func string(_ index: Int) -> String {
        let start = offset(index) + 1
        let end = Int(entries[index].extent)
        if kind(index) == .plainString { return String(decoding: bytes[start..<end], as: UTF8.self) }
        return JSONDocument.unescape(bytes[start..<end])
    }

    /// Whether a string's decoded text is `text`, without decoding it when it has no escapes.
    func string(_ index: Int, is text: String) -> Bool {
        guard kind(index) == .plainString else { return string(index) == text }
        let start = offset(index) + 1
        return bytes[start..<Int(entries[index].extent)].elementsEqual(text.utf8)
    }

    /// Decodes the escapes of a string the parser has checked. A `\u` escape of a lone
    /// surrogate (which JSON's grammar allows but no Unicode text can hold) becomes U+FFFD.
    static func unescape(_ raw: ArraySlice<UInt8>) -> String {
        var out: [UInt8] = []
        out.reserveCapacity(raw.count)
        var i = raw.startIndex
        while i < raw.endIndex {
            let byte = raw[i]
            guard byte == UInt8(ascii: "\\") else { out.append(byte); i += 1; continue }
            let escape = raw[i + 1]
            i += 2
            switch escape {
            case UInt8(ascii: "b"): out.append(0x08)
            case UInt8(ascii: "f"): out.append(0x0C)
            case UInt8(ascii: "n"): out.append(0x0A)
            case UInt8(ascii: "r"): out.append(0x0D)
            case UInt8(ascii: "t"): out.append(0x09)
            case UInt8(ascii: "u"):
                var scalar = hex4(raw, i)
                i += 4
                if (0xD800...0xDBFF).contains(scalar), i + 6 <= raw.endIndex, raw[i] == UInt8(ascii: "\\"),
                   raw[i + 1] == UInt8(ascii: "u"), case let low = hex4(raw, i + 2), (0xDC00...0xDFFF).contains(low) {
                    scalar = 0x10000 + (scalar - 0xD800) << 10 + (low - 0xDC00)
                    i += 6
                } else if (0xD800...0xDFFF).contains(scalar) {
                    scalar = 0xFFFD
                }
                out.append(contentsOf: Unicode.UTF8.encode(Unicode.Scalar(scalar)!)!)
            default: out.append(escape) // " \ /
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    private static func hex4(_ raw: ArraySlice<UInt8>, _ at: Int) -> UInt32 {
        var value: UInt32 = 0
        for byte in raw[at..<(at + 4)] { value = value << 4 | UInt32(RemoteURL.hexValue(byte)!) }
        return value
    }

    // MARK: - Numbers

    func number(_ index: Int) -> Double {
        JSONDocument.numberValue(bytes[offset(index)..<Int(entries[index].extent)])
    }

    /// A number's value when it is a whole number a Double holds exactly (within ±2^53, where
    /// a Double can still tell neighbouring integers apart); `4000`, `4000.0` and `4e3` alike.
    func integer(_ index: Int) -> Int? {
        guard kind(index) == .number else { return nil }
        return JSONDocument.exactInteger(number(index))
    }

    static func exactInteger(_ value: Double) -> Int? {
        guard value.rounded() == value, abs(value) <= 9_007_199_254_740_992 else { return nil }
        return Int(value)
    }

    /// The value of a number the parser has checked: digits alone are summed exactly (18 of
    /// them fit an Int), anything else goes to the standard library's correctly rounded parser.
    static func numberValue<Text: Collection<UInt8>>(_ text: Text) -> Double {
        var negative = false
        var value = 0
        var digits = 0
        for byte in text {
            if byte == UInt8(ascii: "-") { negative = true; continue }
            guard byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"), digits < 18 else {
                return Double(String(decoding: text, as: UTF8.self)) ?? .nan
            }
            value = value * 10 + Int(byte - UInt8(ascii: "0"))
            digits += 1
        }
        return negative ? -Double(value) : Double(value)
    }

    // MARK: - Positions

    /// The line and column (as `JSONError` counts them) of a byte offset.
    func location(of offset: Int) -> (line: Int, column: Int) { JSONError.location(of: offset, in: bytes) }
}
