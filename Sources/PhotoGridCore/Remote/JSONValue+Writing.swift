/// Writing JSON, for `photogrid serve`'s manifests and for tests that round-trip the parser.
extension JSONValue {
    /// The value as UTF-8 JSON text that `parse` reads back as an equal value. `pretty` puts
    /// each member and element on a line of its own, indented by two spaces per level.
    ///
    /// Whole numbers within ±2^53 are written without a fraction (`4000`, not `4000.0`); other
    /// numbers in the shortest form that reads back as the same Double. NaN and the infinities,
    /// which JSON cannot express, are written as `null`. Strings escape `"`, `\` and the control
    /// characters, and nothing else: the text is UTF-8.
    public func serialized(pretty: Bool = false) -> [UInt8] {
        var out: [UInt8] = []
        write(to: &out, pretty: pretty, indent: 0)
        return out
    }

    /// `serialized()` as a String.
    public var jsonText: String { String(decoding: serialized(), as: UTF8.self) }

    private func write(to out: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: out.append(contentsOf: "null".utf8)
        case let .bool(value): out.append(contentsOf: (value ? "true" : "false").utf8)
        case let .number(value): JSONValue.write(number: value, to: &out)
        case let .string(value): JSONValue.write(string: value, to: &out)
        case let .array(elements):
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, pretty, indent + 1)
                element.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if !elements.isEmpty { JSONValue.newline(&out, pretty, indent) }
            out.append(UInt8(ascii: "]"))
        case let .object(members):
            out.append(UInt8(ascii: "{"))
            for (index, (name, value)) in members.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                JSONValue.newline(&out, pretty, indent + 1)
                JSONValue.write(string: name, to: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                value.write(to: &out, pretty: pretty, indent: indent + 1)
            }
            if !members.isEmpty { JSONValue.newline(&out, pretty, indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(_ out: inout [UInt8], _ pretty: Bool, _ indent: Int) {
        guard pretty else { return }
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: 2 * indent))
    }

    private static func write(number: Double, to out: inout [UInt8]) {
        guard number.isFinite else { out.append(contentsOf: "null".utf8); return }
        if let integer = JSONDocument.exactInteger(number), !(number == 0 && number.sign == .minus) {
            out.append(contentsOf: String(integer).utf8)
        } else {
            // Swift's description is the shortest text that reads back exactly, and always valid
            // JSON for finite values ("1e-07", "-0.0", "0.1").
            out.append(contentsOf: number.description.utf8)
        }
    }

    private static func write(string: String, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\""))
        for byte in string.utf8 {
            switch byte {
            case UInt8(ascii: "\""): out.append(contentsOf: "\\\"".utf8)
            case UInt8(ascii: "\\"): out.append(contentsOf: "\\\\".utf8)
            case 0x0A: out.append(contentsOf: "\\n".utf8)
            case 0x0D: out.append(contentsOf: "\\r".utf8)
            case 0x09: out.append(contentsOf: "\\t".utf8)
            case 0..<0x20:
                out.append(contentsOf: "\\u00".utf8)
                RemoteURL.appendHex(byte, to: &out)
            default: out.append(byte)
            }
        }
        out.append(UInt8(ascii: "\""))
    }
}
