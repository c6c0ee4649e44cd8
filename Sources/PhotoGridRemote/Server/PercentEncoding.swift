import PhotoGridCore

/// Percent-encoding of URL paths (RFC 3986), for the ids the server puts in its URLs and finds
/// again in requests: `RemoteURL`'s, the one encoder the client and the server share.
///
/// Ids are file paths, and file names hold anything but `/` and NUL: spaces, `%`, `?`, `#`,
/// non-ASCII letters, bytes that are not UTF-8. Everything but the unreserved characters and `/`
/// is encoded, so that any id survives a trip through a client's URL resolution unchanged.
enum PercentEncoding {
    /// `bytes` with every byte but `A-Z a-z 0-9 - . _ ~` and `/` written as `%XX`.
    static func encodePath(_ bytes: [UInt8]) -> String { RemoteURL.percentEncode(pathBytes: bytes) }

    static func encodePath(_ string: String) -> String { encodePath(Array(string.utf8)) }

    /// The bytes `encoded` stands for, decoded exactly once; nil when a `%` is not followed by two
    /// hex digits. `+` is left alone: it means a space only in form data, not in paths.
    static func decode(_ encoded: Substring.UTF8View) -> [UInt8]? { RemoteURL.strictlyPercentDecoded(encoded) }
}
