import PhotoGridCore
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

    /// The response header in which `photogrid serve` says why a photo cannot be had.
    package static let reasonHeader = "Photogrid-Reason"

    /// Printable ASCII only: what a header value may hold, and a tile may show.
    static func printable(_ text: String) -> String {
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
