/// Writes JSON text as it goes: objects, arrays, strings, numbers, with the commas kept track of;
/// the one JSON writer (`photogrid serve`'s manifests, a million photos without a tree of them in
/// memory first; tests that round-trip `JSONParser`).
///
/// Written by hand rather than with Foundation's JSONEncoder, which the library does without (it
/// costs start-up time in every photogrid run). Strings are escaped per RFC 8259 plus U+2028 and
/// U+2029, which JavaScript once refused in string literals: file names and captions are not
/// trusted to be tame.
package struct JSONWriter: Sendable {
    package private(set) var output: [UInt8] = []

    package init() {}
    /// Per open container: whether a member came before (so the next needs a comma), and whether
    /// members go one per line.
    private var containers: [(hasMember: Bool, linePerMember: Bool)] = []
    private var afterKey = false

    package mutating func beginObject(linePerMember: Bool = false) { open(UInt8(ascii: "{"), linePerMember) }
    package mutating func endObject() { close(UInt8(ascii: "}")) }
    package mutating func beginArray(linePerMember: Bool = false) { open(UInt8(ascii: "["), linePerMember) }
    package mutating func endArray() { close(UInt8(ascii: "]")) }

    package mutating func key(_ name: String) {
        separate()
        writeString(name)
        output.append(UInt8(ascii: ":"))
        afterKey = true
    }

    package mutating func value(_ text: String) {
        separate()
        writeString(text)
    }

    package mutating func value(_ flag: Bool) {
        separate()
        output += Array((flag ? "true" : "false").utf8)
    }

    package mutating func null() {
        separate()
        output += Array("null".utf8)
    }

    package mutating func value(_ number: Int) {
        separate()
        output += Array(String(number).utf8)
    }

    /// Finite numbers only: JSON has no NaN or infinity, so those are written as null.
    package mutating func value(_ number: Double) {
        separate()
        output += Array((number.isFinite ? String(number) : "null").utf8)
    }

    // Members with optional values, left out when nil: the manifest has no nulls.
    package mutating func member(_ name: String, _ text: String?) { if let text { key(name); value(text) } }
    package mutating func member(_ name: String, _ number: Int?) { if let number { key(name); value(number) } }
    package mutating func member(_ name: String, _ number: Double?) { if let number { key(name); value(number) } }

    private mutating func open(_ bracket: UInt8, _ linePerMember: Bool) {
        separate()
        output.append(bracket)
        containers.append((false, linePerMember))
    }

    private mutating func close(_ bracket: UInt8) {
        if let last = containers.popLast(), last.linePerMember, last.hasMember { output.append(UInt8(ascii: "\n")) }
        output.append(bracket)
    }

    /// The comma (and line break) before a member, unless it is the first or follows its key.
    private mutating func separate() {
        if afterKey {
            afterKey = false
            return
        }
        guard let last = containers.indices.last else { return }
        if containers[last].hasMember { output.append(UInt8(ascii: ",")) }
        if containers[last].linePerMember { output.append(UInt8(ascii: "\n")) }
        containers[last].hasMember = true
    }

    private mutating func writeString(_ text: String) {
        output.append(UInt8(ascii: "\""))
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": output += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
            case "\\": output += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
            case "\n": output += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
            case "\r": output += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
            case "\t": output += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
            case "\u{00}"..."\u{1F}", "\u{2028}", "\u{2029}":
                let hex = String(scalar.value, radix: 16)
                output += Array(("\\u" + String(repeating: "0", count: 4 - hex.count) + hex).utf8)
            default:
                UTF8.encode(scalar) { output.append($0) }
            }
        }
        output.append(UInt8(ascii: "\""))
    }
}
