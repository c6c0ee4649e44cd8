/// Checks a JSON text against RFC 8259, strictly, and records its values in a `JSONDocument`.
///
/// Strict means: no comments, no trailing commas, no single quotes, no NaN or Infinity, no
/// leading zeros or "+" signs, no raw control characters or invalid UTF-8 in strings, nothing
/// after the value. Allowed where the RFC allows a choice: a UTF-8 byte-order mark at the start
/// is skipped; `\u` escapes of lone surrogates are taken (and become U+FFFD when decoded);
/// numbers beyond a Double's range are refused rather than made infinite.
///
/// One pass, each byte looked at a bounded number of times, so the time is linear in the size.
/// Recursion follows nesting, which `JSONLimits.maxDepth` bounds.
struct JSONParser {
    private let input: UnsafeBufferPointer<UInt8>
    private let limits: JSONLimits
    private var at = 0
    private var entries: [JSONDocument.Entry] = []
    private var values = 0

    static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONDocument {
        // Again here, since `maxBytes` can be set past what `init` allows: offsets have 28 bits.
        let maxBytes = min(limits.maxBytes, JSONLimits.addressableBytes)
        guard bytes.count <= maxBytes else {
            throw JSONError(line: 1, column: 1, offset: 0, message: "the text is larger than the limit of \(maxBytes) bytes")
        }
        let result: Result<[JSONDocument.Entry], JSONError> = bytes.withUnsafeBufferPointer { buffer in
            var parser = JSONParser(input: buffer, limits: limits)
            do throws(JSONError) {
                try parser.document()
                return .success(parser.entries)
            } catch {
                return .failure(error)
            }
        }
        return JSONDocument(bytes: bytes, entries: try result.get())
    }

    private init(input: UnsafeBufferPointer<UInt8>, limits: JSONLimits) {
        self.input = input
        self.limits = limits
    }

    private mutating func document() throws(JSONError) {
        if input.count >= 3 && input[0] == 0xEF && input[1] == 0xBB && input[2] == 0xBF { at = 3 }
        try value(depth: 0)
        skipWhitespace()
        guard at == input.count else {
            throw fail(input[at] == UInt8(ascii: "/") ? "comments are not allowed in JSON" : "unexpected \(describe(at)) after the JSON value")
        }
    }

    // MARK: - Values

    private mutating func value(depth: Int) throws(JSONError) {
        skipWhitespace()
        guard at < input.count else { throw fail("unexpected end of input: expected a value") }
        values += 1
        guard values <= limits.maxValues else { throw fail("more than \(limits.maxValues) values") }
        switch input[at] {
        case UInt8(ascii: "{"): try container(depth: depth + 1, object: true)
        case UInt8(ascii: "["): try container(depth: depth + 1, object: false)
        case UInt8(ascii: "\""): try string()
        case UInt8(ascii: "t"): try literal("true", .true)
        case UInt8(ascii: "f"): try literal("false", .false)
        case UInt8(ascii: "n"): try literal("null", .null)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"): try number()
        default: throw fail(notAValue())
        }
    }

    /// An object or array; `at` is on its bracket.
    private mutating func container(depth: Int, object: Bool) throws(JSONError) {
        let start = at
        guard depth <= limits.maxDepth else { throw fail("arrays and objects nested deeper than \(limits.maxDepth) levels") }
        let index = entries.count
        entries.append(JSONDocument.Entry(object ? .object : .array, offset: start))
        let close = UInt8(ascii: object ? "}" : "]")
        let what = object ? "object" : "array"
        at += 1
        skipWhitespace()
        if at < input.count && input[at] == close {
            at += 1
        } else {
            var comma: Int?
            while true {
                skipWhitespace()
                guard at < input.count else { throw unclosed(what, start) }
                if input[at] == close, let comma { throw fail("trailing ',' before '\(object ? "}" : "]")'", at: comma) }
                if object {
                    guard input[at] == UInt8(ascii: "\"") else {
                        throw fail(input[at] == UInt8(ascii: "'") ? "member names take double quotes (\"), not single ones"
                            : "expected an object member name (a string in double quotes), found \(describe(at))")
                    }
                    try string()
                    skipWhitespace()
                    guard at < input.count else { throw unclosed(what, start) }
                    guard input[at] == UInt8(ascii: ":") else { throw fail("expected ':' after an object member name") }
                    at += 1
                }
                try value(depth: depth)
                skipWhitespace()
                guard at < input.count else { throw unclosed(what, start) }
                if input[at] == UInt8(ascii: ",") {
                    comma = at
                    at += 1
                } else if input[at] == close {
                    at += 1
                    break
                } else {
                    throw fail(object ? "expected ',' or '}' after an object member" : "expected ',' or ']' after an array element")
                }
            }
        }
        entries[index].extent = UInt32(entries.count)
    }

    private mutating func literal(_ word: StaticString, _ kind: JSONDocument.Kind) throws(JSONError) {
        let text = UnsafeBufferPointer(start: word.utf8Start, count: word.utf8CodeUnitCount)
        guard input.count - at >= text.count, input[at..<(at + text.count)].elementsEqual(text) else {
            throw fail("expected a value, found \(describe(at)) (did you mean \(word)?)")
        }
        entries.append(JSONDocument.Entry(kind, offset: at))
        at += text.count
    }

    // MARK: - Strings

    /// A string or member name; `at` is on its opening quote.
    private mutating func string() throws(JSONError) {
        let start = at
        var escaped = false
        at += 1
        while true {
            guard at < input.count else { throw fail("unterminated string", at: start) }
            let byte = input[at]
            if byte == UInt8(ascii: "\"") { break }
            if byte == UInt8(ascii: "\\") {
                escaped = true
                try escape(stringStart: start)
            } else if byte < 0x20 {
                throw fail(byte == 0x0A ? "line break inside a string (a missing '\"', or write \\n)"
                    : "control character \(hex(byte)) inside a string (write it as an escape)")
            } else if byte < 0x80 {
                at += 1
            } else {
                try utf8Sequence()
            }
        }
        entries.append(JSONDocument.Entry(escaped ? .escapedString : .plainString, offset: start, extent: at))
        at += 1
    }

    private mutating func escape(stringStart: Int) throws(JSONError) {
        guard at + 1 < input.count else { throw fail("unterminated string", at: stringStart) }
        switch input[at + 1] {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"), UInt8(ascii: "b"), UInt8(ascii: "f"),
             UInt8(ascii: "n"), UInt8(ascii: "r"), UInt8(ascii: "t"):
            at += 2
        case UInt8(ascii: "u"):
            guard input.count - at >= 6, input[(at + 2)..<(at + 6)].allSatisfy({ RemoteURL.hexValue($0) != nil }) else {
                throw fail("expected four hex digits after '\\u'")
            }
            at += 6
        default:
            throw fail("invalid escape '\\\(describe(at + 1, quoted: false))' in a string")
        }
    }

    /// One UTF-8 sequence of two to four bytes, as RFC 3629 section 4 allows them: no overlong
    /// forms, no surrogates, nothing above U+10FFFF.
    private mutating func utf8Sequence() throws(JSONError) {
        let lead = input[at]
        let length: Int
        var second: ClosedRange<UInt8> = 0x80...0xBF
        switch lead {
        case 0xC2...0xDF: length = 2
        case 0xE0: length = 3; second = 0xA0...0xBF
        case 0xED: length = 3; second = 0x80...0x9F
        case 0xE1...0xEF: length = 3
        case 0xF0: length = 4; second = 0x90...0xBF
        case 0xF4: length = 4; second = 0x80...0x8F
        case 0xF1...0xF3: length = 4
        default: throw fail("invalid UTF-8 in a string")
        }
        guard input.count - at >= length, second.contains(input[at + 1]),
              input[(at + 2)..<(at + length)].allSatisfy({ $0 & 0xC0 == 0x80 }) else { throw fail("invalid UTF-8 in a string") }
        at += length
    }

    // MARK: - Numbers

    private mutating func number() throws(JSONError) {
        let start = at
        if input[at] == UInt8(ascii: "-") { at += 1 }
        guard at < input.count, isDigit(input[at]) else {
            if at < input.count && input[at] == UInt8(ascii: "I") { throw fail("Infinity is not a JSON number", at: start) }
            throw fail("expected a digit after '-'")
        }
        let integerStart = at
        if input[at] == UInt8(ascii: "0") {
            at += 1
            if at < input.count && isDigit(input[at]) { throw fail("numbers may not have leading zeros", at: integerStart) }
        } else {
            while at < input.count && isDigit(input[at]) { at += 1 }
        }
        let integerDigits = at - integerStart
        if at < input.count && input[at] == UInt8(ascii: ".") {
            at += 1
            guard at < input.count, isDigit(input[at]) else { throw fail("expected a digit after '.'") }
            while at < input.count && isDigit(input[at]) { at += 1 }
        }
        var exponent = false
        if at < input.count && (input[at] == UInt8(ascii: "e") || input[at] == UInt8(ascii: "E")) {
            at += 1
            if at < input.count && (input[at] == UInt8(ascii: "+") || input[at] == UInt8(ascii: "-")) { at += 1 }
            guard at < input.count, isDigit(input[at]) else { throw fail("expected a digit in the exponent") }
            while at < input.count && isDigit(input[at]) { at += 1 }
            exponent = true
        }
        // Only these can leave a Double's range; the rest need not be converted now.
        if exponent || integerDigits > 300, !JSONDocument.numberValue(input[start..<at]).isFinite {
            throw fail("number out of range (beyond ±1.8e308)", at: start)
        }
        entries.append(JSONDocument.Entry(.number, offset: start, extent: at))
    }

    private func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    // MARK: - Whitespace and errors

    private mutating func skipWhitespace() {
        while at < input.count {
            switch input[at] {
            case 0x20, 0x0A, 0x0D, 0x09: at += 1
            default: return
            }
        }
    }

    private func fail(_ message: String, at offset: Int? = nil) -> JSONError {
        JSONError(at: offset ?? at, in: input, message)
    }

    private func unclosed(_ what: String, _ start: Int) -> JSONError {
        let (line, column) = JSONError.location(of: start, in: input)
        return fail("unexpected end of input: the \(what) opened at \(line):\(column) is not closed")
    }

    /// Why the text at `at` cannot start a value, with a hint for the usual suspects.
    private func notAValue() -> String {
        let rest = input[at...]
        switch input[at] {
        case UInt8(ascii: "'"): return "strings take double quotes (\"), not single ones"
        case UInt8(ascii: "/"): return "comments are not allowed in JSON"
        case UInt8(ascii: "+"): return "numbers may not start with '+'"
        case UInt8(ascii: "."): return "numbers need a digit before '.'"
        case UInt8(ascii: "N") where rest.starts(with: "NaN".utf8): return "NaN is not a JSON number"
        case UInt8(ascii: "I") where rest.starts(with: "Infinity".utf8): return "Infinity is not a JSON number"
        case 0xE2 where rest.starts(with: [0xE2, 0x80]) && (0x9C...0x9D).contains(rest.dropFirst(2).first ?? 0):
            return "expected a value, found \(describe(at)): JSON strings take plain double quotes (\")"
        default: return "expected a value, found \(describe(at))"
        }
    }

    /// The character at `offset` as a message shows it: `'x'`, `U+0007`, `'“' (U+201C)`.
    private func describe(_ offset: Int, quoted: Bool = true) -> String {
        guard offset < input.count else { return "end of input" }
        let byte = input[offset]
        if byte >= 0x21 && byte < 0x7F { return quoted ? "'\(Character(Unicode.Scalar(byte)))'" : String(Unicode.Scalar(byte)) }
        if byte < 0x80 { return byte == 0x20 ? "' '" : hex(byte) }
        var iterator = input[offset...].makeIterator()
        var decoder = Unicode.UTF8()
        guard case let .scalarValue(scalar) = decoder.decode(&iterator) else { return "byte 0x" + String(byte, radix: 16, uppercase: true) }
        let code = String(scalar.value, radix: 16, uppercase: true)
        return "'\(scalar)' (U+\(String(repeating: "0", count: max(0, 4 - code.count)) + code))"
    }

    private func hex(_ byte: UInt8) -> String {
        let code = String(byte, radix: 16, uppercase: true)
        return "U+00" + (code.count < 2 ? "0" : "") + code
    }
}
