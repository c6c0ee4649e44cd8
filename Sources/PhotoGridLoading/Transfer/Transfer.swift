import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// One request under way on the `TransferLoop`, and what it tells its owner. Everything but
/// `cancel` runs on the loop's thread; what it hands on must be quick (queue work, wake a thread).
///
/// Two ways to take the response: *collected*, the body gathered and handed over whole with its
/// head at the end (tried again after a pause when it fails in a way that may pass); or
/// *streamed*, the head and each piece of the body handed on as they come (a batch's parts).
package final class Transfer: CurlReceiver, @unchecked Sendable {
    package enum Delivery {
        case collect(@Sendable (Result<(ResponseHead, [UInt8]), FetchError>) -> Void)
        /// `head` returns whether to go on; `body` likewise; `end` hears how it ended.
        case stream(head: @Sendable (ResponseHead) -> Bool, body: @Sendable (UnsafeRawBufferPointer) -> Bool,
                    end: @Sendable (Result<ResponseHead, FetchError>) -> Void)
    }

    let request: TransferRequest
    let delivery: Delivery
    /// Set from any thread; the loop drops the transfer when it next looks.
    let cancelled = Locked(false)

    // The loop's, across attempts and redirects.
    /// Where it is asked now: the request's URL, or where a redirect sent it.
    var url: RemoteURL
    var method: TransferRequest.Method
    /// The URLs redirects led to, in order: a loop is refused the first time it closes.
    var redirects: [RemoteURL] = []

    // The loop's, per attempt.
    var easy: CurlEasy?
    var attempt = 0
    /// Digest asked for: the server offered only that, and a login was at hand.
    var usesDigest = false
    private var headers: [(name: String, value: String)] = []
    private var status = 0
    private var head: ResponseHead?
    private var body: [UInt8] = []
    /// Why the transfer was stopped from here (a limit, a compressed body, a refused head).
    private(set) var stoppedBecause: FetchError?
    /// The range was asked for and the server sent the whole body: it was cut where the range ends.
    private(set) var cutAtRange = false
    private(set) var hostKey: HostKeyMatch?

    package init(_ request: TransferRequest, _ delivery: Delivery) {
        self.request = request
        self.delivery = delivery
        url = request.url
        method = request.method
    }

    /// Cuts the transfer short; its owner hears nothing more of it, but for a stream's `end`.
    func cancel() { cancelled.withLock { $0 = true } }

    /// Forgets what the last attempt received, before another.
    func reset() {
        headers = []
        status = 0
        head = nil
        body = []
        stoppedBecause = nil
        cutAtRange = false
        hostKey = nil
        easy = nil
    }

    // MARK: - CurlReceiver

    func header(_ line: ArraySlice<UInt8>) -> Bool {
        var text = line
        while let last = text.last, last == 0x0A || last == 0x0D { text = text.dropLast() }
        if text.starts(with: Array("HTTP/".utf8)) {
            // A new response (after a redirect, a 100 Continue or a 401 answered with a login).
            headers = []
            return true
        }
        guard let colon = text.firstIndex(of: UInt8(ascii: ":")) else { return true }
        let name = String(decoding: text[..<colon], as: UTF8.self)
        let value = String(decoding: Transfer.trimmed(text[(colon + 1)...]), as: UTF8.self)
        headers.append((name, value))
        return true
    }

    func data(_ bytes: UnsafeRawBufferPointer) -> Bool {
        if head == nil {
            guard let first = makeHead() else { return false }
            // A redirect's body is nobody's: the loop follows it once the response ends.
            if redirectTarget(first) != nil { return true }
            guard accepts(first) else { return false }
        } else if let head, redirectTarget(head) != nil {
            return true
        }
        switch delivery {
        case .collect:
            var piece = bytes
            if let range = request.range, head?.status == 200 || head?.status == 0 {
                // The whole file, though a range was asked for: its first bytes are enough.
                let room = range.count - body.count
                if piece.count >= room {
                    piece = UnsafeRawBufferPointer(rebasing: piece.prefix(room))
                    body.append(contentsOf: piece)
                    cutAtRange = true
                    return false
                }
            } else if body.count + piece.count > request.limit {
                stoppedBecause = .tooLarge(request.limit)
                return false
            }
            body.append(contentsOf: piece)
            return true
        case .stream(_, let onBody, _):
            return onBody(bytes)
        }
    }

    func hostKey(_ match: HostKeyMatch) -> Bool {
        hostKey = match
        return match == .known
    }

    // MARK: - The head

    /// The head as it stands once the body starts (or the transfer ends without one).
    func makeHead() -> ResponseHead? {
        if let head { return head }
        guard let easy else { return nil }
        var code = easy.status
        // SFTP has no status: what it read is the file (or the range asked for).
        if url.scheme == .sftp && code == 0 { code = request.range == nil ? 200 : 206 }
        let made = ResponseHead(status: code, headers: headers, url: url)
        head = made
        return made
    }

    /// Whether the body of a response with this head is wanted; false stops the transfer.
    private func accepts(_ head: ResponseHead) -> Bool {
        // photogrid sends no Accept-Encoding, so a compressed body is a server's mistake or a
        // bomb: refused rather than inflated (libcurl inflates nothing it was not asked to).
        if let encoding = head.header("Content-Encoding")?.lowercased(), encoding != "identity", (200..<300).contains(head.status) {
            stoppedBecause = .encoded(encoding)
            return false
        }
        if case .collect = delivery, let length = head.header("Content-Length").flatMap(Int.init), request.range == nil,
           (200..<300).contains(head.status), length > request.limit {
            stoppedBecause = .tooLarge(request.limit)
            return false
        }
        if case .collect = delivery, let length = head.header("Content-Length").flatMap(Int.init) {
            body.reserveCapacity(min(length, request.range?.count ?? request.limit))
        }
        if case .stream(let onHead, _, _) = delivery, !onHead(head) {
            stoppedBecause = .status(head.status, url.description)
            return false
        }
        return true
    }

    /// Where a response sends the request, if it is a redirect to follow: its `Location`
    /// resolved against the URL asked (which may be anything; the loop checks it).
    func redirectTarget(_ head: ResponseHead) -> String? {
        guard request.followsRedirects, [301, 302, 303, 307, 308].contains(head.status),
              let location = head.header("Location"), !location.isEmpty else { return nil }
        return location
    }

    // MARK: - The end

    /// How the attempt ended, from libcurl's failure (if any) and what was received.
    func outcome(_ failure: CurlFailure?) -> Result<(ResponseHead, [UInt8]), FetchError> {
        if let failure {
            // Stopped from here on purpose: the range's bytes are in, or a limit was passed.
            if cutAtRange, let head = makeHead() { return .success((head, body)) }
            if let stoppedBecause { return .failure(stoppedBecause) }
            return .failure(Transfer.fetchError(failure, url: url, hostKey: hostKey, limit: request.limit, answered: !headers.isEmpty || !body.isEmpty))
        }
        guard let head = makeHead() else { return .failure(.interrupted("no response")) }
        return .success((head, body))
    }

    /// libcurl's failure in the words a user needs.
    /// `answered`: the server sent the start of an answer (a status line) before it failed.
    static func fetchError(_ failure: CurlFailure, url: RemoteURL, hostKey: HostKeyMatch?, limit: Int, answered: Bool = true) -> FetchError {
        let place = "\(url.host):\(url.effectivePort)"
        if let hostKey, hostKey != .known {
            return .hostKey(place, hostKey)
        }
        switch failure.kind {
        case .refused: return .unreachable("\(place): connection refused")
        case .unknownHost: return .unreachable("\(place): unknown host")
        case .noRoute: return .unreachable("\(place): no route to the host")
        case .timedOut:
            let lowered = failure.text.lowercased()
            if lowered.contains("connection timed out") || lowered.contains("resolving timed out") || lowered.contains("connect") {
                return .unreachable("\(place): timed out connecting")
            }
            // Connected, and not a byte of an answer since: a server that is not serving (hung,
            // or not HTTP), not a transfer cut short; asked again only if it answered before.
            if !answered { return .unreachable("\(place): connected, but no answer came") }
            return .interrupted("no data for too long")
        case .certificate:
            return .secureConnection("\(place) has a certificate this machine does not trust, or one for another name "
                                     + "(--ca-cert FILE trusts a server's own)")
        case .plainToSecure: return .secureConnection("\(place) does not speak HTTPS (try http://)")
        case .tls: return .secureConnection("\(place): the secure connection failed")
        case .interrupted where url.scheme == .http && failure.text.lowercased().contains("empty reply"):
            // An HTTPS server closes a connection that opens in plain HTTP without a word.
            return .interrupted("the server closed the connection without an answer (if it speaks HTTPS: https://)")
        case .interrupted: return .interrupted(gist(of: failure.text))
        case .tooLarge: return .tooLarge(limit)
        case .tooManyRedirects: return .badRedirect("too many redirects from \(url)")
        case .badRedirect: return .badRedirect("\(url) redirects to a scheme photogrid does not follow")
        case .stopped: return .interrupted("stopped")
        case .sshLogin, .login: return .login(url.scheme == .sftp ? "sftp://" + place : place, said: nil)
        case .notFound: return .status(404, url.description)
        case .hugeHeaders: return .interrupted("the response's headers are larger than photogrid takes (100 KB), or memory ran out")
        case .other:
            if failure.text.lowercased().contains("access denied") || failure.text.lowercased().contains("permission denied") {
                return .status(403, url.description)
            }
            return .interrupted(gist(of: failure.text))
        }
    }

    /// A header's value without the spaces and tabs around it.
    static func trimmed(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var value = bytes
        while let first = value.first, first == 0x20 || first == 0x09 { value = value.dropFirst() }
        while let last = value.last, last == 0x20 || last == 0x09 { value = value.dropLast() }
        return value
    }

    /// A library's error text for a message: its first line, at most 120 characters.
    static func gist(of text: String) -> String {
        String(String(text.split(separator: "\n").first ?? "").prefix(120))
    }
}
