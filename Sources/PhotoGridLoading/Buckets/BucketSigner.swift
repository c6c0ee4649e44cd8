import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// A key pair for a bucket, from the environment or the AWS files. Never printed: its
/// description says only that there is one, and no part of it goes into a URL, a cache key or
/// a message.
package struct BucketCredentials: Sendable, Equatable, CustomStringConvertible {
    package var accessKey: String
    package var secretKey: String
    package var sessionToken: String?

    package init(accessKey: String, secretKey: String, sessionToken: String? = nil) {
        (self.accessKey, self.secretKey, self.sessionToken) = (accessKey, secretKey, sessionToken)
    }

    package var description: String { "bucket credentials" }
}

/// AWS Signature Version 4 for S3 requests in headers, as the AWS documentation's "Signature
/// Calculations for the Authorization Header" describes it: a canonical request (method, path,
/// sorted query, the signed headers, the payload's hash), a string to sign naming the day,
/// region and service, and a key derived from the secret by four HMACs.
package struct BucketSigner: Sendable {
    package var credentials: BucketCredentials
    package var region: String
    package var service = "s3"

    /// Uploads sign their bodies this way rather than hash them twice; S3 and the servers
    /// compatible with it accept it for any request.
    package static let unsignedPayload = "UNSIGNED-PAYLOAD"
    /// The SHA-256 of no bytes: a GET's, a HEAD's, a DELETE's payload.
    package static let emptyPayload = Digest.hex(Digest.sha256([UInt8]()))

    package init(credentials: BucketCredentials, region: String) {
        (self.credentials, self.region) = (credentials, region)
    }

    /// The header lines ("Name: value") that sign a request for `url`, made at `seconds` (UTC
    /// seconds since 1970). `extra` are other headers the request sends that should be signed
    /// (x-amz-* and Content-Type for uploads), as (lower-case name, value).
    package func headers(method: String, url: RemoteURL, payloadHash: String, seconds: Int64,
                         extra: [(String, String)] = []) -> [String] {
        let stamp = BucketSigner.timestamp(seconds)
        let day = String(stamp.prefix(8))
        var signed: [(String, String)] = [("host", BucketSigner.hostHeader(url)), ("x-amz-content-sha256", payloadHash), ("x-amz-date", stamp)]
        if let token = credentials.sessionToken { signed.append(("x-amz-security-token", token)) }
        signed += extra.map { ($0.0.lowercased(), $0.1) }
        signed.sort { $0.0 < $1.0 }
        let names = signed.map(\.0).joined(separator: ";")
        let canonical = [method, BucketSigner.canonicalPath(url), BucketSigner.canonicalQuery(url),
                         signed.map { "\($0.0):\($0.1.trimmingWhitespace)\n" }.joined(), names, payloadHash].joined(separator: "\n")
        let scope = "\(day)/\(region)/\(service)/aws4_request"
        let toSign = ["AWS4-HMAC-SHA256", stamp, scope, Digest.hex(Digest.sha256(Array(canonical.utf8)))].joined(separator: "\n")
        var key = Digest.hmacSHA256(key: Array("AWS4\(credentials.secretKey)".utf8), Array(day.utf8))
        for part in [region, service, "aws4_request"] { key = Digest.hmacSHA256(key: key, Array(part.utf8)) }
        let signature = Digest.hex(Digest.hmacSHA256(key: key, Array(toSign.utf8)))
        var lines = signed.filter { $0.0 != "host" }.map { "\($0.0): \($0.1)" }
        lines.append("Authorization: AWS4-HMAC-SHA256 Credential=\(credentials.accessKey)/\(scope), "
                     + "SignedHeaders=\(names), Signature=\(signature)")
        return lines
    }

    /// What libcurl sends as Host: the host, and the port unless it is the scheme's own.
    static func hostHeader(_ url: RemoteURL) -> String {
        url.port.map { "\(url.host):\($0)" } ?? url.host
    }

    /// `20261128T075012Z`.
    static func timestamp(_ seconds: Int64) -> String {
        let date = CaptureDate.civil(seconds), time = CaptureDate.timeOfDay(seconds)
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(date.year)\(two(date.month))\(two(date.day))T\(two(time.hour))\(two(time.minute))\(two(time.second))Z"
    }

    /// The path as S3 reads it: each byte but the unreserved ones and "/" percent-encoded, once.
    static func canonicalPath(_ url: RemoteURL) -> String {
        let decoded = RemoteURL.strictlyPercentDecoded(url.path.utf8) ?? Array(url.path.utf8)
        return decoded.isEmpty ? "/" : BucketLocation.encode(decoded, keepingSlash: true)
    }

    /// The query's names and values encoded as above ("/" too), sorted by name, then value.
    static func canonicalQuery(_ url: RemoteURL) -> String {
        guard let query = url.query, !query.isEmpty else { return "" }
        let pairs = query.split(separator: "&", omittingEmptySubsequences: true).map { pair -> (String, String) in
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            func part(_ text: Substring?) -> String {
                let plain = RemoteURL.strictlyPercentDecoded((text ?? "").utf8) ?? Array((text ?? "").utf8)
                return BucketLocation.encode(plain, keepingSlash: false)
            }
            return (part(parts.first), part(parts.count > 1 ? parts[1] : nil))
        }
        return pairs.sorted { $0.0 != $1.0 ? $0.0 < $1.0 : $0.1 < $1.1 }.map { "\($0.0)=\($0.1)" }.joined(separator: "&")
    }
}
