import PhotoGridDecoding
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// Which job runs next: fetch tasks rebuilt from the encodes that wait, and the choice among
/// them by urgency, held images first, one decode for a photo wanted at two tiers.
extension TilePipeline {
    /// A fetch task for every source that a waiting encode task lacks, at the highest priority
    /// among them; fetches no one waits for are dropped unless running. `wishChanged`: called
    /// from `want` with a list unlike the last, rather than for a job that ended.
    func rebuildFetchTasks(wishChanged: Bool = false) {
        var needed: [Source: Task] = [:]
        for (request, task) in encodeTasks.waiting where !awaitsDiskRead(request) && !waitsForDiskRead(request)
                                                         && !isAvailable(request) {
            let source = source(of: request)
            let size = request.isPreview ? 0 : planned(request).size
            if var existing = needed[source] {
                existing.size = TilePipeline.size(existing.size, for: existing.priority, with: size, for: task.priority)
                existing.priority = max(existing.priority, task.priority)
                existing.order = min(existing.order, task.order)
                needed[source] = existing
            } else {
                needed[source] = Task(priority: task.priority, order: task.order, size: size)
            }
        }
        // Tiles of a tier still to be looked for on disk count in its size, on the same terms:
        // a miss would otherwise decode the photo a second time, at the larger size.
        for (request, task) in encodeTasks.waiting where !request.isPreview && awaitsDiskRead(request) {
            if var existing = needed[source(of: request)] {
                existing.size = TilePipeline.size(existing.size, for: existing.priority, with: planned(request).size, for: task.priority)
                needed[source(of: request)] = existing
            }
        }
        for (photo, task) in records.wantedInfos { needed[.info(photo)] = task }
        // A running fetch goes on, at the size and priority now needed if it is still needed.
        fetchTasks.replace(with: needed)
        // A decode whose photo nothing wants any more (the zoom view stepped past it, the grid
        // jumped away) stops rather than keep a worker from the photo now on screen. One whose
        // photo is still wanted at any size goes on: its tier serves or will serve something.
        if !cancelFlags.isEmpty {
            let photosWanted = Set(encodeTasks.keys.map(\.photo))
            for (key, flag) in cancelFlags where !photosWanted.contains(key.photo) { flag.cancel() }
        }
        // So does a load no one waits for any more: its bytes would come for nothing.
        if !loads.pending.isEmpty || !loads.arrived.isEmpty { dropUnwantedLoads() }
        // An image held for encodes no longer planned is let go.
        let waiting = Set(encodeTasks.keys.lazy.filter { !$0.isPreview }.map { self.planned($0).key })
        inFlight = inFlight.filter { waiting.contains($0.key) }
        if loader.expects { tellLoader(wishChanged: wishChanged) }
    }

    /// The size a fetch decodes for, given the tiles waiting on it: the largest of those as
    /// urgent as the most urgent, so that a photo is decoded once for all its tiles of a tier.
    /// Except that the screen's tiles are not made to wait for a larger decode for a tile off
    /// screen (a neighbouring column count's, 480 pixels beside the screen's 400): that tile
    /// gets a decode of its own later. On 24 real photos, decoding for 480 rather than 400 took
    /// 22% more CPU, all of it before the first screen was complete.
    static func size(_ current: Int, for currentPriority: Priority, with size: Int, for priority: Priority) -> Int {
        let screen = Priority.visible
        if currentPriority == screen && priority != screen { return current }
        if priority == screen && currentPriority != screen { return size }
        return max(current, size)
    }

    func nextJob() -> Job? {
        // Tiles whose image is held go first: encoding is quick, and it lets the image go, so that
        // at most about one image per worker is held at a time. But not before the screen: while
        // a tile on screen still waits, a held image's tiles for other column counts wait too
        // (they took a third of a cold first screen's time in sixel, 40 ms each); the image is
        // in the cache meanwhile.
        let screenWaits = encodeTasks.waiting.contains { $0.job.priority == .visible }
        var held: (request: TileRequest, urgency: Urgency)? = nil
        for (request, task) in encodeTasks.waiting where !request.isPreview && inFlight[planned(request).key] != nil
                                                         && (!screenWaits || task.priority == .visible) && tierImage(for: request) != nil {
            if let held, held.urgency >= task.urgency { continue }
            held = (request, task.urgency)
        }
        if let held { return .encode(held.request) }
        var best: (job: Job, urgency: Urgency)? = nil
        func consider(_ job: Job, _ task: Task) {
            if let best, best.urgency >= task.urgency { return }
            best = (job, task.urgency)
        }
        // A tier whose photo is being decoded at a larger grid tier waits: it is cut from that one.
        var decoding: [PhotoID: Tier] = [:]
        for case (.tier(let key), _, let running) in fetchTasks.all where running && !key.tier.isZoom {
            decoding[key.photo] = max(decoding[key.photo] ?? key.tier, key.tier)
        }
        for (source, task) in fetchTasks.waiting {
            if case .tier(let key) = source, let larger = decoding[key.photo], larger > key.tier { continue }
            consider(.fetch(source, size: task.size), task)
        }
        for source in loads.arrived.keys {
            let task = fetchTasks[source] ?? Task(priority: .visible, order: 0)
            consider(.decode(source, size: task.size), task)
        }
        for (request, task) in encodeTasks.waiting {
            if awaitsDiskRead(request) {
                consider(.loadTile(request), task)
            } else if !waitsForDiskRead(request) && isAvailable(request) {
                consider(.encode(request), task)
            }
        }
        if !records.rechecks.isEmpty {
            defer { records.rechecks = [] }
            return .recheck(records.rechecks)
        }
        // A photo wanted at two grid tiers (the screen's and a neighbouring column count's) is
        // decoded once, at the larger: the smaller is then cut from it in memory. Most of a decode
        // is reading the file's entropy-coded data, whatever the scale (a 5640x3172 progressive
        // JPEG: 1.1 s at 1024 and 1.1 s again at 2048 on this machine, 1.1 s once merged). The
        // zoom view's tiers are left apart: a grid tile does not wait for a whole photo.
        if case .fetch(.tier(let key), _)? = best?.job, let urgency = best?.urgency, let larger = largerFetch(than: key, urgency: urgency) { return larger }
        if best == nil, !stores.held, let (key, image) = stores.storeQueue.first {
            stores.storeQueue.removeFirst()
            stores.storeQueueBytes -= image.image.byteCount
            return .store(key, image)
        }
        return best?.job
    }

    /// The waiting fetch of the largest tier of `key`'s photo above `key`'s, if any; a screen's
    /// fetch does not wait for one off screen (see `size(_:for:with:for:)`).
    func largerFetch(than key: TierKey, urgency: Urgency) -> Job? {
        var found: (TierKey, Int)? = nil
        for (source, task) in fetchTasks.waiting {
            guard case .tier(let other) = source, other.photo == key.photo, other.tier > key.tier, !other.tier.isZoom,
                  urgency.priority != .visible || task.priority == .visible,
                  found.map({ other.tier > $0.0.tier }) ?? true else { continue }
            found = (other, task.size)
        }
        return found.map { .fetch(.tier($0.0), size: $0.1) }
    }
}

/// Which of two queued jobs goes first: the higher priority, then the one asked for earlier.
struct Urgency: Comparable {
    var priority: Priority
    /// Place in the list it was wanted in: earlier is more urgent.
    var order: Int

    static func < (a: Urgency, b: Urgency) -> Bool {
        a.priority != b.priority ? a.priority < b.priority : a.order > b.order
    }
}
