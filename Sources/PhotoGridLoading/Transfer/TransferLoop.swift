import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// Every transfer of a run, on one thread of its own that waits on their sockets (libcurl's multi
/// interface): no other thread ever waits for the network. A transfer is started from any thread
/// and tells its owner how it went on this one. Started with the first transfer, so that a
/// visit drawn from the disk cache does not start it at all.
package final class TransferLoop: @unchecked Sendable {
    let settings: TransferSettings

    /// What other threads hand the loop: transfers to start, and whether to stop.
    private struct Inbox {
        var starts: [Transfer] = []
        var cancels = false
        var stopping = false
        var multi: CurlMulti?
        var thread: JoinableThread?
    }
    private let inbox = Locked(Inbox())

    // The loop thread's own.
    private var running: [UnsafeMutableRawPointer: Transfer] = [:]
    private var retrying: [(due: Int, transfer: Transfer)] = []
    /// Servers that offered digest and not basic on a 401: asked with digest from then on.
    private var digestOrigins: Set<String> = []
    /// Servers that have answered this run: a connection to one that fails later (a busy
    /// server's full accept queue) may pass, where a first one that fails means a wrong URL.
    private var answeredOrigins: Set<String> = []
    /// Bytes received so far, headers and bodies: what the link measures read.
    private let received = Locked(0)

    /// Retries' due times and freshness are read from it (a test's moves by hand).
    package let clock: any Clock

    package init(settings: TransferSettings, clock: any Clock = SystemClock()) {
        self.settings = settings
        self.clock = clock
    }

    /// Starts a transfer; its owner hears of it on the loop's thread.
    package func start(_ transfer: Transfer) {
        let multi = inbox.withLock { inbox -> Result<CurlMulti, FetchError> in
            guard !inbox.stopping else { return .failure(.cancelled) }
            if inbox.multi == nil {
                guard let multi = CurlMulti(connectionsPerHost: settings.connectionsPerHost) else {
                    return .failure(.unusable(Curl.missing))
                }
                inbox.multi = multi
                inbox.thread = JoinableThread { [self] in run(multi) }
            }
            inbox.starts.append(transfer)
            return .success(inbox.multi!)
        }
        switch multi {
        case .success(let multi): multi.wakeUp()
        case .failure(let error): end(transfer, .failure(error))
        }
    }

    /// Cuts `transfer` short (any thread).
    func cancel(_ transfer: Transfer) {
        transfer.cancel()
        let multi = inbox.withLock { inbox -> CurlMulti? in
            inbox.cancels = true
            return inbox.multi
        }
        multi?.wakeUp()
    }

    /// Stops every transfer and the thread; later starts fail at once.
    package func shutdown() {
        let (multi, thread) = inbox.withLock { inbox -> (CurlMulti?, JoinableThread?) in
            inbox.stopping = true
            return (inbox.multi, inbox.thread)
        }
        multi?.wakeUp()
        thread?.join()
    }

    /// Bytes received by every transfer so far.
    package var bytesReceived: Int { received.withLock { $0 } }

    // MARK: - The loop's thread

    private func run(_ multi: CurlMulti) {
        while true {
            let (starts, cancels, stopping) = inbox.withLock { inbox -> ([Transfer], Bool, Bool) in
                defer { inbox.starts = []; inbox.cancels = false }
                return (inbox.starts, inbox.cancels, inbox.stopping)
            }
            if stopping {
                for transfer in running.values { multi.remove(transfer.easy!); end(transfer, .failure(.cancelled)) }
                for (_, transfer) in retrying { end(transfer, .failure(.cancelled)) }
                for transfer in starts { end(transfer, .failure(.cancelled)) }
                running = [:]
                retrying = []
                return
            }
            for transfer in starts { attach(transfer, to: multi) }
            if cancels { dropCancelled(multi) }
            let now = clock.now()
            let due = retrying.filter { $0.due <= now }.map(\.transfer)
            retrying.removeAll { $0.due <= now }
            for transfer in due { attach(transfer, to: multi) }
            multi.perform()
            for (handle, failure) in multi.finished() {
                guard let transfer = running.removeValue(forKey: handle), let easy = transfer.easy else { continue }
                received.withLock { $0 += easy.bytesReceived }
                multi.remove(easy)
                finish(transfer, failure)
            }
            let nextRetry = retrying.map(\.due).min().map { max(0, $0 - clock.now()) } ?? 1000
            multi.poll(milliseconds: min(1000, nextRetry))
        }
    }

    private func dropCancelled(_ multi: CurlMulti) {
        for (handle, transfer) in running where transfer.cancelled.withLock({ $0 }) {
            running[handle] = nil
            multi.remove(transfer.easy!)
            end(transfer, .failure(.cancelled))
        }
        let gone = retrying.filter { $0.transfer.cancelled.withLock { $0 } }
        retrying.removeAll { $0.transfer.cancelled.withLock { $0 } }
        for (_, transfer) in gone { end(transfer, .failure(.cancelled)) }
    }

    private func attach(_ transfer: Transfer, to multi: CurlMulti) {
        if transfer.cancelled.withLock({ $0 }) { return end(transfer, .failure(.cancelled)) }
        transfer.reset()
        guard let easy = CurlEasy(receiver: transfer) else { return end(transfer, .failure(.interrupted("libcurl has no memory"))) }
        configure(easy, for: transfer)
        transfer.easy = easy
        running[easy.handle] = transfer
        multi.add(easy)
    }

    private func configure(_ easy: CurlEasy, for transfer: Transfer) {
        let request = transfer.request, url = transfer.url
        easy.set(url: url.description)
        easy.set(userAgent: "photogrid")
        easy.set(protocols: url.scheme == .sftp ? "sftp" : "http,https")
        // Redirects are followed here (`follow`), not by libcurl: a loop is refused when it
        // closes, and a login goes only to the server it was given for.
        easy.setNoRedirects()
        // Transfers that start together wait for the first connection to a server, so that
        // over HTTP/2 they all share it instead of each opening its own.
        easy.set(waitsForMultiplexing: url.scheme == .https)
        easy.set(reuseConnectionsFor: 60)
        easy.set(connectTimeout: settings.connectTimeout, stallTimeout: settings.stallTimeout)
        if let range = request.range { easy.set(range: range) }
        if request.range == nil { easy.set(maxFileSize: request.limit) }
        // A bucket's requests are signed (for where they are asked now: a redirect elsewhere
        // is not), and carry no other login.
        var headers = request.headers
        let signer = url.origin == request.url.origin ? settings.buckets.signer(for: url.origin) : nil
        if let signer {
            var payload = BucketSigner.emptyPayload
            if case .put = transfer.method { payload = BucketSigner.unsignedPayload }
            if case .post(let body, _) = transfer.method { payload = Digest.hex(Digest.sha256(body)) }
            let seconds = SystemClock().wallNanoseconds() / 1_000_000_000
            headers += signer.headers(method: transfer.method.name, url: url, payloadHash: payload, seconds: seconds)
        }
        switch transfer.method {
        case .get, .head, .delete:
            if transfer.method == .head { easy.set(headOnly: true) }
            if transfer.method == .delete { easy.set(customMethod: "DELETE") }
            easy.set(headers: headers)
        case .post(let body, let type):
            easy.set(headers: headers + ["Content-Type: \(type)", "Expect:"])
            easy.set(body: body)
        case .put(let body, let type):
            easy.set(customMethod: "PUT")
            easy.set(headers: headers + ["Content-Type: \(type)", "Expect:"])
            easy.set(body: body)
        case .propfind(let body):
            easy.set(customMethod: "PROPFIND")
            easy.set(headers: headers + ["Depth: 1", "Content-Type: application/xml; charset=utf-8", "Expect:"])
            easy.set(body: body)
        }
        if let file = settings.trustedCertificates { easy.set(trusting: file) }
        if signer != nil {
            // Neither --user nor ~/.netrc: the signature is the login.
        } else if let login = settings.login, url.origin == request.url.origin, login.origin.map({ $0 == url.origin }) ?? true {
            easy.set(user: login.user, password: login.password)
        } else {
            easy.set(netrc: settings.netrcFile)
        }
        if url.scheme == .sftp {
            easy.set(sshAuth: settings.login?.password != nil)
            if let key = settings.sshKey { easy.set(sshKey: key) }
            easy.set(knownHosts: settings.knownHosts ?? "/dev/null")
        } else {
            let digest = transfer.usesDigest || digestOrigins.contains(url.origin)
            transfer.usesDigest = digest
            easy.set(auth: (basic: !digest, digest: digest))
        }
    }

    /// An attempt ended: tried again if it may pass, else its owner hears how it went.
    private func finish(_ transfer: Transfer, _ failure: CurlFailure?) {
        if transfer.cancelled.withLock({ $0 }) { return end(transfer, .failure(.cancelled)) }
        let outcome = transfer.outcome(failure)
        if case .success(let (head, _)) = outcome, head.status == 401, !transfer.usesDigest,
           let offered = transfer.easy?.offeredAuth, offered.digest && !offered.basic {
            // Digest only: asked again with it, and so from now on at this server.
            digestOrigins.insert(transfer.url.origin)
            transfer.usesDigest = true
            return retrying.append((clock.now(), transfer))
        }
        if case .success(let (head, _)) = outcome, let location = transfer.redirectTarget(head) {
            switch follow(transfer, to: location) {
            case .success: return retrying.append((clock.now(), transfer))
            case .failure(let refused): return end(transfer, .failure(refused))
            }
        }
        if case .success = outcome { answeredOrigins.insert(transfer.url.origin) }
        let answeredBefore = answeredOrigins.contains(transfer.url.origin)
        if transfer.attempt < transfer.request.retries, case .collect = transfer.delivery,
           TransferLoop.mayPass(outcome, serverAnsweredBefore: answeredBefore) {
            transfer.attempt += 1
            return retrying.append((clock.now() + TransferLoop.pause(transfer.attempt), transfer))
        }
        end(transfer, outcome)
    }

    /// Points `transfer` where a redirect sends it, or says why not: only to http and https (an
    /// sftp transfer follows none), never twice to the same URL, at most `maxRedirects` times.
    /// A 303, and a 301 or 302 answering a POST, are asked with GET, as browsers do.
    private func follow(_ transfer: Transfer, to location: String) -> Result<Void, FetchError> {
        let from = transfer.url
        guard from.scheme.isWeb, let next = from.resolving(location), next.scheme.isWeb else {
            return .failure(.badRedirect("\(from) redirects to a scheme photogrid does not follow"))
        }
        guard next != transfer.request.url && !transfer.redirects.contains(next) else {
            return .failure(.badRedirect("a redirect loop at \(next)"))
        }
        guard transfer.redirects.count < settings.maxRedirects else {
            return .failure(.badRedirect("too many redirects from \(transfer.request.url)"))
        }
        transfer.redirects.append(next)
        transfer.url = next
        let status = transfer.makeHead()?.status ?? 0
        if case .post = transfer.method, status != 307 && status != 308 { transfer.method = .get }
        if status == 303, transfer.method != .head { transfer.method = .get }
        transfer.attempt = 0
        return .success(())
    }

    /// A failure worth another try: a connection that broke once made, a server that said it is
    /// busy, a connection to a server that has answered before. Never a first connection that
    /// fails, so that a wrong URL fails at once.
    static func mayPass(_ outcome: Result<(ResponseHead, [UInt8]), FetchError>, serverAnsweredBefore: Bool = false) -> Bool {
        switch outcome {
        case .success(let (head, _)): return [429, 502, 503, 504].contains(head.status)
        case .failure(.interrupted): return true
        case .failure(.unreachable): return serverAnsweredBefore
        case .failure: return false
        }
    }

    /// 200 ms, then 600 ms, 1.8 s...
    static func pause(_ attempt: Int) -> Int {
        var delay = 200
        for _ in 1..<max(1, attempt) { delay *= 3 }
        return delay
    }

    private func end(_ transfer: Transfer, _ outcome: Result<(ResponseHead, [UInt8]), FetchError>) {
        switch transfer.delivery {
        case .collect(let then): then(outcome)
        case .stream(_, _, let end): end(outcome.map(\.0))
        }
    }
}
