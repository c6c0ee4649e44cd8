import Foundation

/// Makes tiles in the background: a decode stage (photo to pixels) and an encode stage (pixels
/// to terminal bytes), run by a fixed pool of worker threads, never on the event loop.
///
/// The loop says what it wants with `want(_:)`, the whole set each frame, most urgent first.
/// The same key is one task however often it is wanted (a clipped and a whole tile share one
/// decode); a task's priority is the highest of those wanting it; tasks no longer wanted are
/// dropped before they start. A task already running finishes and its result is cached, but
/// the loop draws only what is on screen, so a stale result is never shown.
public final class TilePipeline: @unchecked Sendable {
    // Everything below `condition` is guarded by it.
    private let condition = NSCondition()
    private var encodeTasks: [TileRequest: EncodeTask] = [:]
    private var decodeTasks: [PixelKey: DecodeTask] = [:]
    private var failures: [Int: DecodeError] = [:]
    private var stopped = false
    private var counters = Counters()

    private let photos: [Photo]
    private let cache: TileCache
    private let decoder: PhotoDecoding
    private let encoder: TileEncoding
    private let onFinish: @Sendable (TileRequest) -> Void

    struct EncodeTask {
        var priority: Priority
        var order: Int
        var ready: Bool          // its pixels are in the cache
        var running = false
    }

    struct DecodeTask {
        var priority: Priority
        var order: Int
        var running = false
    }

    /// How much work was started: what the coalescing and cancelling tests count.
    public struct Counters: Sendable, Equatable {
        public var decodes = 0
        public var encodes = 0
    }

    private enum Job { case decode(PixelKey), encode(TileRequest) }

    public init(photos: [Photo], cache: TileCache, decoder: PhotoDecoding = PhotoDecoder(),
                encoder: TileEncoding = TileEncoder(), workers: Int = ProcessInfo.processInfo.activeProcessorCount,
                onFinish: @escaping @Sendable (TileRequest) -> Void) {
        self.photos = photos
        self.cache = cache
        self.decoder = decoder
        self.encoder = encoder
        self.onFinish = onFinish
        for i in 0..<max(1, workers) {
            let thread = Thread { [self] in work() }
            thread.name = "photogrid-worker-\(i)"
            thread.start()
        }
    }

    public var workDone: Counters { condition.lock(); defer { condition.unlock() }; return counters }

    /// Why the photo could not be decoded, once a decode has failed.
    public func failure(forPhoto index: Int) -> DecodeError? {
        condition.lock(); defer { condition.unlock() }
        return failures[index]
    }

    /// Replaces what is wanted. Earlier entries of equal priority are done first.
    public func want(_ requests: [(TileRequest, Priority)]) {
        condition.lock(); defer { condition.unlock() }
        var wanted = Set<TileRequest>()
        for (order, (request, priority)) in requests.enumerated() {
            guard failures[request.pixels.photo] == nil, !cache.hasEncoded(request) else { continue }
            wanted.insert(request)
            if var task = encodeTasks[request] {
                task.priority = priority; task.order = order
                encodeTasks[request] = task
            } else {
                encodeTasks[request] = EncodeTask(priority: priority, order: order,
                                                  ready: cache.pixels(request.pixels) != nil)
            }
        }
        encodeTasks = encodeTasks.filter { wanted.contains($0.key) || $0.value.running }
        rebuildDecodeTasks()
        condition.broadcast()
    }

    /// Stops the workers after their current job.
    public func stop() {
        condition.lock(); stopped = true; condition.broadcast(); condition.unlock()
    }

    /// A decode task for every pixel key that a waiting encode task needs, at the highest
    /// priority among them; the rest are dropped unless running.
    private func rebuildDecodeTasks() {
        var needed: [PixelKey: DecodeTask] = [:]
        for (request, task) in encodeTasks where !task.ready && !task.running {
            let key = request.pixels
            if var existing = needed[key] {
                existing.priority = max(existing.priority, task.priority)
                existing.order = min(existing.order, task.order)
                needed[key] = existing
            } else {
                needed[key] = DecodeTask(priority: task.priority, order: task.order)
            }
        }
        for (key, task) in decodeTasks where task.running {
            needed[key, default: task].running = true
        }
        decodeTasks = needed
    }

    private func nextJob() -> Job? {
        var best: (Job, Priority, Int)? = nil
        func consider(_ job: Job, _ priority: Priority, _ order: Int) {
            if let b = best, (b.1, -b.2) >= (priority, -order) { return }
            best = (job, priority, order)
        }
        for (key, task) in decodeTasks where !task.running { consider(.decode(key), task.priority, task.order) }
        for (request, task) in encodeTasks where task.ready && !task.running { consider(.encode(request), task.priority, task.order) }
        return best?.0
    }

    private func work() {
        while true {
            condition.lock()
            var job = nextJob()
            while !stopped && job == nil {
                condition.wait()
                job = nextJob()
            }
            guard !stopped, let job else { condition.unlock(); return }
            switch job {
            case .decode(let key): decodeTasks[key]?.running = true; counters.decodes += 1
            case .encode(let request): encodeTasks[request]?.running = true; counters.encodes += 1
            }
            condition.unlock()
            switch job {
            case .decode(let key): decode(key)
            case .encode(let request): encode(request)
            }
        }
    }

    private func decode(_ key: PixelKey) {
        let result: Result<RGBImage, DecodeError>
        if photos.indices.contains(key.photo) {
            do throws(DecodeError) {
                result = .success(try decoder.tileImage(of: photos[key.photo], width: key.width, height: key.height, fit: key.fit))
            } catch { result = .failure(error) }
        } else {
            result = .failure(.unreadable("no such photo"))
        }
        var failed: [TileRequest] = []
        condition.lock()
        decodeTasks[key] = nil
        switch result {
        case .success(let image):
            cache.store(image, for: key)
            for (request, _) in encodeTasks where request.pixels == key { encodeTasks[request]?.ready = true }
        case .failure(let error):
            failures[key.photo] = error
            failed = encodeTasks.keys.filter { $0.pixels.photo == key.photo && encodeTasks[$0]?.running == false }
            for request in failed { encodeTasks[request] = nil }
        }
        condition.broadcast()
        condition.unlock()
        failed.forEach(onFinish)
    }

    private func encode(_ request: TileRequest) {
        guard let pixels = cache.pixels(request.pixels) else {
            // Evicted between decode and encode: decode again.
            condition.lock()
            encodeTasks[request]?.running = false
            encodeTasks[request]?.ready = false
            rebuildDecodeTasks()
            condition.broadcast()
            condition.unlock()
            return
        }
        let tile = encoder.encode(pixels, for: request)
        cache.store(tile, for: request)
        condition.lock()
        encodeTasks[request] = nil
        condition.unlock()
        onFinish(request)
    }
}
