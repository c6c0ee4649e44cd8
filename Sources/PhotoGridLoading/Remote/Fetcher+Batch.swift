import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// What the fetcher lends a batch (`BatchFetcher`): flights it leads ahead of their askers, and a
/// place for bodies that come before anyone asks for them.
extension Fetcher {
    /// What a batch brought (a body, or why there is none), until asked for or pushed out by
    /// newer ones: at most `limit` bytes.
    struct Delivered: Sendable {
        static let limit = 32 << 20
        var bodies: [FlightKey: Result<FetchResult, FetchError>] = [:]
        var order: [FlightKey] = []
        var bytes = 0

        mutating func add(_ key: FlightKey, _ result: Result<FetchResult, FetchError>) {
            if let old = bodies.updateValue(result, forKey: key) { bytes -= Delivered.size(old) } else { order.append(key) }
            bytes += Delivered.size(result)
            while bytes > Delivered.limit, !order.isEmpty {
                let oldest = order.removeFirst()
                bytes -= bodies.removeValue(forKey: oldest).map(Delivered.size) ?? 0
            }
        }

        static func size(_ result: Result<FetchResult, FetchError>) -> Int { (try? result.get().body.count) ?? 0 }
    }

    /// What a batch delivered for `key`, taken: each is handed out once (a second tile of the
    /// same rendition finds it in the disk cache).
    func take(_ key: FlightKey) -> Result<FetchResult, FetchError>? {
        delivered.withLock { delivered in
            guard let result = delivered.bodies.removeValue(forKey: key) else { return nil }
            delivered.bytes -= Delivered.size(result)
            delivered.order.removeAll { $0 == key }
            return result
        }
    }

    /// Whether a request for `url` is under way.
    func isInFlight(_ url: RemoteURL) -> Bool { flights.isRunning(FlightKey(url: url, range: nil)) }

    /// Whether `url` needs no request: delivered already (a body, or why there is none), or
    /// usable from the disk cache, where its tile's download finds it.
    func isAtHand(_ url: RemoteURL) -> Bool {
        let key = FlightKey(url: url, range: nil)
        return delivered.withLock({ $0.bodies[key] != nil }) || usableHead(key) != nil
    }

    /// Sends a batch request (docs/remote-gallery.md, "Batches") of `body` to `endpoint`, its parts
    /// read as they stream in and handed to `onParts`, and its end to `ended`, on the loop's
    /// thread. `items`: how many the request asks for, at most.
    func sendBatch(to endpoint: RemoteURL, body: [UInt8], items: Int, onParts: @escaping @Sendable ([BatchReader.Part]) -> Void,
                   ended: @escaping @Sendable (Result<Void, BatchEnd>) -> Void) -> Transfer {
        var request = TransferRequest(url: endpoint, limit: .max)
        request.method = .post(body: body, type: "text/plain")
        request.followsRedirects = false
        let reader = Locked(BatchReader(items: items, maxPartBytes: RemoteLoader.imageLimit))
        let isBatch: @Sendable (ResponseHead) -> Bool = { head in
            head.status == 200 && (head.header("Content-Type")?.lowercased() ?? "").hasPrefix(Batch.contentType)
        }
        let transfer = Transfer(request, .stream(head: isBatch, body: { bytes in
            let (parts, failed) = reader.withLock { reader in (reader.feed(bytes), reader.failure != nil) }
            if !parts.isEmpty { onParts(parts) }
            return !failed
        }, end: { outcome in
            if let failure = reader.withLock({ $0.failure }) { return ended(.failure(.broken(failure))) }
            switch outcome {
            case .success(let head) where !isBatch(head): ended(.failure(.refused))
            case .success:
                if let error = reader.withLock({ $0.finish() }) { ended(.failure(.broken(error))) } else { ended(.success(())) }
            // Answered with something else than a batch (an old server's 404 or 405).
            case .failure(.status): ended(.failure(.refused))
            case .failure(let error): ended(.failure(.network(error)))
            }
        }))
        loop.start(transfer)
        return transfer
    }

    /// Whether the disk cache holds a response for `url`, fresh or not: a gallery seen before.
    func hasCached(_ url: RemoteURL) -> Bool { cache?.head(for: url, range: nil) != nil }

    /// Leads the flight of `url` for a batch; nil when a request for it is already under way.
    func claim(_ url: RemoteURL) -> Flight? {
        flights.start(FlightKey(url: url, range: nil)) { Flight() }
    }

    /// A batch's part for a flight it leads: kept in the disk cache as a response would be, and
    /// handed to whoever waits, or delivered for whoever asks next.
    func deliver(_ url: RemoteURL, _ flight: Flight, part: BatchReader.Part) {
        let key = FlightKey(url: url, range: nil)
        guard part.status == 200 else {
            let error: FetchError = FetchError.serverReason(part.header(FetchError.reasonHeader)).map { .photoUnusable($0) }
                ?? .status(part.status, url.description)
            delivered.withLock { $0.add(key, .failure(error)) }
            if complete(key, flight, .done(.failure(error))) > 0 { _ = take(key) }
            return
        }
        let result = FetchResult(status: 200, body: part.body, contentType: part.header("Content-Type"), url: url)
        // Kept before it is handed out: the tile made from it is kept under the cached
        // rendition's validator (`validator(of:)`).
        remember(key, status: 200, body: part.body) { part.header($0) }
        // For the tile that asks later, unless one was waiting for it.
        delivered.withLock { $0.add(key, .success(result)) }
        if complete(key, flight, .done(.success(result))) > 0 { _ = take(key) }
    }

    /// A flight a batch could not bring: failed with `error`, or released (nil) so that its
    /// waiters ask for it alone. A broken batch's failure is kept for the tile that asks next,
    /// so that it says why; one merely no longer wanted is not, so that it is asked for again.
    func abandon(_ url: RemoteURL, _ flight: Flight, error: FetchError?) {
        let key = FlightKey(url: url, range: nil)
        if case .badBatch = error { delivered.withLock { $0.add(key, .failure(error!)) } }
        complete(key, flight, error.map { .done(.failure($0)) } ?? .released)
    }
}

/// Why a batch response ended early.
enum BatchEnd: Error, Sendable {
    /// The server answered the batch with something else (an old server's 404 or 405).
    case refused
    /// It broke the format (docs/remote-gallery.md, "Batches").
    case broken(BatchError)
    /// The connection broke, or it was cancelled.
    case network(FetchError)
}
