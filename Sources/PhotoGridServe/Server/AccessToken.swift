import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The secret a gallery served beyond loopback asks for: the first segment of every request's
/// path, `/t/TOKEN/...`. In the path rather than a header or a query, so that the manifest's
/// relative URLs carry it to every rendition and original with no change to any client: the URL
/// `photogrid serve` prints (`http://HOST:PORT/t/TOKEN/`) is all `--url` needs.
struct AccessToken: Sendable {
    let secret: [UInt8]

    /// 128 bits from the system's random source (getrandom), as 32 hex digits.
    static func generate() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<2).map { _ in
            let hex = String(generator.next() as UInt64, radix: 16)
            return String(repeating: "0", count: 16 - hex.count) + hex
        }.joined()
    }

    /// What `--token` takes: 16 to 128 characters a URL path keeps as they are.
    static func isAcceptable(_ token: String) -> Bool {
        (16...128).contains(token.utf8.count) && token.utf8.allSatisfy { byte in
            (UInt8(ascii: "a")...UInt8(ascii: "z")).contains(byte) || (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte)
                || (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(byte) || byte == UInt8(ascii: "-") || byte == UInt8(ascii: "_")
        }
    }

    init(_ token: String) { secret = Array(token.utf8) }

    /// The target without its token (`/t/TOKEN/renditions/x` is `/renditions/x`), or nil when it
    /// does not begin with this token. The token is compared in constant time: every byte is
    /// looked at whatever the first difference, so the time taken tells nothing of how much of
    /// a guess was right.
    func strip(_ target: String) -> String? {
        let bytes = Array(target.utf8)
        let prefix = Array("/t/".utf8)
        guard bytes.starts(with: prefix) else { return nil }
        let rest = bytes[prefix.count...]
        let end = rest.firstIndex(of: UInt8(ascii: "/")) ?? rest.endIndex
        let given = Array(rest[..<end])
        guard AccessToken.equalInConstantTime(given, secret) else { return nil }
        let remainder = Array(rest[end...])
        return remainder.isEmpty ? "/" : String(decoding: remainder, as: UTF8.self)
    }

    /// Equal, in a time that depends only on the lengths (the secret's length is no secret).
    static func equalInConstantTime(_ a: [UInt8], _ b: [UInt8]) -> Bool {
        var difference = UInt8(truncatingIfNeeded: a.count ^ b.count)
        for i in 0..<b.count { difference |= (i < a.count ? a[i] : 0) ^ b[i] }
        return difference == 0
    }
}

/// Wrong tokens slow down: each failure from an address within the last minute adds a quarter
/// of a second to the 401 it gets, up to 5 s, so that guessing 128 bits stays out of reach and a
/// typo costs nothing noticeable.
final class FailedAttempts: Sendable {
    private let recent = Locked<[String: (count: Int, last: Double)]>([:])

    /// The delay for this failure from `address`, in milliseconds.
    func delay(for address: String, now: Double = SystemClock().seconds()) -> Int64 {
        recent.withLock { table in
            // Old entries go, so that a scan of addresses cannot grow the table without bound.
            if table.count > 10_000 { table = table.filter { now - $0.value.last < 60 } }
            let before = table[address].flatMap { now - $0.last < 60 ? $0.count : nil } ?? 0
            table[address] = (before + 1, now)
            return Int64(min(5000, 250 * (before + 1)))
        }
    }
}
