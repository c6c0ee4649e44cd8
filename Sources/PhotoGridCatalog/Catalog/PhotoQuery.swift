import PhotoGridGallery
import PhotoGridModel

/// A filter by what photos are (`--filter`, `\`): terms joined by spaces all hold, `or` between
/// groups, `-` before a term for its opposite. Terms (docs/decisions.md, "Search by what photos
/// are"):
///
///     camera:x100v  lens:23mm  iso>=3200  f<2.8  focal:23  shutter<1/250  rating>=4
///     2019..2021  2023-07  2023-07-14  2019-03..2019-06  label:red  keyword:iceland
///     has:gps  has:date  is:raw  is:video  is:rejected  harbour (a word of the name or folder)
///
/// Matched against the catalog's entry of each photo, never by reading files again; a photo the
/// catalog does not know yet matches only terms about its name and kind.
package struct PhotoQuery: Sendable, Equatable, CustomStringConvertible {
    /// Groups joined by `or`, each a list of terms that must all hold.
    let groups: [[Term]]
    package let description: String

    enum Field: String, Sendable, CaseIterable {
        case iso, f, focal, shutter, rating
    }

    enum Comparison: String, Sendable, CaseIterable {
        // Longest first: the parser takes the first that the text starts with.
        case atLeast = ">=", atMost = "<=", more = ">", less = "<", equal = ":", equalSign = "="
    }

    indirect enum Term: Sendable, Equatable {
        /// A word of the photo's path (name or folders), any case.
        case word(String)
        case camera(String)
        case lens(String)
        case label(String)
        case keyword(String)
        case number(Field, Comparison, Double)
        /// Taken within [from, to): wall-clock seconds (`CaptureDate`).
        case taken(from: Int64, to: Int64)
        case hasGPS, hasDate
        case isRaw, isVideo, isRejected
        case not(Term)
    }

    /// What a photo is, for matching: the photo, what the catalog knows of it, and its rating as
    /// the app knows it (set with a key since the catalog's reading).
    package struct Facts {
        package let photo: Photo
        package let entry: CatalogEntry?
        package let rating: Int?
        /// Its colour label as the app knows it, set with a key since (nil inside: none).
        package let label: String??
        /// Its keywords as the app knows them, set with a key since.
        package let keywords: [String]?

        package init(photo: Photo, entry: CatalogEntry?, rating: Int? = nil, label: String?? = nil, keywords: [String]? = nil) {
            self.photo = photo
            self.entry = entry
            self.rating = rating
            self.label = label
            self.keywords = keywords
        }
    }

    /// What the app knows of photos beyond the catalog's rows: ratings, labels and keywords set
    /// with a key since they were read.
    package struct Known {
        package var rating: (Photo) -> Int? = { _ in nil }
        package var label: (Photo) -> String?? = { _ in nil }
        package var keywords: (Photo) -> [String]? = { _ in nil }
        package init(rating: @escaping (Photo) -> Int? = { _ in nil }, label: @escaping (Photo) -> String?? = { _ in nil },
                     keywords: @escaping (Photo) -> [String]? = { _ in nil }) {
            self.rating = rating
            self.label = label
            self.keywords = keywords
        }
        package static var nothing: Known { Known() }

        func facts(_ photo: Photo, _ entry: CatalogEntry?) -> Facts {
            Facts(photo: photo, entry: entry, rating: rating(photo), label: label(photo), keywords: keywords(photo))
        }
    }

    /// The photos that match by what is known without a catalog row: names, kinds, and `known`.
    package func matching(_ photos: some Sequence<Photo>, known: Known = .nothing) -> Set<PhotoSource> {
        Set(photos.filter { matches(known.facts($0, nil)) }.map(\.source))
    }

    package func matches(_ facts: Facts) -> Bool {
        groups.contains { group in group.allSatisfy { Self.holds($0, facts) } }
    }

    /// Whether every term is about names and kinds, which need nothing read.
    package var needsCatalog: Bool {
        groups.joined().contains { term in
            switch term {
            case .word, .isRaw, .isVideo, .not(.word), .not(.isRaw), .not(.isVideo): return false
            default: return true
            }
        }
    }

    /// What SQLite can answer of the query without the app (the dates, position and exposure
    /// the catalog holds): a condition every catalog row of a matching photo meets, so that only
    /// those rows are read. Nil when some `or` group has no such term (every row must be read).
    /// A photo the catalog does not know, or knows from an older file, cannot match then either:
    /// each group asks something only the catalog knows.
    var catalogCondition: (sql: String, values: [SQLiteValue])? {
        var groupsSQL: [String] = [], values: [SQLiteValue] = []
        for group in groups {
            let pushed = group.compactMap(Self.condition)
            guard !pushed.isEmpty else { return nil }
            groupsSQL.append("(" + pushed.map(\.sql).joined(separator: " AND ") + ")")
            values += pushed.flatMap(\.values)
        }
        return groupsSQL.isEmpty ? nil : ("(" + groupsSQL.joined(separator: " OR ") + ")", values)
    }

    /// A term as a condition on the catalog's columns, looser than `holds` where that rounds
    /// (never stricter), or nil: names, kinds and ratings (which the app may know better), and
    /// text the catalog folds differently from SQLite.
    static func condition(_ term: Term) -> (sql: String, values: [SQLiteValue])? {
        switch term {
        case .taken(let from, let to): return ("taken >= ? AND taken < ?", [.integer(from), .integer(to)])
        case .hasGPS: return ("gps = 1", [])
        case .hasDate: return ("taken IS NOT NULL", [])
        case .number(let field, let comparison, let value):
            let column: String
            switch field {
            case .iso: column = "iso"
            case .f: column = "fnumber"
            case .focal: column = "focal"
            case .shutter: column = "exposure"
            case .rating: return nil
            }
            let slack = abs(value) * 0.05 + 0.001
            switch comparison {
            case .equal, .equalSign: return ("\(column) BETWEEN ? AND ?", [.real(value - slack), .real(value + slack)])
            case .atLeast, .more: return ("\(column) >= ?", [.real(value - slack)])
            case .atMost, .less: return ("\(column) <= ?", [.real(value + slack)])
            }
        default: return nil
        }
    }

    static func holds(_ term: Term, _ facts: Facts) -> Bool {
        let entry = facts.entry
        switch term {
        case .word(let word): return has(folded(facts.photo.relativePath.description), word)
        case .camera(let text): return has(folded([entry?.make, entry?.model].compactMap { $0 }.joined()), text)
        case .lens(let text): return entry?.lens.map { has(folded($0), text) } ?? false
        case .label(let text): return (facts.label ?? entry?.label).map { folded($0) == text } ?? false
        case .keyword(let text):
            return (facts.keywords ?? entry?.keywords)?.contains { folded($0) == text || folded($0.split(separator: "|").last.map(String.init) ?? "") == text } ?? false
        case .number(let field, let comparison, let value):
            guard let actual = number(field, facts) else { return false }
            return compare(actual, comparison, value, field: field)
        case .taken(let from, let to): return entry?.taken.map { $0 >= from && $0 < to } ?? false
        case .hasGPS: return entry?.hasGPS ?? false
        case .hasDate: return entry?.taken != nil
        case .isRaw: return facts.photo.format.isRaw
        case .isVideo: return facts.photo.format.isVideo
        case .isRejected: return (facts.rating ?? entry?.rating ?? 0) < 0
        case .not(let inner): return !holds(inner, facts)
        }
    }

    static func number(_ field: Field, _ facts: Facts) -> Double? {
        switch field {
        case .iso: return facts.entry?.iso.map(Double.init)
        case .f: return facts.entry?.fNumber
        case .focal: return facts.entry?.focalLength
        case .shutter: return facts.entry?.exposureTime
        case .rating: return Double(facts.rating ?? facts.entry?.rating ?? 0)
        }
    }

    static func compare(_ actual: Double, _ comparison: Comparison, _ value: Double, field: Field) -> Bool {
        // Apertures and shutter speeds are written rounded (f/2.8 is 2.83, 1/250 may be 0.004):
        // equal within 2%.
        let tolerance = field == .f || field == .shutter ? abs(value) * 0.02 : 0.000_001
        switch comparison {
        case .equal, .equalSign: return abs(actual - value) <= tolerance
        case .atLeast: return actual >= value - tolerance
        case .atMost: return actual <= value + tolerance
        case .more: return actual > value + tolerance
        case .less: return actual < value - tolerance
        }
    }

    /// Lower case, without spaces, dashes and underscores: "camera:eos5d" finds "Canon EOS 5D".
    static func folded(_ text: String) -> String {
        // ASCII (nearly every camera, lens and file name) byte by byte: five times faster than
        // through Unicode's lower case, on every photo a filter looks at.
        var ascii = text
        if let folded = ascii.withUTF8({ bytes -> String? in
            guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
            let kept = bytes.compactMap { byte -> UInt8? in
                byte == 0x20 || byte == 0x2D || byte == 0x5F ? nil : (0x41...0x5A).contains(byte) ? byte + 0x20 : byte
            }
            return String(decoding: kept, as: UTF8.self)
        }) { return folded }
        return String(text.lowercased().unicodeScalars.filter { $0 != " " && $0 != "-" && $0 != "_" }.map(Character.init))
    }

    /// Whether folded text holds a folded term: bytes compared where both are ASCII (the
    /// standard library's search is slow for strings this short), else as characters.
    static func has(_ text: String, _ term: String) -> Bool {
        // As the standard library's `contains`: an empty term is in nothing.
        guard !term.isEmpty else { return false }
        var (haystack, needle) = (text, term)
        let found = haystack.withUTF8 { h in
            needle.withUTF8 { n -> Bool? in
                guard h.allSatisfy({ $0 < 0x80 }), n.allSatisfy({ $0 < 0x80 }) else { return nil }
                guard n.count <= h.count else { return false }
                for start in 0...(h.count - n.count) where h[start] == n[0] {
                    var i = 1
                    while i < n.count && h[start + i] == n[i] { i += 1 }
                    if i == n.count { return true }
                }
                return false
            }
        }
        return found ?? text.contains(term)
    }
}
