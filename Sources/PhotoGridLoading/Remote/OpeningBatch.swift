import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// A first visit's opening batch (`Batch.Opening`, docs/remote-gallery.md): asked for at the
/// same time as the manifest, before the photos' names are known, at the endpoint photogrid
/// serve's manifests name ("batch", beside the manifest). Its parts are kept until the manifest
/// has come and `BatchFetcher.adopt` knows which rendition each is; a server that takes no
/// batches, or whose manifest names another endpoint, costs this one request, made while the
/// manifest's was under way anyway.
package final class OpeningBatch: Sendable {
    package let endpoint: RemoteURL
    let opening: Batch.Opening
    private let state = Locked(State())
    /// Given when the batch ends, however: for what waits for that (a test).
    private let end = Pending<Void>()

    struct State {
        /// Parts come before the manifest: kept, up to `keptBytes`, for `adopt`.
        var parts: [BatchReader.Part] = []
        var bytes = 0
        var result: Result<Void, BatchEnd>?
        var receiver: Receiver?
        var task: Transfer?
        var cancelled = false
    }

    /// Where parts and the end go once adopted. Each only queues the work, so it is called
    /// under the lock: parts and the end reach it in the order they came.
    struct Receiver {
        let parts: @Sendable ([BatchReader.Part]) -> Void
        let ended: @Sendable (Result<Void, BatchEnd>) -> Void
    }

    /// What parts may take before anyone knows what they are; past it they are dropped, and
    /// their tiles ask for them alone.
    static let keptBytes = 32 << 20

    let fetcher: Fetcher

    private init(endpoint: RemoteURL, opening: Batch.Opening, fetcher: Fetcher) {
        self.endpoint = endpoint
        self.opening = opening
        self.fetcher = fetcher
    }

    /// Sends the opening for `screen` beside the manifest at `manifest`; nil when there is no
    /// point: the manifest is in the cache (a second visit, whose tiles are on disk), or there
    /// is no endpoint to guess.
    package static func start(for screen: FirstScreen, manifest: RemoteURL, fetcher: Fetcher) -> OpeningBatch? {
        guard !fetcher.hasCached(manifest), let endpoint = manifest.resolving("batch") else { return nil }
        let opening = OpeningBatch.opening(for: screen)
        let batch = OpeningBatch(endpoint: endpoint, opening: opening, fetcher: fetcher)
        let task = fetcher.sendBatch(to: endpoint, body: opening.body, items: opening.mostPhotos,
                                     onParts: { parts in batch.received(parts) }, ended: { result in batch.ended(result) })
        batch.state.withLock { $0.task = task }
        return batch
    }

    /// What the opening asks for a first screen (each choice by size within a batch's limit).
    static func opening(for screen: FirstScreen) -> Batch.Opening {
        Batch.Opening(count: min(screen.count, Batch.maxItems), covering: screen.covering, bySize: screen.bySize.map {
            Batch.Opening.Choice(upTo: $0.upTo, count: min($0.count, Batch.maxItems), covering: $0.covering)
        })
    }

    /// From now on parts and the end go to `receiver`, those that came before first.
    func attach(_ receiver: Receiver) {
        state.withLock { state in
            guard !state.cancelled else { return }
            state.receiver = receiver
            if !state.parts.isEmpty { receiver.parts(state.parts) }
            if let result = state.result { receiver.ended(result) }
            state.parts = []
            state.bytes = 0
        }
    }

    /// Not wanted (the manifest names no batch, or another one; the user moved on): the request
    /// is cut and whatever it brings dropped.
    package func cancel() {
        let task = state.withLock { state -> Transfer? in
            state.cancelled = true
            state.receiver = nil
            state.parts = []
            state.bytes = 0
            return state.task
        }
        task?.cancel()
    }

    var task: Transfer? { state.withLock { $0.task } }

    /// Whether its response has ended (whole or not).
    var hasEnded: Bool { state.withLock { $0.result != nil } }

    /// Waits until the batch has ended, at most `milliseconds`; whether it has.
    func waitUntilEnded(milliseconds: Int) -> Bool { end.wait(milliseconds: milliseconds) != nil }

    private func received(_ parts: [BatchReader.Part]) {
        state.withLock { state in
            guard !state.cancelled else { return }
            if let receiver = state.receiver { return receiver.parts(parts) }
            for part in parts where state.bytes + part.body.count <= OpeningBatch.keptBytes {
                state.parts.append(part)
                state.bytes += part.body.count
            }
        }
    }

    private func ended(_ result: Result<Void, BatchEnd>) {
        state.withLock { state in
            state.result = result
            if !state.cancelled, let receiver = state.receiver { receiver.ended(result) }
        }
        end.fulfil(())
    }
}
