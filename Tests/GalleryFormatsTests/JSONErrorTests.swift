import Testing
@testable import GalleryFormats

/// Every fault of a JSON text is refused with the line and column where it is: 1-based,
/// columns counting Unicode scalars.
@Suite struct JSONErrorTests {
    private func error(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) -> String? {
        do {
            _ = try JSONValue.parse(bytes, limits: limits)
            return nil
        } catch {
            return error.description
        }
    }

    private func error(_ text: String, limits: JSONLimits = JSONLimits()) -> String? { error(Array(text.utf8), limits: limits) }

    @Test(arguments: [
        ("", "1:1: unexpected end of input: expected a value"),
        ("   ", "1:4: unexpected end of input: expected a value"),
        ("{", "1:2: unexpected end of input: the object opened at 1:1 is not closed"),
        ("[1,2", "1:5: unexpected end of input: the array opened at 1:1 is not closed"),
        ("[\n  {\"a\": 1", "2:10: unexpected end of input: the object opened at 2:3 is not closed"),
        ("{\"a\"", "1:5: unexpected end of input: the object opened at 1:1 is not closed"),
        ("{\"a\" 1}", "1:6: expected ':' after an object member name"),
        ("{\"a\":1 \"b\":2}", "1:8: expected ',' or '}' after an object member"),
        ("[1 2]", "1:4: expected ',' or ']' after an array element"),
        ("[1,]", "1:3: trailing ',' before ']'"),
        ("{\"a\":1,}", "1:7: trailing ',' before '}'"),
        ("[,1]", "1:2: expected a value, found ','"),
        ("{,}", "1:2: expected an object member name (a string in double quotes), found ','"),
        ("{a:1}", "1:2: expected an object member name (a string in double quotes), found 'a'"),
        ("{'a':1}", "1:2: member names take double quotes (\"), not single ones"),
        ("['a']", "1:2: strings take double quotes (\"), not single ones"),
        ("[“a”]", "1:2: expected a value, found '“' (U+201C): JSON strings take plain double quotes (\")"),
        ("[1] // note", "1:5: comments are not allowed in JSON"),
        ("/* note */ [1]", "1:1: comments are not allowed in JSON"),
        ("[NaN]", "1:2: NaN is not a JSON number"),
        ("[Infinity]", "1:2: Infinity is not a JSON number"),
        ("[-Infinity]", "1:2: Infinity is not a JSON number"),
        ("[01]", "1:2: numbers may not have leading zeros"),
        ("[-01]", "1:3: numbers may not have leading zeros"),
        ("[1.]", "1:4: expected a digit after '.'"),
        ("[.5]", "1:2: numbers need a digit before '.'"),
        ("[1e]", "1:4: expected a digit in the exponent"),
        ("[1e+]", "1:5: expected a digit in the exponent"),
        ("[-]", "1:3: expected a digit after '-'"),
        ("-", "1:2: expected a digit after '-'"),
        ("[+1]", "1:2: numbers may not start with '+'"),
        ("[1e400]", "1:2: number out of range (beyond ±1.8e308)"),
        ("[-1e309]", "1:2: number out of range (beyond ±1.8e308)"),
        ("[0x10]", "1:3: expected ',' or ']' after an array element"),
        ("[tru]", "1:2: expected a value, found 't' (did you mean true?)"),
        ("[nul]", "1:2: expected a value, found 'n' (did you mean null?)"),
        ("[True]", "1:2: expected a value, found 'T'"),
        ("\"abc", "1:1: unterminated string"),
        ("[\"abc\\", "1:2: unterminated string"),
        ("\"a\nb\"", "1:3: line break inside a string (a missing '\"', or write \\n)"),
        ("\"a\tb\"", "1:3: control character U+0009 inside a string (write it as an escape)"),
        ("\"\\x\"", "1:2: invalid escape '\\x' in a string"),
        ("\"\\u12G4\"", "1:2: expected four hex digits after '\\u'"),
        ("\"\\u12\"", "1:2: expected four hex digits after '\\u'"),
        ("{} x", "1:4: unexpected 'x' after the JSON value"),
        ("[1]\n]", "2:1: unexpected ']' after the JSON value"),
        ("[1]\u{0}", "1:4: unexpected U+0000 after the JSON value"),
        ("[1] [2]", "1:5: unexpected '[' after the JSON value"),
        ("[\u{A0}1]", "1:2: expected a value, found '\u{A0}' (U+00A0)"),
        // Columns count scalars: "é" and "名前" are one column each per scalar, not per byte.
        ("{\"é\": tru}", "1:7: expected a value, found 't' (did you mean true?)"),
        ("{\n  \"名前\": 1,\n  \"x\" 2\n}", "3:7: expected ':' after an object member name"),
        // "\r\n" ends a line once.
        ("[\r\n1,\r\n]", "2:2: trailing ',' before ']'"),
    ] as [(String, String)])
    func placesEachFault(text: String, expected: String) {
        #expect(error(text) == expected)
    }

    @Test func refusesInvalidUTF8InStrings() {
        let quote: UInt8 = 0x22
        for bad: [UInt8] in [[0xFF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0xAF], [0xED, 0xA0, 0x80], [0xF4, 0x90, 0x80, 0x80],
                             [0xF5, 0x80, 0x80, 0x80], [0x80], [0xE2, 0x82], [0xC3, 0x28], [0xF0, 0x9F, 0x98]] {
            #expect(error([quote, UInt8(ascii: "a")] + bad + [quote]) == "1:3: invalid UTF-8 in a string", "\(bad)")
        }
        // Outside strings a stray byte is named as one.
        #expect(error([UInt8(ascii: "["), 0xFF, UInt8(ascii: "]")]) == "1:2: expected a value, found byte 0xFF")
        // The largest and the edge cases of each length are fine.
        let good: [UInt8] = [0x22, 0x7F, 0xC2, 0x80, 0xDF, 0xBF, 0xE0, 0xA0, 0x80, 0xED, 0x9F, 0xBF, 0xEE, 0x80, 0x80,
                             0xF0, 0x90, 0x80, 0x80, 0xF4, 0x8F, 0xBF, 0xBF, 0x22]
        #expect(error(good) == nil)
    }

    @Test func aByteOrderMarkIsNotAColumn() {
        #expect(error([0xEF, 0xBB, 0xBF] + Array("[1,]".utf8)) == "1:3: trailing ',' before ']'")
    }

    @Test func theErrorKeepsItsParts() throws {
        #expect(throws: JSONError(line: 2, column: 2, offset: 4, message: "expected ',' or ']' after an array element")) {
            _ = try JSONValue.parse("[1\n 2]")
        }
    }

    @Test func limitsNestingSizeAndCount() {
        let deep = String(repeating: "[", count: 64) + String(repeating: "]", count: 64)
        #expect(error(deep) == nil)
        #expect(error("[" + deep + "]") == "1:65: arrays and objects nested deeper than 64 levels")
        // A hostile depth fails at the limit rather than exhausting the stack: level 65 is the
        // "[" of the 33rd six-character repeat.
        #expect(error(String(repeating: "[{\"a\":", count: 100_000)) == "1:193: arrays and objects nested deeper than 64 levels")
        #expect(error("[[1]]", limits: JSONLimits(maxDepth: 1)) == "1:2: arrays and objects nested deeper than 1 levels")

        #expect(error("[1,2,3]", limits: JSONLimits(maxBytes: 7)) == nil)
        #expect(error("[1,2,3] ", limits: JSONLimits(maxBytes: 7)) == "1:1: the text is larger than the limit of 7 bytes")

        // The array and two elements are three values; names do not count.
        #expect(error("[1,2]", limits: JSONLimits(maxValues: 3)) == nil)
        #expect(error(#"{"a":1,"b":2}"#, limits: JSONLimits(maxValues: 3)) == nil)
        #expect(error("[1,2,3]", limits: JSONLimits(maxValues: 3)) == "1:6: more than 3 values")
        // The default allows 2 million.
        let many = "[" + String(repeating: "0,", count: 1_999_998) + "0]"
        #expect(error(many) == nil)
        #expect(error("[" + many + "]")?.hasSuffix("more than 2000000 values") == true)
        #expect(JSONLimits(maxBytes: 1 << 40).maxBytes == JSONLimits.addressableBytes)
        var raised = JSONLimits()
        raised.maxBytes = 1 << 40
        #expect(error([UInt8](repeating: 0x20, count: JSONLimits.addressableBytes + 1), limits: raised)
            == "1:1: the text is larger than the limit of 268435456 bytes")
    }
}
