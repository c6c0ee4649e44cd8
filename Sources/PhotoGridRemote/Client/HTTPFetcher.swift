import AsyncHTTPClient
import Dispatch
import NIOCore
import NIOHTTP1
import NIOSSL
import PhotoGridCore
import GalleryFormats

/// Downloads for the pipeline's threads, through AsyncHTTPClient: keep-alive connections, at most
/// a few per host, connect and request timeouts, retries with backoff for failures that may pass,
/// redirects followed only to http and https, bodies refused past a size, and the disk cache.
/// The same URL (and range) in flight is one request, however many threads ask for it. Calls
/// block the calling thread, which is never the event loop's.
package final class HTTPFetcher: Fetching, Sendable {
    package struct Configuration: Sendable {
        package var connections = 6
        package var connectTimeout: Int64 = 5            // seconds
        package var requestTimeout: Int64 = 30           // seconds, for a whole response
        /// More tries after the first, for failures that may pass (a reset, a 503).
        package var retries = 2
        package var maxRedirects = 5
        /// A PEM file of certificates trusted besides the system's (`--ca-cert`).
        package var trustedCertificates: String?
        package init() {}
    }

    /// Made on the first request: a visit whose first screen comes from the disk cache does
    /// not wait for AsyncHTTPClient and its event loop threads to start (a few milliseconds of
    /// a second visit's 20).
    private let made = Locked<HTTPClient?>(nil)
    var client: HTTPClient {
        made.withLock { made in
            if let made { return made }
            let client = HTTPClient(eventLoopGroupProvider: .singleton, configuration: HTTPFetcher.clientSettings(configuration))
            made = client
            return client
        }
    }
    let configuration: Configuration
    package let cache: HTTPCache?
    let flights = SharedJobs<FlightKey, Flight>()
    /// Cached responses the server confirmed (or sent) during this run: used again without
    /// asking, as a browser does with the images of the page it shows. Without it, a gallery
    /// whose server says nothing of freshness (nginx, python) would cost a round trip each
    /// time a tile of another size wants the same photo.
    let confirmed = Locked<Set<FlightKey>>([])
    /// Responses used stale, being revalidated in the background; and all of those, to wait for.
    private let revalidating = Locked<Set<FlightKey>>([])
    private let background = DispatchGroup()
    /// Revalidations waiting for the first screen (`holdRevalidations`); nil when none waits.
    private let heldRevalidations = Locked<[@Sendable () -> Void]?>(nil)
    /// Told of a URL whose background revalidation brought a different body (the gallery's
    /// manifest changed on the server), on the revalidation's thread.
    package let onChange = Locked<(@Sendable (RemoteURL) -> Void)?>(nil)

    struct FlightKey: Hashable { let url: RemoteURL; let range: Range<Int>? }

    /// What a batch brought before anyone asked for it: a body, or why there is none
    /// (`HTTPFetcher+Batch`).
    let delivered = Locked(Delivered())

    /// One request and everyone waiting for it.
    final class Flight: Sendable {
        /// How a flight ends: with its result, or released by a batch that could not bring it,
        /// so that its waiters ask for it themselves.
        enum Outcome: Sendable {
            case done(Result<FetchResult, FetchError>)
            case released
        }
        let state = Locked<(outcome: Outcome?, waiters: Int)>((nil, 0))
        let done = DispatchSemaphore(value: 0)
    }

    package init(configuration: Configuration = Configuration(), cache: HTTPCache?) {
        self.configuration = configuration
        self.cache = cache
    }

    /// AsyncHTTPClient's settings for ours (0.15 ms to make: made with the client).
    private static func clientSettings(_ configuration: Configuration) -> HTTPClient.Configuration {
        var config = HTTPClient.Configuration(
            redirectConfiguration: .disallow,
            timeout: .init(connect: .seconds(configuration.connectTimeout), read: .seconds(configuration.requestTimeout)),
            connectionPool: .init(idleTimeout: .seconds(60), concurrentHTTP1ConnectionsPerHostSoftLimit: max(1, configuration.connections)),
            decompression: .disabled)
        if let path = configuration.trustedCertificates {
            var tls = TLSConfiguration.makeClientConfiguration()
            tls.additionalTrustRoots = [.file(path)]
            config.tlsConfiguration = tls
        }
        // AsyncHTTPClient would keep trying to connect, with backoff, until the connect timeout:
        // a server that is not running would take the whole timeout to report. A refused
        // connection fails at once instead; a tile that failed is tried again when it comes
        // back on screen, and a start-up says so straight away.
        config.connectionPool.retryConnectionEstablishment = false
        return config
    }


    package func shutdown() { try? made.withLock { $0 }?.syncShutdown() }

    /// The body of `url` (or `range` of it), at most `limit` bytes.
    package func get(_ url: RemoteURL, range: Range<Int>?, limit: Int) throws(FetchError) -> FetchResult {
        let key = FlightKey(url: url, range: range)
        while true {
            if let delivered = take(key) { return try delivered.get() }
            let (flight, leads) = flights.join(key) { Flight() }
            if leads {
                let result = Result { () throws(FetchError) -> FetchResult in try fetch(url, range: range, limit: limit) }
                complete(key, flight, .done(result))
                return try result.get()
            }
            let finished = flight.state.withLock { state -> Flight.Outcome? in
                if state.outcome == nil { state.waiters += 1 }
                return state.outcome
            }
            if finished == nil { flight.done.wait() }
            switch flight.state.withLock({ $0.outcome! }) {
            case .done(let result): return try result.get()
            case .released: continue                 // the batch could not bring it: asked for alone
            }
        }
    }

    /// Revalidates a response used stale, once at a time per URL, on a thread of its own: the
    /// cache is brought up to date for next time, and `onChange` hears of a body that changed.
    private func revalidateInBackground(_ url: RemoteURL, range: Range<Int>?, limit: Int, body old: [UInt8]) {
        let key = FlightKey(url: url, range: range)
        guard revalidating.withLock({ $0.insert(key).inserted }) else { return }
        background.enter()
        let work: @Sendable () -> Void = {
            defer {
                self.revalidating.withLock { _ = $0.remove(key) }
                self.background.leave()
            }
            guard let fresh = try? self.fetch(url, range: range, limit: limit, revalidate: true), fresh.body != old else { return }
            self.onChange.withLock { $0 }?(url)
        }
        let now = heldRevalidations.withLock { held -> Bool in
            guard held != nil else { return true }
            held!.append(work)
            return false
        }
        if now { DispatchQueue.global().async(execute: work) }
    }

    /// Revalidations wait until `releaseRevalidations` (at most `seconds`): a second visit's first
    /// screen is drawn from the disk with both cores, and the check of the manifest it was drawn
    /// from (starting the HTTP client, a request) comes after it.
    package func holdRevalidations(upTo seconds: Double) {
        heldRevalidations.withLock { if $0 == nil { $0 = [] } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.releaseRevalidations() }
    }

    /// Starts the revalidations held back, and any from now on at once.
    package func releaseRevalidations() {
        let held = heldRevalidations.withLock { held -> [@Sendable () -> Void] in
            defer { held = nil }
            return held ?? []
        }
        for work in held { DispatchQueue.global().async(execute: work) }
    }

    /// Waits (at most `seconds`) for the revalidations under way: before the process ends, so
    /// that the cache holds what they brought.
    package func waitForRevalidations(seconds: Int) {
        _ = background.wait(timeout: .now() + .seconds(seconds))
    }

    /// `url` asked of the server again whatever the cache holds (a gallery read again, Ctrl-R).
    package func reload(_ url: RemoteURL, limit: Int) throws(FetchError) -> FetchResult {
        try fetch(url, range: nil, limit: limit, revalidate: true)
    }

    /// Ends a flight: later askers start a new one, its waiters wake to its outcome. Returns
    /// how many were waiting.
    @discardableResult
    func complete(_ key: FlightKey, _ flight: Flight, _ outcome: Flight.Outcome) -> Int {
        flights.finish(key)
        let waiters = flight.state.withLock { state -> Int in
            state.outcome = outcome
            return state.waiters
        }
        for _ in 0..<waiters { flight.done.signal() }
        return waiters
    }

    /// The disk cache first; the network when it has nothing fresh, with a conditional request
    /// when it has something to revalidate. What the server let be used stale while it is
    /// revalidated (`stale-while-revalidate`) is used at once and revalidated in the background.
    /// `revalidate`: asked of the server whatever the cache holds (conditionally when it can).
    private func fetch(_ url: RemoteURL, range: Range<Int>?, limit: Int, revalidate: Bool = false) throws(FetchError) -> FetchResult {
        let key = FlightKey(url: url, range: range)
        let cached = cache?.entry(for: url, range: range)
        if !revalidate, let cached, isUsable(cached, key) { return cached.result(url: url) }
        if !revalidate, let cached, cached.mayServeStale(now: HTTPCache.now()) {
            revalidateInBackground(url, range: range, limit: limit, body: cached.body)
            return cached.result(url: url)
        }
        var headers = HTTPHeaders()
        headers.add(name: "User-Agent", value: "photogrid")
        if let range { headers.add(name: "Range", value: "bytes=\(range.lowerBound)-\(range.upperBound - 1)") }
        if let cached, cached.canRevalidate {
            if let etag = cached.etag { headers.add(name: "If-None-Match", value: etag) }
            if let date = cached.lastModified { headers.add(name: "If-Modified-Since", value: date) }
        }
        let (response, finalURL) = try following(url, headers: headers, limit: limit)
        if response.status == .notModified, var cached {
            cached.storedAt = HTTPCache.now()
            if let freshness = HTTPCache.freshness(cacheControl: response.headers.first(name: "Cache-Control")) {
                cached.maxAge = freshness
                cached.staleWindow = HTTPCache.staleWindow(cacheControl: response.headers.first(name: "Cache-Control"))
            }
            cache?.store(cached, for: url, range: range)
            confirmed.withLock { _ = $0.insert(key) }
            return cached.result(url: finalURL)
        }
        let code = Int(response.status.code)
        guard code == 200 || code == 206 else {
            if let why = FetchError.serverReason(response.headers.first(name: FetchError.reasonHeader)) { throw .photoUnusable(why) }
            throw .status(code, finalURL.description)
        }
        // photogrid sends no Accept-Encoding, so a compressed body is a server's mistake or a
        // bomb; decompression is off in the client, and the body is refused rather than misread.
        if let encoding = response.headers.first(name: "Content-Encoding")?.lowercased(), encoding != "identity" {
            throw .encoded(encoding)
        }
        let body = response.body.map { Array($0.readableBytesView) } ?? []
        let contentType = response.headers.first(name: "Content-Type")
        remember(key, status: code, body: body) { response.headers.first(name: $0) }
        return FetchResult(status: code, body: body, contentType: contentType, url: finalURL)
    }

    /// Keeps a response in the disk cache when its `Cache-Control` allows, as fresh as it says.
    func remember(_ key: FlightKey, status: Int, body: [UInt8], header: (String) -> String?) {
        guard let freshness = HTTPCache.freshness(cacheControl: header("Cache-Control")) else { return }
        cache?.store(HTTPCache.Entry(status: status, storedAt: HTTPCache.now(), maxAge: freshness,
                                     staleWindow: HTTPCache.staleWindow(cacheControl: header("Cache-Control")), etag: header("ETag"),
                                     lastModified: header("Last-Modified"), contentType: header("Content-Type"), body: body),
                     for: key.url, range: key.range)
        confirmed.withLock { _ = $0.insert(key) }
    }

    package func validator(of url: RemoteURL) -> [UInt8]? {
        guard let head = usableHead(FlightKey(url: url, range: nil)), head.status == 200 else { return nil }
        if let etag = head.etag { return Array(("etag " + etag).utf8) }
        if let date = head.lastModified { return Array(("date " + date).utf8) }
        return Array("hash \(HTTPCache.bodyHash(ofHead: head))".utf8)
    }

    /// Whether a cached response may be used without asking: fresh, or confirmed by the server
    /// this run.
    func isUsable(_ entry: HTTPCache.Entry, _ key: FlightKey) -> Bool {
        entry.isFresh(now: HTTPCache.now()) || confirmed.withLock { $0.contains(key) }
    }

    /// The head of the cached response for `key` (`HTTPCache.head`), if it may be used without
    /// asking.
    func usableHead(_ key: FlightKey) -> HTTPCache.Entry? {
        guard let head = cache?.head(for: key.url, range: key.range), isUsable(head, key) else { return nil }
        return head
    }

    /// Sends the request, following redirects to http and https only, at most `maxRedirects`
    /// of them and never round a loop.
    private func following(_ url: RemoteURL, headers: HTTPHeaders, limit: Int) throws(FetchError) -> (HTTPClient.Response, RemoteURL) {
        var current = url
        var seen: Set<RemoteURL> = [url]
        for _ in 0...configuration.maxRedirects {
            let response = try withRetries(current, headers: headers, limit: limit)
            guard (300..<400).contains(Int(response.status.code)), response.status != .notModified else { return (response, current) }
            guard let location = response.headers.first(name: "Location") else { return (response, current) }
            guard let next = current.resolving(location) else { throw .badRedirect("\(current) redirects to \(location)") }
            guard seen.insert(next).inserted else { throw .badRedirect("a redirect loop at \(next)") }
            current = next
        }
        throw .badRedirect("more than \(configuration.maxRedirects) redirects from \(url)")
    }

    /// One request, tried again after a pause when it fails in a way that may pass; never when
    /// the connection could not be made at all, so that a wrong URL fails within the connect
    /// timeout.
    private func withRetries(_ url: RemoteURL, headers: HTTPHeaders, limit: Int) throws(FetchError) -> HTTPClient.Response {
        var attempt = 0
        while true {
            do throws(FetchError) {
                let response = try send(url, headers: headers, limit: limit)
                let code = Int(response.status.code)
                if attempt < configuration.retries && (code == 502 || code == 503 || code == 504 || code == 429) {
                    attempt += 1
                    HTTPFetcher.pause(attempt)
                    continue
                }
                return response
            } catch {
                guard case .interrupted = error, attempt < configuration.retries else { throw error }
                attempt += 1
                HTTPFetcher.pause(attempt)
            }
        }
    }

    /// 200 ms, then 600 ms, 1.8 s...
    static func pause(_ attempt: Int) {
        var delay = 200
        for _ in 1..<attempt { delay *= 3 }
        SystemClock.sleep(milliseconds: delay)
    }

    private func send(_ url: RemoteURL, headers: HTTPHeaders, limit: Int) throws(FetchError) -> HTTPClient.Response {
        let request: HTTPClient.Request
        do { request = try HTTPClient.Request(url: url.description, method: .GET, headers: headers) } catch {
            throw .badURL(url.description)
        }
        let accumulator = ResponseAccumulator(request: request, maxBodySize: limit)
        let task = client.execute(request: request, delegate: accumulator,
                                  deadline: .now() + .seconds(configuration.connectTimeout + configuration.requestTimeout))
        do {
            return try task.futureResult.wait()
        } catch let error as ResponseAccumulator.ResponseTooBigError {
            _ = error
            throw .tooLarge(limit)
        } catch let error as HTTPClientError {
            if error == .connectTimeout { throw .unreachable("\(HTTPFetcher.place(url)): timed out connecting") }
            if error == .remoteConnectionClosed && url.scheme == "http" {
                // An HTTPS server closes a connection that opens in plain HTTP without a word.
                throw .interrupted("the server closed the connection without an answer (if it speaks HTTPS: https://)")
            }
            if error == .readTimeout || error == .deadlineExceeded || error == .remoteConnectionClosed {
                throw .interrupted("\(error)")
            }
            throw HTTPFetcher.classify(error, url: url)
        } catch {
            throw HTTPFetcher.classify(error, url: url)
        }
    }

    /// A library's error text for a message: its first line, without the source path some
    /// append (" at /path/to/file.cc:127"), at most 120 characters.
    static func gist(of text: String) -> String {
        var line = Array((text.split(separator: "\n").first ?? "").utf8)
        let marker = Array(" at /".utf8)
        if let at = line.indices.first(where: { line[$0...].starts(with: marker) }) { line = Array(line[..<at]) }
        return String(String(decoding: line, as: UTF8.self).prefix(120))
    }

    /// "host:port", for messages.
    static func place(_ url: RemoteURL) -> String { "\(url.host):\(url.effectivePort)" }

    /// Connection failures (refused, no such host, no route) make `unreachable`; the rest, a
    /// connection that broke once made, `interrupted`.
    static func classify(_ error: Error, url: RemoteURL) -> FetchError {
        let text = "\(error)"
        let lowered = text.lowercased()
        // TLS: said in plain words, never the TLS library's codes and the paths it was built at.
        if lowered.contains("ssl") || lowered.contains("tls") || lowered.contains("handshake") {
            if lowered.contains("wrong_version_number") || lowered.contains("http_request") {
                return .secureConnection("\(place(url)) does not speak HTTPS (try http://)")
            }
            if lowered.contains("certificate") || lowered.contains("verify") {
                return .secureConnection("\(place(url)) has a certificate this machine does not trust, or one for another name "
                                         + "(--ca-cert FILE trusts a server's own)")
            }
            return .secureConnection("\(place(url)): the secure connection failed")
        }
        let connecting = ["connection refused", "connectionrefused", "connecttimeout", "could not resolve", "resolve",
                          "name or service not known", "no address", "network is unreachable", "no route to host",
                          "host is unreachable"]
        guard connecting.contains(where: { lowered.contains($0) }) else { return .interrupted(gist(of: text)) }
        // NIO's descriptions are long; the user needs the gist.
        let gist = lowered.contains("refused") ? "connection refused"
            : lowered.contains("resolve") || lowered.contains("not known") || lowered.contains("no address") ? "unknown host"
            : lowered.contains("timeout") ? "timed out" : "no route to the host"
        return .unreachable("\(place(url)): \(gist)")
    }
}

/// Where the pipeline's remote decoder gets bytes. The seam where tests put a fake server-less source.
package protocol Fetching: Sendable {
    func get(_ url: RemoteURL, range: Range<Int>?, limit: Int) throws(FetchError) -> FetchResult
    /// What identifies the body of `url` kept in the cache, usable without asking (its ETag,
    /// else its Last-Modified, else a hash of its bytes); nil when none is kept or usable.
    func validator(of url: RemoteURL) -> [UInt8]?
    /// `url` asked of the server again whatever the cache holds.
    func reload(_ url: RemoteURL, limit: Int) throws(FetchError) -> FetchResult
}

extension Fetching {
    package func validator(of url: RemoteURL) -> [UInt8]? { nil }
    package func reload(_ url: RemoteURL, limit: Int) throws(FetchError) -> FetchResult { try get(url, range: nil, limit: limit) }
}
