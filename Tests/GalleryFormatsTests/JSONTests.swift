import Testing
@testable import GalleryFormats

@Suite struct JSONTests {
    private func parse(_ text: String) throws -> JSONValue { try JSONValue.parse(text) }

    @Test func readsEveryKindOfValue() throws {
        let value = try parse("""
         {"null": null, "yes": true, "no": false, "n": -12.5e1, "s": "text", "a": [1, [], {}, "x"],
          "o": {"z": 1, "a": 2, "m": 3}, "": "empty name"}\r\n
        """)
        #expect(value["null"] == .null)
        #expect(value["null"]?.isNull == true)
        #expect(value["yes"]?.bool == true)
        #expect(value["no"]?.bool == false)
        #expect(value["n"]?.double == -125)
        #expect(value["n"]?.int == -125)
        #expect(value["s"]?.string == "text")
        #expect(value["a"] == .array([.number(1), .array([]), .object([]), .string("x")]))
        #expect(value["a"]?[3]?.string == "x")
        #expect(value["a"]?[4] == nil)
        #expect(value[""]?.string == "empty name")
        #expect(value["missing"] == nil)
        // Members keep the document's order.
        #expect(value["o"]?.object?.map(\.0) == ["z", "a", "m"])
        #expect(value.object?.map(\.0) == ["null", "yes", "no", "n", "s", "a", "o", ""])
        // Accessors of the wrong kind are nil.
        #expect(value["s"]?.int == nil && value["n"]?.string == nil && value["a"]?["x"] == nil && value["o"]?[0] == nil)
        for scalar in ["0", "-0", "true", "false", "null", "\"\"", "[]", "{}", " \n\t\r1 "] { _ = try parse(scalar) }
    }

    @Test func theLastOfRepeatedNamesCounts() throws {
        let value = try parse(#"{"a": 1, "b": 2, "a": 3}"#)
        #expect(value["a"]?.int == 3)
        #expect(value.object?.count == 3)
    }

    @Test func decodesEscapesAndSurrogatePairs() throws {
        #expect(try parse(#""\"\\\/\b\f\n\r\t""#).string == "\"\\/\u{8}\u{C}\n\r\t")
        #expect(try parse(#""\u0041\u00e9\u20AC\ud83d\ude00 \uD83C\uDDE9\uD83C\uDDEA""#).string == "Aé€😀 🇩🇪")
        #expect(try parse(#""\u0000""#).string == "\u{0}")
        #expect(try parse("\"Blick über 夕焼け 😀\"").string == "Blick über 夕焼け 😀")
        // Lone surrogates are allowed by the grammar but cannot be text: U+FFFD.
        #expect(try parse(#""\ud800""#).string == "\u{FFFD}")
        #expect(try parse(#""\udc00x""#).string == "\u{FFFD}x")
        #expect(try parse(#""\ud800\u0041""#).string == "\u{FFFD}A")
        #expect(try parse(#""\ud800\ud800\udc00""#).string == "\u{FFFD}𐀀")
        #expect(try parse(#""\udc00\ud800""#).string == "\u{FFFD}\u{FFFD}")
        // Escapes in member names too.
        #expect(try parse(#"{"caf\u00e9": 1}"#)["café"]?.int == 1)
    }

    @Test(arguments: [
        ("0", 0.0), ("-0", -0.0), ("1", 1), ("-1", -1), ("1.5", 1.5), ("1e3", 1000), ("1E+3", 1000), ("1e-3", 0.001),
        ("0.1", 0.1), ("123456789012345678", 123456789012345680), ("12345678901234567890", 12345678901234567168),
        ("1.7976931348623157e308", 1.7976931348623157e308), ("5e-324", .leastNonzeroMagnitude), ("1e-400", 0), ("-0.0e0", -0.0),
        ("0e99999", 0), ("9007199254740993", 9007199254740992),
    ])
    func readsNumbersExactlyAsDoubles(text: String, expected: Double) throws {
        let value = try #require(try parse(text).double)
        #expect(value == expected)
        #expect(value.sign == expected.sign)
    }

    @Test func integersAreWholeNumbersADoubleHoldsExactly() throws {
        #expect(try parse("4000").int == 4000)
        #expect(try parse("4000.0").int == 4000)
        #expect(try parse("4e3").int == 4000)
        #expect(try parse("-7").int == -7)
        #expect(try parse("4000.5").int == nil)
        #expect(try parse("9007199254740992").int == 9_007_199_254_740_992)
        #expect(try parse("9007199254740994").int == nil)
        #expect(try parse("1e300").int == nil)
    }

    @Test func writesWhatItReadsBack() throws {
        let value = JSONValue.object([
            ("text", .string("quote \" backslash \\ newline \n tab \t bell \u{7} del \u{7F} é 😀")),
            ("numbers", .array([.number(0), .number(-0.0), .number(4000), .number(-1.5), .number(1e-7), .number(1.5e300), .number(0.1)])),
            ("nested", .object([("a", .array([.null, .bool(true), .bool(false), .object([])])), ("", .array([]))])),
        ])
        for linePerMember in [false, true] {
            #expect(try JSONValue.parse(Self.written(value, linePerMember: linePerMember)) == value)
        }
        let text = { (value: JSONValue) in String(decoding: Self.written(value), as: UTF8.self) }
        #expect(text(.object([("a", .array([.number(1), .number(2.5)]))])) == #"{"a":[1.0,2.5]}"#)
        #expect(String(decoding: Self.written(.object([("a", .array([.number(1)]))]), linePerMember: true), as: UTF8.self)
            == "{\n\"a\":[\n1.0\n]\n}")
        #expect(text(.string("\u{1}\u{2028}")) == #""\u0001\u2028""#)
        #expect(text(.array([.number(.nan), .number(.infinity)])) == "[null,null]")
        #expect(text(.number(-0.0)) == "-0.0")
    }

    /// `value` through `JSONWriter`, the writer `photogrid serve` uses.
    static func written(_ value: JSONValue, linePerMember: Bool = false) -> [UInt8] {
        var json = JSONWriter()
        func write(_ value: JSONValue) {
            switch value {
            case .null: json.null()
            case .bool(let flag): json.value(flag)
            case .number(let number): json.value(number)
            case .string(let text): json.value(text)
            case .array(let elements):
                json.beginArray(linePerMember: linePerMember)
                elements.forEach(write)
                json.endArray()
            case .object(let members):
                json.beginObject(linePerMember: linePerMember)
                for (name, member) in members { json.key(name); write(member) }
                json.endObject()
            }
        }
        write(value)
        return json.output
    }

    @Test func skipsAByteOrderMark() throws {
        #expect(try JSONValue.parse([0xEF, 0xBB, 0xBF] + Array("[1]".utf8)) == .array([.number(1)]))
    }

    @Test func aLargeArrayParsesInLinearTime() throws {
        var text = "["
        for n in 0..<200_000 {
            if n > 0 { text += ",\n" }
            text += #"{"id": "photo-\#(n)", "width": \#(4000 + n % 7), "caption": "Caf\u00e9 \#(n)", "ok": true}"#
        }
        text += "]"
        let bytes = Array(text.utf8)
        let clock = ContinuousClock()
        let start = clock.now
        let document = try JSONParser.parse(bytes, limits: JSONLimits(maxValues: 2_000_000))
        let table = clock.now - start
        let value = JSONValue(document, JSONDocument.root)
        let tree = clock.now - start - table
        print("JSON: \(bytes.count / 1_000_000) MB, 200,000 objects: table \(table), tree \(tree) more (debug build)")
        #expect(document.count(JSONDocument.root) == 200_000)
        #expect(value[199_999]?["caption"]?.string == "Café 199999")
        #expect(value[123]?["width"]?.int == 4000 + 123 % 7)
    }
}
