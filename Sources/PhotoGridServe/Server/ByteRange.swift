/// One byte range asked for in a `Range` header (RFC 9110 §14.1.2): `bytes=a-b`, `bytes=a-` or
/// `bytes=-n`.
///
/// Several ranges in one header (`bytes=0-9,20-29`) would need a multipart/byteranges body, which
/// no photo viewer asks for; such a header is ignored and the whole file sent, as RFC 9110
/// allows a server to do with any Range header.
enum ByteRange: Equatable {
    /// From `first` to `last` inclusive, or to the end when `last` is nil.
    case from(Int, through: Int?)
    /// The last `count` bytes.
    case suffix(Int)

    /// What a range comes to for a file of a given size.
    enum Resolution: Equatable {
        /// These bytes, never empty, within the file.
        case bytes(Range<Int>)
        /// Starts past the end, or asks for no bytes at all: 416.
        case unsatisfiable
    }

    /// The range a header asks for; nil for a header to ignore (another unit, several ranges,
    /// anything malformed).
    init?(header: String) {
        let trimmed = header.trimmingSpaces
        guard trimmed.count > 6, trimmed.prefix(6).lowercased() == "bytes=" else { return nil }
        let spec = trimmed.dropFirst(6).trimmingSpaces
        guard !spec.contains(","), let dash = spec.firstIndex(of: "-") else { return nil }
        let start = spec[..<dash].trimmingSpaces, end = spec[spec.index(after: dash)...].trimmingSpaces
        if start.isEmpty {
            guard let count = ByteRange.number(end) else { return nil }
            self = .suffix(count)
        } else {
            guard let first = ByteRange.number(start) else { return nil }
            if end.isEmpty {
                self = .from(first, through: nil)
            } else {
                // last < first is not a range at all, so it is ignored rather than refused.
                guard let last = ByteRange.number(end), last >= first else { return nil }
                self = .from(first, through: last)
            }
        }
    }

    func resolve(size: Int) -> Resolution {
        switch self {
        case .from(let first, let last):
            guard first < size else { return .unsatisfiable }
            let end = min(last.map { $0 == Int.max ? $0 : $0 + 1 } ?? size, size)
            return .bytes(first..<end)
        case .suffix(let count):
            guard count > 0, size > 0 else { return .unsatisfiable }
            return .bytes(max(0, size - count)..<size)
        }
    }

    /// Decimal digits only; past 18 digits the value is taken as `Int.max` rather than overflow,
    /// since for a position that only ever means "beyond the end".
    private static func number(_ text: Substring) -> Int? {
        guard !text.isEmpty, text.utf8.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return nil }
        if text.utf8.count > 18 { return Int.max }
        return Int(text)
    }
}
