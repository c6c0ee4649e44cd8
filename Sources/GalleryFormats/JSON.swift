/// A JSON value (RFC 8259), read without Foundation.
///
/// Objects keep their members in document order, duplicates included; looking a name up
/// finds the last member of that name, as JavaScript's and Python's parsers do. Numbers are
/// Doubles: integers beyond ±2^53 lose their last digits, so `int` refuses them.
///
/// This tree is for small documents and tests. The manifest and listing readers walk
/// `JSONDocument`'s flat table instead, which costs one allocation rather than one per value
/// and keeps each value's position for error messages.
package enum JSONValue: Sendable, Equatable {
    case null
    case bool(Bool)
    case number(Double)
    case string(String)
    case array([JSONValue])
    case object([(String, JSONValue)])

    /// Parses a whole JSON text; see `JSONParser` for what is accepted, `JSONError` for how
    /// faults are placed, and `JSONLimits` for the defaults (64 MB, 64 levels, 2 million values).
    package static func parse(_ bytes: [UInt8], limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONValue {
        let document = try JSONParser.parse(bytes, limits: limits)
        return JSONValue(document, JSONDocument.root)
    }

    package static func parse(_ text: String, limits: JSONLimits = JSONLimits()) throws(JSONError) -> JSONValue {
        try parse(Array(text.utf8), limits: limits)
    }

    /// The value at `index` of a parsed document, with everything in it.
    init(_ document: JSONDocument, _ index: Int) {
        switch document.kind(index) {
        case .null: self = .null
        case .false: self = .bool(false)
        case .true: self = .bool(true)
        case .number: self = .number(document.number(index))
        case .plainString, .escapedString: self = .string(document.string(index))
        case .array:
            var elements: [JSONValue] = []
            for element in document.elements(index) { elements.append(JSONValue(document, element)) }
            self = .array(elements)
        case .object:
            var members: [(String, JSONValue)] = []
            for name in document.memberNames(index) { members.append((document.string(name), JSONValue(document, name + 1))) }
            self = .object(members)
        }
    }

    // MARK: - Accessors

    /// The value of the last member named `key`; nil when there is none or this is not an object.
    package subscript(key: String) -> JSONValue? {
        guard case let .object(members) = self else { return nil }
        return members.last { $0.0 == key }?.1
    }

    /// The element at `index`; nil when out of range or this is not an array.
    package subscript(index: Int) -> JSONValue? {
        guard case let .array(elements) = self, elements.indices.contains(index) else { return nil }
        return elements[index]
    }

    package var string: String? {
        if case let .string(value) = self { return value }
        return nil
    }

    package var double: Double? {
        if case let .number(value) = self { return value }
        return nil
    }

    /// The number as an Int when it is a whole number a Double holds exactly (within ±2^53):
    /// 4000, 4000.0 and 4e3 alike; nil for 4000.5, for 1e300 and for anything not a number.
    package var int: Int? { double.flatMap(JSONDocument.exactInteger) }

    package var bool: Bool? {
        if case let .bool(value) = self { return value }
        return nil
    }

    package var array: [JSONValue]? {
        if case let .array(value) = self { return value }
        return nil
    }

    /// The members in document order.
    package var object: [(String, JSONValue)]? {
        if case let .object(value) = self { return value }
        return nil
    }

    package var isNull: Bool { self == .null }

    // MARK: - Equatable

    /// Structural equality; objects are equal when their members are, in the same order.
    package static func == (a: JSONValue, b: JSONValue) -> Bool {
        switch (a, b) {
        case (.null, .null): return true
        case let (.bool(x), .bool(y)): return x == y
        case let (.number(x), .number(y)): return x == y
        case let (.string(x), .string(y)): return x == y
        case let (.array(x), .array(y)): return x == y
        case let (.object(x), .object(y)): return x.count == y.count && zip(x, y).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: return false
        }
    }
}
