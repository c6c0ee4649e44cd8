import PhotoGridGallery

extension PhotoQuery {
    /// Why a filter's text cannot be read, in words for the status line or stderr.
    package struct ParseError: Error, Equatable, CustomStringConvertible {
        package let description: String
    }

    static let termNames = "camera: lens: label: keyword: iso f focal shutter rating (with : = < <= > >=), "
        + "has:gps has:date is:raw is:video is:rejected, dates (2021, 2023-07, 2023-07-14, 2019..2021), words"

    /// Reads a filter: terms separated by spaces, `or` between groups, `-` for not, double quotes
    /// around a value with spaces (`keyword:"new york"`).
    package init(parsing text: String) throws(ParseError) {
        var groups: [[Term]] = [[]]
        for token in try Self.tokens(text) {
            if token.lowercased() == "or" {
                guard !groups[groups.count - 1].isEmpty else { throw ParseError(description: "'or' needs a term before it") }
                groups.append([])
                continue
            }
            groups[groups.count - 1].append(try Self.term(token))
        }
        guard !groups.allSatisfy(\.isEmpty) else { throw ParseError(description: "an empty filter: give terms such as camera:x100v rating>=4") }
        guard !groups[groups.count - 1].isEmpty else { throw ParseError(description: "'or' needs a term after it") }
        // The cheapest terms first in each group (numbers and dates before text): a photo is
        // turned down by its first term that fails, and on 120,000 photos the text's folding
        // was most of a filter's time.
        self.groups = groups.map { group in
            group.enumerated().sorted { (Self.cost($0.element), $0.offset) < (Self.cost($1.element), $1.offset) }.map(\.element)
        }
        description = text.split(whereSeparator: { $0 == " " || $0 == "\t" }).joined(separator: " ")
    }

    /// How much a term costs to match: 0 a number or a flag, 1 a word of the path, 2 text of the
    /// catalog, one more under `not`.
    static func cost(_ term: Term) -> Int {
        switch term {
        case .number, .taken, .hasGPS, .hasDate, .isRaw, .isVideo, .isRejected: return 0
        case .word: return 1
        case .camera, .lens, .label, .keyword: return 2
        case .not(let inner): return 1 + cost(inner)
        }
    }

    /// Words split at spaces outside double quotes; the quotes themselves dropped.
    static func tokens(_ text: String) throws(ParseError) -> [String] {
        var tokens: [String] = [], current = "", quoted = false, started = false
        for character in text {
            if character == "\"" {
                quoted.toggle()
                started = true
            } else if !quoted && (character == " " || character == "\t" || character == "\n") {
                if started { tokens.append(current) }
                current = ""
                started = false
            } else {
                current.append(character)
                started = true
            }
        }
        guard !quoted else { throw ParseError(description: "a \" is not closed") }
        if started { tokens.append(current) }
        return tokens
    }

    static func term(_ token: String) throws(ParseError) -> Term {
        guard !token.isEmpty else { throw ParseError(description: "\"\" is an empty term") }
        if token.hasPrefix("-") {
            let rest = String(token.dropFirst())
            guard !rest.isEmpty, !rest.hasPrefix("-") else { throw ParseError(description: "'\(token)': a - goes before a term") }
            return .not(try term(rest))
        }
        let key = String(token.prefix { $0.isLetter }).lowercased()
        let rest = token.dropFirst(key.count)
        guard let comparison = Comparison.allCases.first(where: { rest.hasPrefix($0.rawValue) }), !key.isEmpty else {
            if let range = try dates(token) { return range }
            return .word(folded(token))
        }
        let value = String(rest.dropFirst(comparison.rawValue.count))
        guard !value.isEmpty else { throw ParseError(description: "'\(token)' needs a value after \(comparison.rawValue)") }
        let isText = comparison == .equal || comparison == .equalSign
        switch key {
        case "camera", "lens", "label", "keyword":
            guard isText else { throw ParseError(description: "'\(token)': \(key) is matched with \(key):text") }
            let text = folded(value)
            return key == "camera" ? .camera(text) : key == "lens" ? .lens(text) : key == "label" ? .label(text) : .keyword(text)
        case "has", "is":
            guard isText else { throw ParseError(description: "'\(token)': write \(key):\(value)") }
            switch (key, value.lowercased()) {
            case ("has", "gps"), ("has", "location"): return .hasGPS
            case ("has", "date"): return .hasDate
            case ("is", "raw"): return .isRaw
            case ("is", "video"): return .isVideo
            case ("is", "rejected"), ("is", "reject"): return .isRejected
            default: throw ParseError(description: "'\(token)': \(key): takes \(key == "has" ? "gps or date" : "raw, video or rejected")")
            }
        default:
            guard let field = Field(rawValue: key) else {
                throw ParseError(description: "'\(token)': no term \(key)\(comparison.rawValue); terms are \(termNames)")
            }
            guard let number = Self.number(value, field: field) else {
                throw ParseError(description: "'\(token)': \(key) needs a number\(field == .shutter ? " (seconds, or 1/250)" : "")")
            }
            if field == .rating && !(-1...5).contains(number) {
                throw ParseError(description: "'\(token)': a rating is -1 (rejected) to 5")
            }
            return .number(field, comparison, number)
        }
    }

    /// "2.8", "3200", and for shutter speeds "1/250".
    static func number(_ text: String, field: Field) -> Double? {
        let parts = text.split(separator: "/", omittingEmptySubsequences: false)
        if field == .shutter, parts.count == 2, let top = Double(parts[0]), let bottom = Double(parts[1]), bottom > 0 {
            return top / bottom
        }
        guard let value = Double(text), value.isFinite else { return nil }
        return value
    }

    /// A date or a range of them: `2021`, `2023-07`, `2023-07-14`, `2019..2021`, `2019-03..`,
    /// `..2020`. Nil when the text is no date; an error when it looks like one but is not.
    static func dates(_ token: String) throws(ParseError) -> Term? {
        let startsLikeADate = (token.first?.isNumber ?? false) || token.hasPrefix("..")
        guard startsLikeADate, token.allSatisfy({ $0.isNumber || $0 == "-" || $0 == "." }), token.contains(where: \.isNumber) else { return nil }
        let characters = Array(token)
        if let dot = characters.indices.first(where: { $0 + 1 < characters.count && characters[$0] == "." && characters[$0 + 1] == "." }) {
            let from = String(characters[..<dot]), to = String(characters[(dot + 2)...])
            guard !from.contains("."), !to.contains(".") else { throw ParseError(description: "'\(token)': a range is written 2019..2021") }
            let low = from.isEmpty ? Int64.min : try period(String(from), token).from
            let high = to.isEmpty ? Int64.max : try period(String(to), token).to
            guard low < high else { throw ParseError(description: "'\(token)': the range ends before it starts") }
            return .taken(from: low, to: high)
        }
        guard token.count >= 4, token.prefix(4).allSatisfy(\.isNumber), !token.contains(".") else { return nil }
        let (from, to) = try period(token, token)
        return .taken(from: from, to: to)
    }

    /// The wall-clock seconds a year, month or day spans.
    static func period(_ text: String, _ token: String) throws(ParseError) -> (from: Int64, to: Int64) {
        let parts = text.split(separator: "-", omittingEmptySubsequences: false).map { Int($0) }
        let bad = ParseError(description: "'\(token)': dates are written 2021, 2023-07 or 2023-07-14")
        guard (1...3).contains(parts.count), parts.allSatisfy({ $0 != nil }), text.split(separator: "-").first?.count == 4 else { throw bad }
        let year = parts[0]!, month = parts.count > 1 ? parts[1]! : 1, day = parts.count > 2 ? parts[2]! : 1
        guard (1...9999).contains(year), (1...12).contains(month), (1...31).contains(day) else { throw bad }
        let from = CaptureDate.wallClock(year: year, month: month, day: day, hour: 0, minute: 0, second: 0)
        let to: Int64
        switch parts.count {
        case 1: to = CaptureDate.wallClock(year: year + 1, month: 1, day: 1, hour: 0, minute: 0, second: 0)
        case 2: to = CaptureDate.wallClock(year: month == 12 ? year + 1 : year, month: month == 12 ? 1 : month + 1, day: 1, hour: 0, minute: 0, second: 0)
        default: to = from + 86_400
        }
        return (from, to)
    }
}
