import Dispatch
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// Bodies of remote files for everyone who asks, through the disk cache and the `TransferLoop`:
/// the same URL (and range) asked for while a request for it is under way is that one request,
/// however many ask; a batch (`BatchFetcher`) may lead a URL's request ahead of its askers.
/// Nothing here waits: what is at hand (the cache, a batch's delivery) is returned at once,
/// anything else is handed to the asker's `then` when it comes, on the loop's thread.
package final class Fetcher: Fetching, Sendable {
    let loop: TransferLoop
    package let cache: HTTPCache?
    let flights = SharedJobs<FlightKey, Flight>()
    /// Cached responses the server confirmed (or sent) during this run: used again without
    /// asking, as a browser does with the images of the page it shows. Without it, a gallery
    /// whose server says nothing of freshness (nginx, python) would cost a round trip each
    /// time a tile of another size wants the same photo.
    let confirmed = Locked<Set<FlightKey>>([])
    /// Responses used stale, being revalidated in the background.
    private let revalidating = Locked<Set<FlightKey>>([])
    private let background = DispatchGroup()
    /// Revalidations waiting for the first screen (`holdRevalidations`); nil when none waits.
    private let heldRevalidations = Locked<[@Sendable () -> Void]?>(nil)
    /// Told of a URL whose background revalidation brought a different body (the gallery's
    /// manifest changed on the server), on the loop's thread.
    package let onChange = Locked<(@Sendable (RemoteURL) -> Void)?>(nil)
    /// What a batch brought before anyone asked for it (`Fetcher+Batch`).
    let delivered = Locked(Delivered())
    let retries: Int

    struct FlightKey: Hashable, Sendable { let url: RemoteURL; let range: Range<Int>? }

    /// One request and everyone waiting for it.
    final class Flight: Sendable {
        /// How a flight ends: with its result, or released by a batch that could not bring it,
        /// so that its waiters ask for it themselves.
        enum Outcome: Sendable {
            case done(Result<FetchResult, FetchError>)
            case released
        }
        struct Waiter: Sendable {
            let limit: Int
            let then: FetchCompletion
        }
        struct State: Sendable {
            var waiters: [Int: Waiter] = [:]
            var nextWaiter = 0
            var transfer: Transfer?
            var ended = false
        }
        let state = Locked(State())
    }

    package init(loop: TransferLoop, cache: HTTPCache?) {
        self.loop = loop
        self.cache = cache
        retries = loop.settings.retries
    }

    package func shutdown() { loop.shutdown() }

    /// The body of `url` (or `range` of it), at most `limit` bytes.
    package func get(_ url: RemoteURL, range: Range<Int>?, limit: Int, then: @escaping FetchCompletion) -> FetchStart {
        let key = FlightKey(url: url, range: range)
        if let delivered = take(key) { return .done(delivered) }
        if let cached = cache?.entry(for: url, range: range) {
            if isUsable(cached, key) { return .done(.success(cached.result(url: url))) }
            if cached.mayServeStale(now: Int64(loop.clock.wallSeconds())) {
                revalidateInBackground(url, range: range, limit: limit, body: cached.body)
                return .done(.success(cached.result(url: url)))
            }
        }
        let (flight, leads) = flights.join(key) { Flight() }
        let ticket = wait(on: flight, key: key, limit: limit, then: then)
        if leads { request(key, flight, limit: limit) }
        return .pending(ticket)
    }

    /// `url`'s body as last seen, when the cache holds it: handed over at once however old, and
    /// checked with the server in the background (`onChange` hears when it changed), as a
    /// manifest is. A tree's listings come up at once on a second visit. Else as `get`.
    package func getLastSeen(_ url: RemoteURL, limit: Int, then: @escaping FetchCompletion) -> FetchStart {
        let key = FlightKey(url: url, range: nil)
        guard let cached = cache?.entry(for: url, range: nil), cached.status == 200 else {
            return get(url, range: nil, limit: limit, then: then)
        }
        if !isUsable(cached, key) { revalidateInBackground(url, range: nil, limit: limit, body: cached.body) }
        return .done(.success(cached.result(url: url)))
    }

    /// `url` asked of the server again whatever the cache holds (a gallery read again, Ctrl-R).
    package func reload(_ url: RemoteURL, limit: Int, then: @escaping FetchCompletion) {
        send(FlightKey(url: url, range: nil), limit: limit, revalidate: true, then: then)
    }

    /// A WebDAV folder's members (`PROPFIND` with `Depth: 1`), asked of the server each time:
    /// the multistatus is not kept (a GET of the same URL may be kept, and means something else).
    package func propfind(_ url: RemoteURL, limit: Int, then: @escaping FetchCompletion) {
        var request = TransferRequest(url: url, limit: limit)
        request.method = .propfind(body: DirectoryListing.propfindBody)
        request.retries = retries
        loop.start(Transfer(request, .collect { outcome in
            then(outcome.flatMap { head, body in
                guard head.status == 207 || head.status == 200 else { return .failure(FetchError.refusal(head, body: body)) }
                return .success(FetchResult(status: head.status, body: body, contentType: head.header("Content-Type"), url: head.url))
            })
        }))
    }

    /// Joins `flight` as a waiter; the ticket lets the waiter go.
    func wait(on flight: Flight, key: FlightKey, limit: Int, then: @escaping FetchCompletion) -> FetchTicket {
        let id = flight.state.withLock { state -> Int in
            defer { state.nextWaiter += 1 }
            state.waiters[state.nextWaiter] = Flight.Waiter(limit: limit, then: then)
            return state.nextWaiter
        }
        return FetchTicket { [self] in
            // The last waiter gone from a request no batch leads: the request is cut.
            let transfer = flight.state.withLock { state -> Transfer? in
                guard state.waiters.removeValue(forKey: id) != nil, state.waiters.isEmpty, !state.ended else { return nil }
                return state.transfer
            }
            if let transfer {
                loop.cancel(transfer)
            }
        }
    }

    /// Leads a flight's request: the disk cache first (revalidated when it can be), else the server.
    private func request(_ key: FlightKey, _ flight: Flight, limit: Int) {
        let transfer = send(key, limit: limit, revalidate: false) { [self] result in
            complete(key, flight, .done(result))
        }
        flight.state.withLock { $0.transfer = transfer }
    }

    /// Ends a flight: later askers start a new one, its waiters hear its outcome (or, released,
    /// ask again). Returns how many were waiting.
    @discardableResult
    func complete(_ key: FlightKey, _ flight: Flight, _ outcome: Flight.Outcome) -> Int {
        flights.finish(key)
        let waiters = flight.state.withLock { state -> [Flight.Waiter] in
            state.ended = true
            state.transfer = nil
            defer { state.waiters = [:] }
            return state.waiters.sorted { $0.key < $1.key }.map(\.value)
        }
        for waiter in waiters {
            switch outcome {
            case .done(let result): waiter.then(result)
            case .released:
                // The batch could not bring it: asked for alone.
                if case .done(let result) = get(key.url, range: key.range, limit: waiter.limit, then: waiter.then) { waiter.then(result) }
            }
        }
        return waiters.count
    }

    /// Asks the server, conditionally when the cache holds something to revalidate; the answer
    /// goes to the cache as its `Cache-Control` allows, then to `then`.
    @discardableResult
    private func send(_ key: FlightKey, limit: Int, revalidate: Bool, then: @escaping FetchCompletion) -> Transfer {
        let cached = cache?.entry(for: key.url, range: key.range)
        var request = TransferRequest(url: key.url, limit: limit)
        request.range = key.range
        request.retries = retries
        if let cached, cached.canRevalidate {
            if let etag = cached.etag { request.headers.append("If-None-Match: \(etag)") }
            if let date = cached.lastModified { request.headers.append("If-Modified-Since: \(date)") }
        }
        let transfer = Transfer(request, .collect { [self] outcome in
            then(answer(outcome, key: key, cached: cached))
        })
        loop.start(transfer)
        return transfer
    }

    /// What a response means: the cached body confirmed, a new body, or a failure in words.
    private func answer(_ outcome: Result<(ResponseHead, [UInt8]), FetchError>, key: FlightKey,
                        cached: HTTPCache.Entry?) -> Result<FetchResult, FetchError> {
        let head: ResponseHead, body: [UInt8]
        switch outcome {
        case .failure(let error): return .failure(error)
        case .success(let response): (head, body) = response
        }
        if head.status == 304, var cached {
            cached.storedAt = Int64(loop.clock.wallSeconds())
            if let freshness = HTTPCache.freshness(cacheControl: head.header("Cache-Control")) {
                cached.maxAge = freshness
                cached.staleWindow = HTTPCache.staleWindow(cacheControl: head.header("Cache-Control"))
            }
            cache?.store(cached, for: key.url, range: key.range)
            confirmed.withLock { _ = $0.insert(key) }
            return .success(cached.result(url: head.url))
        }
        guard head.status == 200 || head.status == 206 else { return .failure(FetchError.refusal(head, body: body)) }
        remember(key, status: head.status, body: body) { head.header($0) }
        return .success(FetchResult(status: head.status, body: body, contentType: head.header("Content-Type"), url: head.url))
    }

    /// Keeps a response in the disk cache when its `Cache-Control` allows, as fresh as it says.
    func remember(_ key: FlightKey, status: Int, body: [UInt8], header: (String) -> String?) {
        guard let freshness = HTTPCache.freshness(cacheControl: header("Cache-Control")) else { return }
        cache?.store(HTTPCache.Entry(status: status, storedAt: Int64(loop.clock.wallSeconds()), maxAge: freshness,
                                     staleWindow: HTTPCache.staleWindow(cacheControl: header("Cache-Control")), etag: header("ETag"),
                                     lastModified: header("Last-Modified"), contentType: header("Content-Type"), body: body),
                     for: key.url, range: key.range)
        confirmed.withLock { _ = $0.insert(key) }
    }

    // MARK: - Revalidation in the background

    /// Revalidates a response used stale, once at a time per URL: the cache is brought up to
    /// date for next time, and `onChange` hears of a body that changed.
    private func revalidateInBackground(_ url: RemoteURL, range: Range<Int>?, limit: Int, body old: [UInt8]) {
        let key = FlightKey(url: url, range: range)
        guard revalidating.withLock({ $0.insert(key).inserted }) else { return }
        background.enter()
        let work: @Sendable () -> Void = { [self] in
            send(key, limit: limit, revalidate: true) { [self] result in
                defer {
                    revalidating.withLock { _ = $0.remove(key) }
                    background.leave()
                }
                guard let fresh = try? result.get(), fresh.body != old else { return }
                onChange.withLock { $0 }?(url)
            }
        }
        let now = heldRevalidations.withLock { held -> Bool in
            guard held != nil else { return true }
            held!.append(work)
            return false
        }
        if now { work() }
    }

    /// Revalidations wait until `releaseRevalidations` (at most `seconds`): a second visit's first
    /// screen is drawn from the disk with both cores, and the check of the manifest it was drawn
    /// from (starting the transfer loop, a request) comes after it.
    package func holdRevalidations(upTo seconds: Double) {
        heldRevalidations.withLock { if $0 == nil { $0 = [] } }
        DispatchQueue.global().asyncAfter(deadline: .now() + seconds) { self.releaseRevalidations() }
    }

    /// Revalidations waiting for the first screen.
    package var revalidationsHeld: Int { heldRevalidations.withLock { $0?.count ?? 0 } }

    /// Starts the revalidations held back, and any from now on at once.
    package func releaseRevalidations() {
        let held = heldRevalidations.withLock { held -> [@Sendable () -> Void] in
            defer { held = nil }
            return held ?? []
        }
        for work in held { work() }
    }

    /// Waits (at most `seconds`) for the revalidations under way: before the process ends, so
    /// that the cache holds what they brought.
    package func waitForRevalidations(seconds: Int) {
        _ = background.wait(timeout: .now() + .seconds(seconds))
    }

    // MARK: - What the cache holds

    package func validator(of url: RemoteURL) -> [UInt8]? {
        guard let head = usableHead(FlightKey(url: url, range: nil)), head.status == 200 else { return nil }
        if let etag = head.etag { return Array(("etag " + etag).utf8) }
        if let date = head.lastModified { return Array(("date " + date).utf8) }
        return Array("hash \(HTTPCache.bodyHash(ofHead: head))".utf8)
    }

    /// Whether a cached response may be used without asking: fresh, or confirmed by the server
    /// this run.
    func isUsable(_ entry: HTTPCache.Entry, _ key: FlightKey) -> Bool {
        entry.isFresh(now: Int64(loop.clock.wallSeconds())) || confirmed.withLock { $0.contains(key) }
    }

    /// The head of the cached response for `key` (`HTTPCache.head`), if it may be used without
    /// asking.
    func usableHead(_ key: FlightKey) -> HTTPCache.Entry? {
        guard let head = cache?.head(for: key.url, range: key.range), isUsable(head, key) else { return nil }
        return head
    }
}

/// What an asker is handed: its answer.
package typealias FetchCompletion = @Sendable (Result<FetchResult, FetchError>) -> Void

/// How a `get` began: answered at once, or under way (its answer goes to `then`).
package enum FetchStart: Sendable {
    case done(Result<FetchResult, FetchError>)
    case pending(FetchTicket)
}

/// A waiter's hold on a request under way: `cancel` lets it go (its `then` may still be
/// called if the answer is already on its way), and the request too when no one else waits.
package typealias FetchTicket = Ticket

/// Where the remote loader, the crawl and the batches get bytes. The seam where tests put a
/// fake source without a server.
package protocol Fetching: Sendable {
    func get(_ url: RemoteURL, range: Range<Int>?, limit: Int, then: @escaping FetchCompletion) -> FetchStart
    /// What identifies the body of `url` kept in the cache, usable without asking (its ETag,
    /// else its Last-Modified, else a hash of its bytes); nil when none is kept or usable.
    func validator(of url: RemoteURL) -> [UInt8]?
    /// `url` asked of the server again whatever the cache holds.
    func reload(_ url: RemoteURL, limit: Int, then: @escaping FetchCompletion)
    /// `url` as last seen, checked in the background; else as `get`.
    func getLastSeen(_ url: RemoteURL, limit: Int, then: @escaping FetchCompletion) -> FetchStart
    /// A WebDAV folder's members.
    func propfind(_ url: RemoteURL, limit: Int, then: @escaping FetchCompletion)
}

extension Fetching {
    package func validator(of url: RemoteURL) -> [UInt8]? { nil }
    package func getLastSeen(_ url: RemoteURL, limit: Int, then: @escaping FetchCompletion) -> FetchStart {
        get(url, range: nil, limit: limit, then: then)
    }
    package func propfind(_ url: RemoteURL, limit: Int, then: @escaping FetchCompletion) {
        then(.failure(.status(405, url.description)))
    }
    package func reload(_ url: RemoteURL, limit: Int, then: @escaping FetchCompletion) {
        if case .done(let result) = get(url, range: nil, limit: limit, then: then) { then(result) }
    }

    /// `get`'s answer, however it comes: `then` is called exactly once, maybe before this returns.
    @discardableResult
    package func fetch(_ url: RemoteURL, range: Range<Int>? = nil, limit: Int, then: @escaping FetchCompletion) -> FetchTicket? {
        switch get(url, range: range, limit: limit, then: then) {
        case .done(let result):
            then(result)
            return nil
        case .pending(let ticket):
            return ticket
        }
    }

    /// Waits for the answer. For what cannot go on without it (a gallery's first document at
    /// start-up, `--print`) and tests; never on a pipeline thread, which only ever asks (`fetch`).
    package func waitFor(_ url: RemoteURL, range: Range<Int>? = nil, limit: Int) throws(FetchError) -> FetchResult {
        let answer = Pending<Result<FetchResult, FetchError>>()
        fetch(url, range: range, limit: limit) { answer.fulfil($0) }
        return try answer.wait().get()
    }

    /// Waits for `reload`'s answer, as `waitFor`.
    package func waitForReload(_ url: RemoteURL, limit: Int) throws(FetchError) -> FetchResult {
        let answer = Pending<Result<FetchResult, FetchError>>()
        reload(url, limit: limit) { answer.fulfil($0) }
        return try answer.wait().get()
    }
}
