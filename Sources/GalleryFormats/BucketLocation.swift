/// Where a bucket's objects and listings are, over HTTP: a base URL for the bucket (path-style,
/// `http://minio.local:9000/photos/`, or virtual-hosted, `https://photos.s3.eu-west-1.amazonaws.com/`),
/// an object's URL its key appended, a folder's listing S3's ListObjectsV2 with "/" as the
/// delimiter (`?list-type=2&delimiter=%2F&prefix=2024%2F`): keys as files, common prefixes as
/// folders, a thousand at a time with a token for the rest.
package struct BucketLocation: Sendable, Equatable {
    /// The bucket's URL, ending in "/", without a query.
    package var base: RemoteURL
    /// The key prefix a listing was asked for ("" or ending in "/"), decoded.
    package var prefix: String

    package init?(base: RemoteURL, prefix: String) {
        guard base.scheme.isWeb, base.query == nil else { return nil }
        guard let slashed = base.hasDirectoryPath ? base : RemoteURL(base.origin + base.path + "/") else { return nil }
        (self.base, self.prefix) = (slashed, prefix)
    }

    /// The location a listing's URL was made for: its base and its `prefix`.
    package init?(listingURL url: RemoteURL) {
        guard let base = RemoteURL(url.origin + url.path) else { return nil }
        self.init(base: base, prefix: BucketLocation.parameter("prefix", of: url) ?? "")
    }

    /// Whether `url` asks for a ListObjectsV2 listing with "/" as the delimiter.
    package static func isFolderListing(_ url: RemoteURL) -> Bool {
        parameter("list-type", of: url) == "2" && parameter("delimiter", of: url) == "/"
    }

    /// The listing of the keys under `prefix` (one level), from `continuation` on when given.
    package func listing(prefix: String, continuation: String? = nil) -> RemoteURL? {
        query(["list-type": "2", "delimiter": "/", "prefix": prefix, "continuation-token": continuation])
    }

    /// Every key under `prefix`, at any depth (no delimiter): what an upload compares with.
    package func allKeys(prefix: String, continuation: String? = nil) -> RemoteURL? {
        query(["list-type": "2", "prefix": prefix, "continuation-token": continuation])
    }

    /// The bucket's URL with these parameters (those without a value left out), in S3's
    /// order: list-type, delimiter, prefix, continuation-token.
    private func query(_ parameters: [String: String?]) -> RemoteURL? {
        let pairs = ["list-type", "delimiter", "prefix", "continuation-token"].compactMap { name in
            parameters[name].flatMap { $0 }.map { name + "=" + BucketLocation.encode(Array($0.utf8), keepingSlash: false) }
        }
        return RemoteURL(base.description + "?" + pairs.joined(separator: "&"))
    }

    /// The object with `key`: its bytes, encoded as S3 reads them ("/" kept).
    package func object(_ key: String) -> RemoteURL? {
        RemoteURL(base.description + BucketLocation.encode(Array(key.utf8), keepingSlash: true))
    }

    /// A query parameter's value, decoded; nil when the URL has none of that name.
    package static func parameter(_ name: String, of url: RemoteURL) -> String? {
        guard let query = url.query else { return nil }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.first.map(String.init) == name else { continue }
            let value = parts.count > 1 ? parts[1] : ""
            return String(decoding: RemoteURL.strictlyPercentDecoded(value.utf8) ?? Array(value.utf8), as: UTF8.self)
        }
        return nil
    }

    /// RFC 3986's unreserved characters as they are, every other byte as %XX (upper case): how
    /// S3 and its signatures want keys and query values written.
    package static func encode(_ bytes: [UInt8], keepingSlash: Bool) -> String {
        let digits = Array("0123456789ABCDEF".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(bytes.count)
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: "/") where keepingSlash:
                out.append(byte)
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return String(decoding: out, as: UTF8.self)
    }
}
