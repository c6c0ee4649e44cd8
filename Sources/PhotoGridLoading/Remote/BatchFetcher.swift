import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// The renditions the pipeline is about to ask for, asked of a server that takes batches in one
/// request (docs/remote-gallery.md, "Batches"), most urgent first: the screen's, then what
/// comes next. Each item's flight is led by its batch, so that a tile asking for it waits for
/// its part instead of asking again; a part that comes before anyone asks is kept for the asker.
///
/// When what is wanted changes and most of what a batch under way has still to bring is no
/// longer wanted (the user moved on), the batch is cancelled and its items still wanted go into
/// the next. A server that refuses batches, or breaks their format, gets none again this run:
/// its photos are asked for one by one, as from a server without batches.
package final class BatchFetcher: Sendable {
    /// The most items one batch asks for: a screen at six columns and a few rows beyond.
    static let maxItems = 64

    package let endpoint: RemoteURL
    let fetcher: Fetcher
    /// Where wishes are looked at and parts handed out, in order, off the transfer loop and off
    /// the pipeline's lock: a thread of its own, so that a batch's parts reach their tiles
    /// however busy the shared worker threads are (`SerialThread`).
    private let queue = SerialThread()
    private let state = Locked(State())

    struct State {
        /// The latest list of wanted renditions, not looked at yet.
        var wish: [RemoteURL]?
        var scheduled = false
        var batches: [Int: Outstanding] = [:]
        /// Which batch leads each item not answered yet.
        var owner: [RemoteURL: Int] = [:]
        /// Renditions done with: answered by a batch, or found in the cache.
        var settled: Set<RemoteURL> = []
        var nextID = 0
        /// The server refused a batch or broke one: none is sent again.
        var off = false
        /// The last wish looked at, when some of it waits for a batch under way to end.
        var held: [RemoteURL]?
        var sent = 0
    }

    struct Outstanding {
        var items: [RemoteURL]
        var flights: [RemoteURL: Fetcher.Flight]
        var task: Transfer?
        var cancelled = false
        /// An opening batch's parts must say which rendition they are; what it leaves out is
        /// asked for alone, with no fault found (the server's manifest may have changed since).
        var opening: OpeningBatch?
    }

    package init(endpoint: RemoteURL, fetcher: Fetcher) {
        self.endpoint = endpoint
        self.fetcher = fetcher
    }

    /// Batches sent so far: what tests count.
    package var batchesSent: Int { state.withLock { $0.sent } }

    /// The renditions wanted now, most urgent first. Returns at once: the work is the queue's.
    package func want(_ urls: [RemoteURL]) {
        let schedule = state.withLock { state -> Bool in
            guard !state.off else { return false }
            state.wish = urls
            defer { state.scheduled = true }
            return !state.scheduled
        }
        if schedule { queue.async { self.process() } }
    }

    /// Returns once the wishes made so far have been looked at.
    package func catchUp() {
        if state.withLock({ $0.scheduled }) { queue.sync { () } }
    }

    /// A tile is about to download `url`: if it waits in a held wish, that wish's items go now,
    /// in one batch, so that the tile joins it rather than asking alone.
    package func need(_ url: RemoteURL) {
        catchUp()
        guard state.withLock({ $0.held?.contains(url) ?? false }) else { return }
        queue.sync {
            guard let wish = state.withLock({ state -> [RemoteURL]? in
                guard let held = state.held, held.contains(url), state.owner[url] == nil else { return nil }
                state.held = nil
                return held
            }) else { return }
            look(at: wish, holding: false)
        }
    }

    /// Takes over a first visit's opening batch, now that the manifest says which renditions its
    /// parts are: photo `i`'s choice for the opening's size is item `i`. Each leads its flight,
    /// as a batch's items do, so that the first screen's tiles wait for their parts.
    package func adopt(_ opening: OpeningBatch, photos: [RemotePhoto]) {
        queue.sync {
            var items: [RemoteURL] = [], claimed: [RemoteURL: Fetcher.Flight] = [:]
            let screen = opening.opening.screen(forPhotos: photos.count)
            for photo in photos.prefix(screen.count) {
                items.append(photo.original)        // what no part of this batch stands for
                guard photo.hasRenditions, !RemoteLoader.format(of: photo).isVideo else { continue }
                let url = photo.source(coveringShortSide: screen.covering)
                guard url != photo.original, url.origin == endpoint.origin, claimed[url] == nil,
                      !state.withLock({ $0.owner[url] != nil }), !fetcher.isInFlight(url), !fetcher.isAtHand(url),
                      let flight = fetcher.claim(url) else { continue }
                items[items.count - 1] = url
                claimed[url] = flight
            }
            guard !claimed.isEmpty else { return opening.cancel() }
            let id = state.withLock { state -> Int in
                let id = state.nextID
                state.nextID += 1
                state.sent += 1
                state.batches[id] = Outstanding(items: items, flights: claimed, task: opening.task, opening: opening)
                for url in claimed.keys { state.owner[url] = id }
                return id
            }
            opening.attach(OpeningBatch.Receiver(parts: { parts in self.queue.async { self.received(parts, batch: id) } },
                                                 ended: { result in self.queue.async { self.ended(id, result) } }))
        }
    }

    /// Looks at the latest wish, then at any that came meanwhile; `scheduled` stays set until
    /// none is left, so that `catchUp` waits for the claims a tile's download may join.
    private func process() {
        let wish = state.withLock { state -> [RemoteURL]? in
            defer { state.wish = nil }
            return state.off ? nil : state.wish
        }
        if let wish { look(at: wish) }
        let again = state.withLock { state -> Bool in
            state.scheduled = state.wish != nil && !state.off
            return state.scheduled
        }
        if again { queue.async { self.process() } }
    }

    /// `holding`: less urgent items wait while a batch is under way (below); false when a tile
    /// is about to ask for one of them.
    private func look(at wish: [RemoteURL], holding: Bool = true) {
        let wanted = Set(wish)
        // A batch most of whose items still to come are no longer wanted (the user moved on) is
        // cancelled; its items still wanted are carried into the next one, their waiting tiles
        // with them. One that lost a few (the plan's prefetches come and go as tiles are made)
        // goes on: cancelling it would throw away the renditions the server is making for the
        // screen, and ask for them again.
        var carried: [RemoteURL: Fetcher.Flight] = [:], dropped: [(RemoteURL, Fetcher.Flight)] = []
        var cancelled: [Transfer] = []
        state.withLock { state in
            for (id, batch) in state.batches where !batch.cancelled {
                let open = batch.items.filter { state.owner[$0] == id }
                guard open.filter({ !wanted.contains($0) }).count * 2 > open.count else { continue }
                state.batches[id]!.cancelled = true
                if let task = batch.task { cancelled.append(task) }
                for url in open {
                    state.owner[url] = nil
                    if wanted.contains(url) { carried[url] = batch.flights[url] } else { dropped.append((url, batch.flights[url]!)) }
                }
            }
        }
        for task in cancelled { fetcher.loop.cancel(task) }
        for (url, flight) in dropped { fetcher.abandon(url, flight, error: .interrupted("no longer wanted")) }

        // While a batch is under way, what comes after all of its items in the wish (the rows
        // prefetched further on, planned a few at a time as tiles are made) waits for it to end
        // and goes in one batch then; anything more urgent goes now.
        let lastOpen = state.withLock { state in wish.lastIndex { state.owner[$0] != nil } }
        var held = false
        var items: [(url: RemoteURL, flight: Fetcher.Flight)] = []
        for (position, url) in wish.enumerated() where items.count < BatchFetcher.maxItems {
            if let flight = carried.removeValue(forKey: url) {
                items.append((url, flight))
                continue
            }
            guard url.origin == endpoint.origin, !items.contains(where: { $0.url == url }),
                  !state.withLock({ $0.owner[url] != nil || $0.settled.contains(url) }) else { continue }
            if holding, let lastOpen, position > lastOpen {
                held = true
                continue
            }
            if fetcher.isInFlight(url) { continue }
            if fetcher.isAtHand(url) {
                state.withLock { _ = $0.settled.insert(url) }
                continue
            }
            if let flight = fetcher.claim(url) { items.append((url, flight)) }
        }
        // Carried items past the cap are asked for by their tiles alone.
        for (url, flight) in carried { fetcher.abandon(url, flight, error: nil) }
        state.withLock { $0.held = held ? wish : nil }
        if !items.isEmpty { send(items) }
    }

    private func send(_ items: [(url: RemoteURL, flight: Fetcher.Flight)]) {
        let id = state.withLock { state -> Int in
            let id = state.nextID
            state.nextID += 1
            state.sent += 1
            state.batches[id] = Outstanding(items: items.map(\.url),
                                            flights: Dictionary(items.map { ($0.url, $0.flight) }, uniquingKeysWith: { a, _ in a }))
            for item in items { state.owner[item.url] = id }
            return id
        }
        let task = fetcher.sendBatch(to: endpoint, body: Batch.requestBody(items.map(\.url.pathAndQuery)), items: items.count,
                                     onParts: { parts in self.queue.async { self.received(parts, batch: id) } },
                                     ended: { result in self.queue.async { self.ended(id, result) } })
        state.withLock { $0.batches[id]?.task = task }
    }

    private func received(_ parts: [BatchReader.Part], batch id: Int) {
        for part in parts {
            let flight = state.withLock { state -> (RemoteURL, Fetcher.Flight)? in
                guard let batch = state.batches[id], batch.items.indices.contains(part.index) else { return nil }
                let url = batch.items[part.index]
                guard state.owner[url] == id, let flight = batch.flights[url] else { return nil }
                if batch.opening != nil {
                    guard let location = part.header("Content-Location"), endpoint.resolving(location) == url else { return nil }
                }
                state.owner[url] = nil
                state.settled.insert(url)
                return (url, flight)
            }
            if let (url, flight) = flight { fetcher.deliver(url, flight, part: part) }
        }
    }

    /// The batch's response ended: items it did not answer fail (the server broke the format,
    /// or left them out) or are released to be asked for alone (the connection broke, or the
    /// server takes no batches after all).
    private func ended(_ id: Int, _ result: Result<Void, BatchEnd>) {
        let (open, wasCancelled, flights, opening) = state.withLock { state -> ([RemoteURL], Bool, [RemoteURL: Fetcher.Flight], Bool) in
            guard let batch = state.batches.removeValue(forKey: id) else { return ([], true, [:], false) }
            let open = batch.items.filter { state.owner[$0] == id }
            for url in open { state.owner[url] = nil }
            return (open, batch.cancelled, batch.flights, batch.opening != nil)
        }
        guard !wasCancelled else { return }
        var error: FetchError? = nil
        switch result {
        case _ where opening:
            break                                   // what it did not bring is asked for alone
        case .success where !open.isEmpty:
            error = .badBatch("it left out \(open.count) of the photos asked for")
            state.withLock { $0.off = true }
        case .failure(.broken(let failure)):
            error = .badBatch(failure.description)
            state.withLock { $0.off = true }
        case .failure(.refused):
            state.withLock { $0.off = true }
        default:
            break                                   // the connection broke: each is asked for alone
        }
        for url in open { if let flight = flights[url] { fetcher.abandon(url, flight, error: error) } }
        lookAtHeld()
    }

    /// What waited for a batch to end, looked at again now that one has (unless a newer wish
    /// is about to be).
    private func lookAtHeld() {
        guard let wish = state.withLock({ state -> [RemoteURL]? in
            guard !state.scheduled, !state.off, let held = state.held else { return nil }
            state.held = nil
            return held
        }) else { return }
        look(at: wish)
    }
}
