import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// Why a download failed. `reason` is the short text a placeholder tile shows; `description` the
/// whole story, for start-up errors.
package enum FetchError: Error, Equatable, Sendable, CustomStringConvertible {
    /// No connection: refused, unknown host, timed out connecting.
    case unreachable(String)
    /// The server answered with an error status.
    case status(Int, String)
    /// The body was larger than allowed (`limit` bytes), or its header said it would be.
    case tooLarge(Int)
    /// The connection broke or timed out before the whole body came.
    case interrupted(String)
    /// A redirect to a scheme other than http or https, a loop, or too many of them.
    case badRedirect(String)
    /// Not a URL photogrid fetches.
    case badURL(String)
    /// A body sent compressed although photogrid never asks for that (a gzip bomb, or a
    /// misconfigured server): refused rather than inflated.
    case encoded(String)
    /// TLS failed: the server speaks no HTTPS on that port, or its certificate is not trusted.
    case secureConnection(String)
    /// `photogrid serve` could not make the photo's rendition, and said why (`reasonHeader`): the
    /// photo's own fault (a corrupt or cut file), shown as a local photo's would be.
    case photoUnusable(String)
    /// A batch response broke its format or a limit (docs/remote-gallery.md, "Batches"): a part
    /// for a photo never asked for, a length past the limit, no end, a photo left out.
    case badBatch(String)
    /// The server wants a login, or refused the one given (a 401, with the server's words when
    /// it gave some; an SSH server that took no key): the place, and those words.
    case login(String, said: String?)
    /// An SSH server whose key `~/.ssh/known_hosts` does not hold, or holds another one for.
    case hostKey(String, HostKeyMatch)
    /// An S3-compatible server's refusal, by its error code (`AccessDenied`,
    /// `SignatureDoesNotMatch`...): the status, the code, and the URL asked.
    case bucket(Int, code: String, String)
    /// An answer photogrid cannot use, or a place it will not write to, in words of its own
    /// (a bucket's listing that is none, a prefix that holds something else than an export).
    case unusable(String)
    /// No longer wanted: its owner let it go.
    case cancelled

    /// The response header in which `photogrid serve` says why a photo cannot be had.
    package static let reasonHeader = "Photogrid-Reason"

    /// Printable ASCII only: what a header value may hold, and a tile may show.
    package static func printable(_ text: String) -> String {
        String(String.UnicodeScalarView(text.unicodeScalars.filter { (0x20...0x7E).contains($0.value) }))
    }

    /// A reason from a server, fit for a tile: printable ASCII only, at most 60 characters; nil
    /// when nothing is left of it.
    static func serverReason(_ text: String?) -> String? {
        guard let text else { return nil }
        let kept = String(printable(text).prefix(60))
        return kept.allSatisfy({ $0 == " " }) ? nil : kept
    }

    package var reason: String {
        switch self {
        case .unreachable: return "unreachable"
        case .status(let code, _): return "HTTP \(code)"
        case .tooLarge: return "too large"
        case .interrupted: return "download broke off"
        case .badRedirect: return "bad redirect"
        case .badURL: return "bad URL"
        case .encoded: return "compressed response"
        case .photoUnusable(let why): return why
        case .secureConnection: return "HTTPS failed"
        case .badBatch: return "server sent a broken batch"
        case .login: return "login needed"
        case .hostKey: return "host key refused"
        case .bucket(let status, let code, _): return BucketWords.short(code) ?? "HTTP \(status)"
        case .unusable: return "unusable answer"
        case .cancelled: return "cancelled"
        }
    }

    package var description: String {
        switch self {
        case .unreachable(let detail): return "cannot connect: \(detail)"
        case .status(let code, let url): return "\(url): the server answered \(FetchError.statusText(code))"
        case .tooLarge(let limit): return "the response is larger than \(limit >> 20) MB"
        case .interrupted(let detail): return "the download broke off: \(detail)"
        case .badRedirect(let detail): return "refused redirect: \(detail)"
        case .badURL(let detail): return "not an http or https URL: \(detail)"
        case .encoded(let encoding): return "the server sent a \(encoding)-compressed body, which photogrid does not ask for or inflate"
        case .photoUnusable(let why): return "the server cannot use the photo: \(why)"
        case .secureConnection(let why): return why
        case .badBatch(let why): return "the server's batch response is broken: \(why)"
        case .login(let place, let said):
            let words = said.map { " (it says: \($0))" } ?? ""
            if place.hasPrefix("sftp://") {
                return "\(place): the server took none of the keys offered\(words): photogrid offers the ssh agent's and "
                    + "~/.ssh/id_ed25519, id_ecdsa or id_rsa"
            }
            return "\(place): the server answered 401 (a login is needed)\(words): photogrid logs in with ~/.netrc "
                + "or --user NAME"
        case .hostKey(let place, let match):
            switch match {
            case .changed:
                return "Host key verification failed: the key of \(place) is not the one ~/.ssh/known_hosts holds "
                    + "(REMOTE HOST IDENTIFICATION HAS CHANGED: someone could be eavesdropping, or the host's key was "
                    + "changed; ssh-keygen -R removes the old one)"
            case .unknown:
                return "Host key verification failed: ~/.ssh/known_hosts holds no key for \(place) "
                    + "(connect once with ssh to check and add it)"
            default:
                return "Host key verification failed for \(place): ~/.ssh/known_hosts cannot be read"
            }
        case .bucket(let status, let code, let url):
            return "\(url): the bucket answered \(FetchError.statusText(status)), \(code): \(BucketWords.long(code))"
        case .unusable(let why): return why
        case .cancelled: return "cancelled"
        }
    }

    /// "404 (not found)": the code, and what it means for the common ones.
    static func statusText(_ code: Int) -> String {
        let meaning: [Int: String] = [400: "bad request", 401: "a login is needed", 403: "forbidden", 404: "not found",
                                      410: "gone", 429: "too many requests", 500: "server error", 502: "bad gateway",
                                      503: "unavailable", 504: "gateway timeout"]
        return meaning[code].map { "\(code) (\($0))" } ?? "\(code)"
    }

    /// Worth another try later: the network may be back.
    package var isTransient: Bool {
        switch self {
        // A broken batch's photos are asked for one by one when they come back on screen.
        case .unreachable, .interrupted, .badBatch: return true
        case .status(let code, _): return code == 408 || code == 429 || code >= 500
        // S3's "slow down" (a 503) and its internal errors pass; a refusal does not.
        case .bucket(let status, let code, _): return code == "SlowDown" || code == "InternalError" || status >= 500
        default: return false
        }
    }
}

/// A response, as much of it as photogrid uses.
package struct FetchResult: Sendable {
    package var status: Int
    package var body: [UInt8]
    package var contentType: String?
    /// The URL finally answered, after redirects: what relative links resolve against.
    package var url: RemoteURL
    /// Served from the disk cache without asking the server.
    package var fromCache = false
}

/// What a server says with a 401, for the message that asks for a login: its realm
/// (`WWW-Authenticate: Basic realm="Photos"`) and a plain-text body's first line, or an HTML
/// page's title; printable ASCII only, at most 120 characters.
enum LoginWords {
    static func of(_ head: ResponseHead, body: [UInt8]) -> String? {
        var words: [String] = []
        if let challenge = head.header("WWW-Authenticate"), let realm = quoted(after: "realm=", in: challenge) {
            words.append("realm \"\(realm)\"")
        }
        let text = String(decoding: body.prefix(4096), as: UTF8.self)
        let type = head.header("Content-Type")?.lowercased() ?? ""
        if type.hasPrefix("text/plain"), let line = text.split(whereSeparator: \.isNewline).first {
            words.append(String(line))
        } else if type.hasPrefix("text/html"), let title = between("<title>", "</title>", in: text) {
            words.append(title)
        }
        let said = FetchError.printable(words.joined(separator: ": ")).prefix(120)
        return said.allSatisfy({ $0 == " " }) ? nil : String(said)
    }

    static func quoted(after key: String, in text: String) -> String? {
        let bytes = Array(text.utf8), lowered = bytes.map(lower)
        guard let start = find(Array(key.utf8).map(lower), in: lowered, from: 0) else { return nil }
        var rest = bytes[(start + key.utf8.count)...]
        if rest.first == UInt8(ascii: "\"") {
            rest = rest.dropFirst()
            return String(decoding: rest.prefix { $0 != UInt8(ascii: "\"") }, as: UTF8.self)
        }
        return String(decoding: rest.prefix { $0 != UInt8(ascii: ",") }, as: UTF8.self)
    }

    static func between(_ open: String, _ close: String, in text: String) -> String? {
        let bytes = Array(text.utf8), lowered = bytes.map(lower)
        guard let start = find(Array(open.utf8).map(lower), in: lowered, from: 0),
              let end = find(Array(close.utf8).map(lower), in: lowered, from: start + open.utf8.count) else { return nil }
        return String(decoding: bytes[(start + open.utf8.count)..<end], as: UTF8.self)
    }

    static func lower(_ byte: UInt8) -> UInt8 { byte >= 0x41 && byte <= 0x5A ? byte | 0x20 : byte }

    static func find(_ needle: [UInt8], in haystack: [UInt8], from: Int) -> Int? {
        guard !needle.isEmpty, haystack.count >= needle.count, from <= haystack.count - needle.count else { return nil }
        return (from...(haystack.count - needle.count)).first { haystack[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}

extension FetchError {
    /// What a response that is not the body asked for means: photogrid serve's reason for a
    /// photo it cannot use, a login wanted (with the server's words), or its status.
    static func refusal(_ head: ResponseHead, body: [UInt8]) -> FetchError {
        if let why = serverReason(head.header(reasonHeader)) { return .photoUnusable(why) }
        if head.status == 401 { return .login(head.url.description, said: LoginWords.of(head, body: body)) }
        if let refused = BucketAnswer.error(body), let code = BucketWords.code(refused.code) {
            return .bucket(head.status, code: code, head.url.description)
        }
        return .status(head.status, head.url.description)
    }
}

/// What an S3-compatible server's error codes mean, in a user's words: the common ones named,
/// any other shown as its code (letters alone, so a server cannot put anything else on screen).
enum BucketWords {
    static func code(_ text: String) -> String? {
        let kept = String(text.unicodeScalars.filter { ("A"..."Z").contains($0) || ("a"..."z").contains($0) }.prefix(40).map(Character.init))
        return kept.isEmpty ? nil : kept
    }

    static func short(_ code: String) -> String? {
        switch code {
        case "SignatureDoesNotMatch": return "signature does not match"
        case "InvalidAccessKeyId": return "unknown access key"
        case "RequestTimeTooSkewed": return "clock skewed"
        case "AccessDenied", "AllAccessDisabled": return "access denied"
        case "NoSuchBucket": return "no such bucket"
        case "NoSuchKey": return "not found"
        case "SlowDown": return "server busy"
        case "ExpiredToken", "TokenRefreshRequired": return "session expired"
        default: return nil
        }
    }

    static func long(_ code: String) -> String {
        switch code {
        case "SignatureDoesNotMatch":
            return "the signature does not match (the secret key is wrong: AWS_SECRET_ACCESS_KEY, or the profile's "
                + "aws_secret_access_key in ~/.aws/credentials)"
        case "InvalidAccessKeyId":
            return "the server knows no such access key (AWS_ACCESS_KEY_ID, or the profile's aws_access_key_id)"
        case "RequestTimeTooSkewed":
            return "this machine's clock is too far from the server's (a signature holds for 15 minutes): set the clock"
        case "AccessDenied", "AllAccessDisabled":
            return "access denied (these credentials may not read it; a public bucket needs none)"
        case "NoSuchBucket": return "there is no such bucket"
        case "NoSuchKey": return "no such key"
        case "SlowDown": return "the server asks to slow down (tried again later)"
        case "ExpiredToken", "TokenRefreshRequired": return "the session token has expired (AWS_SESSION_TOKEN)"
        default: return "the server refused it"
        }
    }
}
