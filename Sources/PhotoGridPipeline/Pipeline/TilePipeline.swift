import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// Makes tiles in the background on a fixed pool of worker threads, never on the event loop.
///
/// Three kinds of task, each keyed: *fetch* a tier image (derived from a larger tier in memory,
/// else loaded from the disk cache, else its bytes loaded and decoded) or a photo's EXIF
/// thumbnail; *encode* a tile
/// from one of those, or first read it from the disk cache where tiles of its kind are kept
/// (and write it there once made); and, when nothing else is left, *store* new tier images to
/// the disk cache.
///
/// The loop says what it wants with `want(_:)`, the whole list each frame, most urgent first.
/// The same key is one task however often it is wanted (a cut and a whole tile share one tier
/// image; tiles at every column count within a tier share one decode): the tasks are kept in
/// `KeyedJobs` tables, the helper the HTTP fetcher and the server share their work through. A fetch task's priority
/// is the highest of the encode tasks waiting for it. Tasks no longer wanted are dropped before
/// they start; what one already running makes for a tile no longer wanted is let go.
///
/// What is made is *planned* to fit the memory budget (`TilePipeline+Plan`): the screen always,
/// then prefetches in order while their tiles fit, and everything planned is protected in the
/// cache, so the pipeline never evicts what it is about to draw and makes it again. A fetched
/// image is held for the encodes waiting on it, not left to the cache, so each is made once.
package final class TilePipeline: @unchecked Sendable {
    // Everything below `condition` is guarded by it.
    let condition = Condition()
    var encodeTasks = KeyedJobs<TileRequest, Task>()
    var fetchTasks = KeyedJobs<Source, Task>()
    /// Fetched images whose encodes have not all run yet: held here, outside the cache's
    /// eviction, and let go as soon as no planned tile waits for them.
    var inFlight: [TierKey: DecodedImage] = [:]
    /// Running tier fetches' flags: set when no tile of their photo is wanted any more.
    var cancelFlags: [TierKey: CancelFlag] = [:]
    /// Fetches whose bytes a loader is bringing (`PhotoLoading`): no worker waits for them.
    var loads = Loads()
    /// Final tiles looked for in the disk cache and not found there: made from a tier image now.
    var notOnDisk: Set<TileRequest> = []
    var planning: PlanState
    var records = PhotoRecords()
    var stores = StoreQueue()
    var activity = Activity()
    var counters = Counters()

    /// Every photo by identity: the pipeline knows no list, so a new order or a filter changes
    /// nothing it holds.
    let table: PhotoTable
    package let cache: TileCache
    let workers: Int
    let loader: PhotoLoading
    let decoder: PhotoDecoding
    let encoder: TileEncoding
    let tierStore: TierStoring?
    let tell: Callbacks
    static let idleDelay = 1000

    /// What the plan is and what it learnt (`TilePipeline+Plan`).
    struct PlanState {
        /// Every tile of the current plan, made or not: what a finished encode is kept for.
        var planned: Set<TileRequest> = []
        /// Bytes per tile pixel of encoded tiles, per mode, as last measured.
        var encodedBytesPerPixel: [RenderMode: Double] = [:]
        /// How often the budget could not hold what the screen needs, so that tiles were made
        /// softer or left as previews.
        var shortfalls = 0
        var planWasShort = false
        /// The most one source image may take, set with each plan.
        var imageCap: Int
        /// What `want` was last given.
        var lastWish: [WantedTile] = []
        /// What the loader was last told to expect (`tellLoader`), and those images' sizes.
        var lastExpected: [ExpectedImage] = []
        var lastExpectedSizes: [TierKey: Int] = [:]
    }

    /// What is known of each photo: why it failed, whether its file ended early or has no
    /// thumbnail, its details, and the file stamps its pictures were made from.
    struct PhotoRecords {
        var failures: [PhotoID: DecodeError] = [:]
        /// Photos whose files ended before their pictures did, at their last decode.
        var incomplete: Set<PhotoID> = []
        var noThumbnail: Set<PhotoID> = []
        /// What each photo's file says about itself, once read (nil: not a JPEG, or unreadable).
        var infos: [PhotoID: PhotoInfo?] = [:]
        var wantedInfos: [PhotoID: Task] = [:]
        /// Each photo's upright width and height, once its details say: what a fitted tile needs
        /// depends on it (`TileRequest.neededSize(shape:)`).
        var shapes: [PhotoID: (width: Int, height: Int)] = [:]
        /// Photos to look at again (Ctrl-R), and the file stamps they were last made from when
        /// that is not the stamp the photo was read with (kept apart: one entry a photo would be
        /// 50 bytes each of a million photos).
        var rechecks: [PhotoID] = []
        var stamps: [PhotoID: FileStamp?] = [:]
    }

    /// New tier images waiting for the disk cache, and the stores under way.
    struct StoreQueue {
        var storeQueue: [(TierKey, DecodedImage)] = []
        var storeQueueBytes = 0
        var storesRunning = 0
        /// Not started until `waitForStores` (`holdStores`); nor the final tiles' files, which
        /// wait here meanwhile.
        var held = false
        var heldTiles: [(EncodedTile, TileRequest)] = []
    }

    /// The workers: stopped, jobs under way, whether `onIdle` was called since the last one ended.
    struct Activity {
        var stopped = false
        var running = 0
        var idleTold = true
    }

    /// Bytes on their way from a loader, and bytes arrived that wait for a worker to decode them.
    struct Loads {
        /// A fetch's load under way, with the ticket that lets it go (nil until `load` returns).
        var pending: [Source: LoadTicket?] = [:]
        var arrived: [Source: Result<PhotoBytes, DecodeError>] = [:]
    }

    /// Who is told what: a tile made, a photo's details read, and, on a worker once the last
    /// job has ended and nothing has come for `idleDelay`, idleness (`Allocator`: the pages kept
    /// for the next decode go back then).
    struct Callbacks {
        let onFinish: @Sendable (TileRequest) -> Void
        let onInfo: @Sendable (PhotoID) -> Void
        let onIdle: (@Sendable () -> Void)?
    }

    enum Source: Hashable { case tier(TierKey), thumbnail(PhotoID), info(PhotoID) }

    struct Task {
        var priority: Priority
        var order: Int
        /// False for a tile kept only because it is under way: the grid has moved on from it.
        var wanted = true
        /// For a tier fetch: the short side the waiting tiles need.
        var size = 0

        var urgency: Urgency { Urgency(priority: priority, order: order) }
    }

    enum Job {
        case fetch(Source, size: Int)
        /// A fetch's bytes have come from its loader: decoded now.
        case decode(Source, size: Int)
        case encode(TileRequest), loadTile(TileRequest), store(TierKey, DecodedImage), recheck([PhotoID])
    }

    /// A pipeline for a fixed list of photos, which are given the identities 0, 1, 2... in its
    /// order (the benchmark's and the tests' photos).
    package convenience init(photos: [Photo], cache: TileCache, loader: PhotoLoading = FileLoader(), decoder: PhotoDecoding = PhotoDecoder(),
                            encoder: TileEncoding = TileEncoder(), tierStore: TierStoring? = nil, workers: Int = WorkerThreads.cores,
                            onInfo: @escaping @Sendable (PhotoID) -> Void = { _ in },
                            onFinish: @escaping @Sendable (TileRequest) -> Void, onIdle: (@Sendable () -> Void)? = nil) {
        let table = PhotoTable()
        _ = table.ids(for: photos)
        self.init(table: table, cache: cache, loader: loader, decoder: decoder, encoder: encoder, tierStore: tierStore, workers: workers,
                  onInfo: onInfo, onFinish: onFinish, onIdle: onIdle)
    }

    package init(table: PhotoTable, cache: TileCache, loader: PhotoLoading = FileLoader(), decoder: PhotoDecoding = PhotoDecoder(),
                encoder: TileEncoding = TileEncoder(), tierStore: TierStoring? = nil,
                workers: Int = WorkerThreads.cores,
                onInfo: @escaping @Sendable (PhotoID) -> Void = { _ in },
                onFinish: @escaping @Sendable (TileRequest) -> Void, onIdle: (@Sendable () -> Void)? = nil) {
        self.table = table
        self.cache = cache
        self.loader = loader
        self.decoder = decoder
        self.encoder = encoder
        self.tierStore = tierStore
        tell = Callbacks(onFinish: onFinish, onInfo: onInfo, onIdle: onIdle)
        self.workers = max(1, workers)
        planning = PlanState(imageCap: Int(Double(cache.limitBytes) * TilePipeline.largestImageShare))
        for _ in 0..<self.workers {
            WorkerThreads.start { [self] in work() }
        }
    }

    package var workDone: Counters { locked { counters } }

    /// How many times the memory budget was too small for the screen (tiles softer, or left as
    /// previews): the status line says so.
    package var budgetShortfalls: Int { locked { planning.shortfalls } }

    /// Why the photo could not be decoded, once a decode has failed.
    package func failure(forPhoto photo: PhotoID) -> DecodeError? { locked { records.failures[photo] } }

    /// Whether the photo's file ended before its picture did when it was decoded (being copied):
    /// its tiles show what there was, marked. A reload (Ctrl-R) once the file changes decodes it again.
    package func isIncomplete(photo: PhotoID) -> Bool { locked { records.incomplete.contains(photo) } }

    /// What the photo's file says about itself, once read; asked for with `want(_:infos:)`.
    package func info(_ photo: PhotoID) -> PhotoInfo? { locked { records.infos[photo] ?? nil } }

    /// Whether the photo's details have been read, even if there were none to read.
    package func hasReadInfo(_ photo: PhotoID) -> Bool { locked { records.infos[photo] != nil } }

    /// Replaces what is wanted. Earlier entries of equal priority are done first; a request listed
    /// twice keeps its highest priority and its first place. `infos` are photos whose metadata is
    /// wanted (for the details panel, the grid's badges, the zoom view's shape): a short read each.
    package func want(_ requests: [WantedTile], infos photos: [WantedInfo] = []) {
        locked {
            records.wantedInfos = [:]
            for (order, wanted) in photos.enumerated() where records.infos[wanted.photo] == nil && records.wantedInfos[wanted.photo] == nil {
                records.wantedInfos[wanted.photo] = Task(priority: wanted.priority, order: order)
            }
            // A photo its source could not give for a reason that may pass is tried again once it
            // has left the screen and comes back (not over and over while it is on screen).
            let photosWanted = Set(requests.map(\.request.photo))
            records.failures = records.failures.filter { photo, error in
                if case .unavailable(_, retryable: true) = error { return photosWanted.contains(photo) }
                return true
            }
            var wanted: [TileRequest: Task] = [:]
            for (order, tile) in plan(requests).enumerated() {
                let (request, priority) = (tile.request, tile.priority)
                if let earlier = wanted[request] {
                    if earlier.priority < priority { wanted[request]!.priority = priority }
                    continue
                }
                wanted[request] = Task(priority: priority, order: order)
            }
            // Tasks not wanted any more are dropped unless running; a running one finishes,
            // marked as no longer wanted.
            encodeTasks.replace(with: wanted, leftRunning: { $0.wanted = false })
            // A tile that comes back later is looked for on disk again (another process may
            // have written it meanwhile); the set stays as small as what is wanted.
            notOnDisk.formIntersection(wanted.keys)
            // The grid asks at every frame, mostly for the same list: only a new one is news to
            // a batching loader (`tellLoader`).
            rebuildFetchTasks(wishChanged: requests != planning.lastWish)
            planning.lastWish = requests
            condition.broadcast()
        }
    }

    /// Nothing wanted is left to make and nothing is being written: for the benchmark, which
    /// measures a scroll once everything prefetched is in.
    package var isIdle: Bool {
        // Held stores wait for someone to ask for them: nothing more happens until then.
        locked { encodeTasks.isEmpty && fetchTasks.isEmpty && (stores.held || stores.storeQueue.isEmpty) && stores.storesRunning == 0 }
    }

    /// Waits until the pipeline has nothing to do (`isIdle`), at most `milliseconds`; whether it has.
    /// For tests and benchmarks, which wait on it rather than sleep.
    package func waitUntilIdle(milliseconds: Int) -> Bool {
        let deadline = SystemClock().now() + milliseconds
        condition.lock()
        defer { condition.unlock() }
        while !(encodeTasks.isEmpty && fetchTasks.isEmpty && stores.storeQueue.isEmpty && stores.storesRunning == 0 && records.rechecks.isEmpty
                && activity.running == 0) {
            let left = deadline - SystemClock().now()
            guard left > 0, !activity.stopped else { return false }
            _ = condition.wait(milliseconds: left)
        }
        return true
    }

    /// Tier images and final tiles wait for the disk cache until `waitForStores`, even while the
    /// workers are idle: a contact sheet's last tiles and their way to the terminal go first (the
    /// JPEG encodes of the first tiers' stores ran beside the last decodes, and each tile's file
    /// was written on the worker that made it).
    package func holdStores() { locked { stores.held = true } }

    /// Writes what was held and waits until every new tier image has been written to the disk
    /// cache: before `--print` exits.
    package func waitForStores() {
        // Let go at once, so that a tile made from here on is written by its worker; those held
        // are written here, while the workers encode the tier images.
        let tiles = locked { () -> [(EncodedTile, TileRequest)] in
            defer {
                stores.heldTiles = []
                if stores.held { stores.held = false; condition.broadcast() }
            }
            return stores.heldTiles
        }
        for (tile, request) in tiles { tierStore?.saveTile(tile, of: table[request.photo], request: request) }
        condition.lock()
        while !activity.stopped && (!stores.storeQueue.isEmpty || stores.storesRunning > 0) { condition.wait() }
        condition.unlock()
    }

    /// Looks at the photos' files again, on a worker (the loop never touches a file): a photo
    /// whose file changed or went since its pictures were made is forgotten, so that the next
    /// frame asks for it anew and shows the new picture, or why there is none. Ctrl-R.
    package func recheck(_ photos: [PhotoID]) {
        locked {
            records.rechecks += photos
            condition.broadcast()
        }
    }

    /// Photos whose files are known to be new (written again in place, or deleted and written
    /// anew under their names, as the folder's watch or a rescan found them), with their stamps
    /// now: what was made of them is let go at once, and a later recheck compares with these.
    package func filesChanged(_ photos: [(PhotoID, FileStamp)]) {
        guard !photos.isEmpty else { return }
        locked { for (photo, stamp) in photos { records.stamps.updateValue(stamp, forKey: photo) } }
        forgetMade(photos.map(\.0))
    }

    /// Forgets what `photo`'s file said about itself, so that it is read again when next
    /// wanted: its sidecar's caption was just changed.
    package func forgetInfo(_ photo: PhotoID) {
        locked {
            records.infos[photo] = nil
            condition.broadcast()
        }
    }

    /// Stops the workers after their current job, and lets the loads under way go.
    package func stop() {
        let tickets = locked { () -> [LoadTicket] in
            activity.stopped = true
            condition.broadcast()
            defer { loads = Loads() }
            return loads.pending.values.compactMap { $0 }
        }
        tickets.forEach { $0.cancel() }
    }

    func locked<T>(_ body: () -> T) -> T {
        condition.lock()
        defer { condition.unlock() }
        return body()
    }

    func source(of request: TileRequest) -> Source {
        request.isPreview ? .thumbnail(request.photo) : .tier(planned(request).key)
    }

    /// The tier image a final tile is cut from, if one in memory is large enough: held for its
    /// encodes, else in the cache.
    func tierImage(for request: TileRequest) -> DecodedImage? {
        let (key, size) = planned(request)
        if let image = inFlight[key], image.covers(size) { return image }
        guard let image = cache.tier(key), image.covers(size) else { return nil }
        return image
    }

    func isAvailable(_ request: TileRequest) -> Bool {
        request.isPreview ? cache.hasAnyImage(of: request.photo) : tierImage(for: request) != nil
    }

    /// A final tile of a kind the disk cache keeps, not looked for there yet: it is read before
    /// anything is fetched for it.
    func awaitsDiskRead(_ request: TileRequest) -> Bool {
        guard let tierStore, !request.isPreview, !notOnDisk.contains(request) else { return false }
        return tierStore.keepsTiles(for: request)
    }

    /// A preview whose final tile is wanted and may be on disk: made only once that read has
    /// missed, since a hit would put the sharp tile on screen before the preview (drawn for
    /// nothing, a tile drawn twice).
    func waitsForDiskRead(_ request: TileRequest) -> Bool {
        request.isPreview && encodeTasks[request.final] != nil && awaitsDiskRead(request.final)
    }

    /// A final tile just made or read: its preview, not started yet, would only be drawn under
    /// it (a warm start encoded a preview for every tile read from disk, 15-40 ms each in sixel,
    /// before the next frame's `want` dropped them). The next `want` plans it no more either.
    func dropPreview(of request: TileRequest) {
        guard !request.isPreview, encodeTasks[request.preview] != nil, !encodeTasks.isRunning(request.preview) else { return }
        encodeTasks.finish(request.preview)
    }

    /// What a preview is made from: the largest tier image in memory, else the EXIF thumbnail.
    func previewImage(for photo: PhotoID) -> RGBImage? {
        cache.largestTier(of: photo)?.image ?? cache.thumbnail(photo)
    }
}
