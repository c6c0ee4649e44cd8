import PhotoGridDecoding
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// The jobs the worker threads run (`work`): fetching tier images, thumbnails and details (their
/// bytes from the loader, decoded here), encoding and loading tiles, storing tier images to
/// disk, and rechecking files for Ctrl-R.
extension TilePipeline {
    func work() {
        var ended = false
        while true {
            condition.lock()
            if ended {
                activity.running -= 1
                // Whoever waits for the pipeline to go idle (`waitUntilIdle`) looks again.
                if activity.running == 0 { condition.broadcast() }
            }
            var job = nextJob()
            while !activity.stopped && job == nil {
                if activity.running == 0 && !activity.idleTold, let onIdle = tell.onIdle {
                    // Told once nothing has come for `idleDelay`: `malloc_trim` holds malloc's
                    // locks for several milliseconds, which a key pressed meanwhile would wait on.
                    if !condition.wait(milliseconds: TilePipeline.idleDelay), activity.running == 0, !activity.idleTold, nextJob() == nil {
                        activity.idleTold = true
                        condition.unlock()
                        onIdle()
                        condition.lock()
                    }
                } else {
                    condition.wait()
                }
                job = nextJob()
            }
            guard !activity.stopped, let job else { condition.unlock(); return }
            activity.running += 1
            activity.idleTold = false
            ended = true
            var arrived: Result<PhotoBytes, DecodeError>?
            switch job {
            case .fetch(let source, _):
                fetchTasks.take(source)
                if case .tier(let key) = source { cancelFlags[key] = CancelFlag() }
            case .decode(let source, _):
                arrived = loads.arrived.removeValue(forKey: source)
                if case .tier(let key) = source { cancelFlags[key] = CancelFlag() }
            case .encode(let request), .loadTile(let request): encodeTasks.take(request)
            case .store: stores.storesRunning += 1; counters.stores += 1
            case .recheck: break
            }
            condition.unlock()
            switch job {
            case .fetch(.tier(let key), let size):
                if let flag = locked({ cancelFlags[key] }) { CancelFlag.with(flag) { fetchTier(key, size: size) } } else { fetchTier(key, size: size) }
            case .fetch(let source, _): load(source, size: 0)
            case .decode(let source, let size):
                guard let bytes = arrived else { break }
                if case .tier(let key) = source, let flag = locked({ cancelFlags[key] }) {
                    CancelFlag.with(flag) { decoded(source, bytes, size: size) }
                } else {
                    decoded(source, bytes, size: size)
                }
            case .encode(let request): encode(request)
            case .loadTile(let request): loadTile(request)
            case .store(let key, let image):
                tierStore?.save(image, of: table[key.photo], tier: key.tier)
                locked { stores.storesRunning -= 1; condition.broadcast() }
            case .recheck(let indexes): recheckFiles(indexes)
            }
        }
    }

    /// A tier image whose short side is at least `size`: from a larger tier in memory, else the
    /// disk cache, else the decoder (which decodes for `size` and keeps up to the tier's size).
    func fetchTier(_ key: TierKey, size: Int) {
        let result: Result<DecodedImage, DecodeError>
        let larger = key.tier.larger.lazy.compactMap { self.cache.tier(TierKey(photo: key.photo, tier: $0)) }.first { $0.covers(size) }
        if let larger {
            let image = PhotoDecoder.scaled(larger.image, shortSide: key.tier.size)
            result = .success(DecodedImage(image: image, origin: larger.origin, isComplete: larger.isComplete && image.width == larger.image.width,
                                           isPartial: larger.isPartial))
            locked { counters.derived += 1 }
        } else if let image = tierStore?.load(table[key.photo], tier: key.tier), image.covers(size) {
            result = .success(image)
            locked { counters.diskHits += 1 }
        } else {
            // Its bytes from the loader: at once for a file, else later, decoded then (`decoded`).
            return load(.tier(key), size: size)
        }
        finishTier(key, result, worthStoring: false)
    }

    /// Asks the loader for what `source` needs: decoded here when it is at hand, else when it
    /// comes (`loaded`), by whichever worker is free then.
    func load(_ source: Source, size: Int, whole: Bool = false) {
        let photo: PhotoID, want: LoadWant
        switch source {
        case .tier(let key): (photo, want) = (key.photo, whole ? .original : .picture(covering: size))
        case .thumbnail(let index): (photo, want) = (index, .thumbnail)
        case .info(let index):
            if let known = loader.knownInfo(of: table[index]) { return finishInfo(index, known) }
            (photo, want) = (index, .details)
        }
        locked { loads.pending[source] = .some(nil) }
        let start = loader.load(table[photo], want) { [self] result in loaded(source, result, size: size) }
        switch start {
        case .ready(let result):
            locked { _ = loads.pending.removeValue(forKey: source) }
            decoded(source, result, size: size)
        case .pending(let ticket):
            // The bytes may have come already (a load answered on the loader's thread at once).
            let kept = locked { () -> Bool in
                guard loads.pending[source] != nil else { return false }
                loads.pending[source] = ticket
                return true
            }
            if !kept && locked({ loads.arrived[source] == nil && fetchTasks[source] == nil }) { ticket.cancel() }
        }
    }

    /// A loader's bytes for `source`, on its thread: kept for a worker to decode, unless the
    /// load was let go meanwhile.
    func loaded(_ source: Source, _ result: Result<PhotoBytes, DecodeError>, size: Int) {
        locked {
            guard loads.pending.removeValue(forKey: source) != nil, !activity.stopped else { return }
            loads.arrived[source] = result
            condition.broadcast()
        }
    }

    /// What a worker makes of a source's bytes: the tier image, the thumbnail or the details.
    func decoded(_ source: Source, _ bytes: Result<PhotoBytes, DecodeError>, size: Int) {
        switch source {
        case .tier(let key):
            locked { counters.decodes += 1 }
            var result = bytes.flatMap { bytes in
                Result { () throws(DecodeError) in try decoder.image(of: table[key.photo], from: bytes, covering: size, atMost: key.tier.size) }
            }
            if case .success(var image) = result, loader.isPartial(table[key.photo]) {
                image.isPartial = true
                image.isComplete = false
                result = .success(image)
            }
            // A head (a remote original's first bytes) whose thumbnail or preview does not cover
            // the tile: the whole original next.
            if case .success(let part) = bytes, part.isPart, case .failure(.truncated) = result { return load(source, size: size, whole: true) }
            // What a half-written file has so far is not kept for the next run.
            finishTier(key, result, worthStoring: (try? result.get())?.isPartial == false)
        case .thumbnail(let photo):
            finishThumbnail(photo, (try? bytes.get()).flatMap { decoder.thumbnail(of: table[photo], from: $0) })
        case .info(let photo):
            finishInfo(photo, (try? bytes.get()).flatMap { decoder.info(of: table[photo], from: $0) })
        }
    }

    /// Lets go of loads whose photos no tile (or details) wants any more: under way, or come and
    /// not decoded yet. Their fetches end, as cancelled; if wanted again, they are asked again.
    func dropUnwantedLoads() {
        let photosWanted = Set(encodeTasks.keys.map(\.photo)).union(records.wantedInfos.keys)
        func unwanted(_ source: Source) -> Bool {
            switch source {
            case .tier(let key): return !photosWanted.contains(key.photo)
            case .thumbnail(let photo), .info(let photo): return !photosWanted.contains(photo)
            }
        }
        for (source, ticket) in loads.pending where unwanted(source) {
            loads.pending[source] = nil
            ticket?.cancel()
            fetchTasks.finish(source)
            counters.cancelled += 1
        }
        for source in loads.arrived.keys where unwanted(source) {
            loads.arrived[source] = nil
            fetchTasks.finish(source)
            counters.cancelled += 1
        }
    }

    /// A tier image fetched, or why not: kept for the tiles waiting on it.
    func finishTier(_ key: TierKey, _ result: Result<DecodedImage, DecodeError>, worthStoring: Bool) {
        var failed: [TileRequest] = []
        locked {
            fetchTasks.finish(.tier(key))
            cancelFlags[key] = nil
            switch result {
            case .success(let image):
                if image.isPartial { records.incomplete.insert(key.photo) }
                // Kept for the tiles waiting on it, and in the cache for later ones; a fetch that
                // no planned tile waits for any more is let go (the disk cache may still take it).
                if encodeTasks.waiting.contains(where: { !$0.key.isPreview && planned($0.key).key == key }) {
                    inFlight[key] = image
                    cache.store(tier: image, for: key)
                } else if encodeTasks.waiting.contains(where: { !$0.key.isPreview && $0.key.photo == key.photo }) {
                    // Planned at another tier since it started (the photo's shape, known now,
                    // made its image fit the budget): that tier is cut from this one, not decoded again.
                    cache.store(tier: image, for: key)
                }
                if worthStoring && tierStore != nil { queueStore(key, image) }
            case .failure(.cancelled):
                // Nothing wanted it; if something does again, it is fetched again.
                counters.cancelled += 1
                rebuildFetchTasks()
            case .failure(let error):
                records.failures[key.photo] = error
                failed = encodeTasks.waiting.filter { $0.key.photo == key.photo }.map(\.key)
                failed.forEach { encodeTasks.finish($0) }
                rebuildFetchTasks()
            }
            condition.broadcast()
        }
        failed.forEach(tell.onFinish)
    }

    /// New tier images wait here for the disk cache until the workers are idle (a JPEG encode
    /// each); past its bound (`storeQueueLimit`) the oldest are not written, rather than held
    /// without end.
    func queueStore(_ key: TierKey, _ image: DecodedImage) {
        stores.storeQueue.append((key, image))
        stores.storeQueueBytes += image.image.byteCount
        while stores.storeQueueBytes > storeQueueLimit, stores.storeQueue.count > 1 {
            stores.storeQueueBytes -= stores.storeQueue.removeFirst().1.image.byteCount
        }
    }

    func recheckFiles(_ indexes: [PhotoID]) {
        // A photo that is not a file (a remote one) cannot be looked at here; one that failed is
        // asked for again, whatever the reason was: the server may be back, the photo mended.
        let retried = locked { () -> [PhotoID] in
            let failed = Set(indexes).filter { table[$0].file == nil && records.failures[$0] != nil }
            for index in failed { records.failures[index] = nil }
            if !failed.isEmpty {
                rebuildFetchTasks()
                condition.broadcast()
            }
            return Array(failed)
        }
        retried.forEach(tell.onInfo)
        let now = Set(indexes).compactMap { index in
            table[index].stamp == nil ? nil : table[index].file.map { (index, FileStamp.of($0)) }
        }
        let changed = locked {
            // A file gone is kept as a nil stamp: it changed once, not at every Ctrl-R.
            defer { for (index, stamp) in now { records.stamps.updateValue(stamp, forKey: index) } }
            return now.filter { (records.stamps[$0.0] ?? table[$0.0].stamp) != $0.1 }.map(\.0)
        }
        forgetMade(changed)
    }

    /// Everything made of these photos let go, so that the next frame asks for them anew.
    func forgetMade(_ changed: [PhotoID]) {
        guard !changed.isEmpty else { return }
        for index in changed { cache.forget(photo: index) }
        locked {
            for index in changed {
                records.failures[index] = nil
                records.incomplete.remove(index)
                records.infos[index] = nil
                records.shapes[index] = nil
                records.noThumbnail.remove(index)
            }
            encodeTasks.dropWaiting { request, _ in changed.contains(request.photo) }
            notOnDisk = notOnDisk.filter { !changed.contains($0.photo) }
            rebuildFetchTasks()
            condition.broadcast()
        }
        changed.forEach(tell.onInfo)
    }

    func finishInfo(_ photo: PhotoID, _ info: PhotoInfo?) {
        locked {
            records.infos[photo] = .some(info)
            records.wantedInfos[photo] = nil
            fetchTasks.finish(.info(photo))
            if let width = info?.width, let height = info?.height { learnShape(photo, (width, height)) }
            condition.broadcast()
        }
        tell.onInfo(photo)
    }

    /// A photo's shape, the first time its details say it: its waiting tiles may now need a
    /// smaller image, so the fetches are planned again. Called under the pipeline's lock. Only
    /// from details, whose record is kept anyway: learnt from every picture decoded, the shapes
    /// of a library scrolled through would be an entry for each of its photos.
    func learnShape(_ photo: PhotoID, _ shape: (width: Int, height: Int)) {
        guard shape.width > 0, shape.height > 0, records.shapes[photo] == nil else { return }
        records.shapes[photo] = shape
        if encodeTasks.waiting.contains(where: { $0.key.photo == photo }) { rebuildFetchTasks() }
    }

    func finishThumbnail(_ photo: PhotoID, _ thumbnail: RGBImage?) {
        locked {
            counters.thumbnails += 1
            fetchTasks.finish(.thumbnail(photo))
            if let thumbnail {
                cache.store(thumbnail: thumbnail, for: photo)
            } else {
                records.noThumbnail.insert(photo)
                if !cache.hasAnyImage(of: photo) {
                    encodeTasks.dropWaiting { request, _ in request.isPreview && request.photo == photo }
                }
            }
            condition.broadcast()
        }
    }

    package func encode(_ request: TileRequest) {
        let (image, partial) = locked { () -> (RGBImage?, Bool) in
            if request.isPreview { return (previewImage(for: request.photo), false) }
            let tier = tierImage(for: request)
            return (tier?.image, tier?.isPartial ?? false)
        }
        guard let image else {
            // Evicted between fetch and encode: fetch again.
            locked {
                encodeTasks.putBack(request)
                rebuildFetchTasks()
                condition.broadcast()
            }
            return
        }
        let tile = encoder.encode(image, for: request, incomplete: partial)
        // Written at once (a file write, a small part of the encode), so that a run quit before
        // its workers were ever idle still leaves its screens for the next. What a half-written
        // file has so far is not kept.
        if !partial, let tierStore, tierStore.keepsTiles(for: request) {
            // Held while a contact sheet is written (`holdStores`).
            let held = locked { () -> Bool in
                if stores.held { stores.heldTiles.append((tile, request)) }
                return stores.held
            }
            if !held { tierStore.saveTile(tile, of: table[request.photo], request: request) }
        }
        locked {
            counters.encodes += 1
            encodeTasks.finish(request)
            dropPreview(of: request)
            notOnDisk.remove(request)
            learn(tile, for: request)
            // Made for a tile no longer planned (scrolled past): let go, not cached over a wanted one.
            if planning.planned.contains(request) { cache.store(tile, for: request) }
            rebuildFetchTasks()
            condition.broadcast()
        }
        tell.onFinish(request)
    }

    /// A final tile from the disk cache; if it is not there, the tile is made from its tier image.
    func loadTile(_ request: TileRequest) {
        let tile = tierStore?.loadTile(table[request.photo], request: request)
        locked {
            if let tile {
                counters.tileDiskHits += 1
                encodeTasks.finish(request)
                dropPreview(of: request)
                learn(tile, for: request)
                if planning.planned.contains(request) { cache.store(tile, for: request) }
            } else {
                notOnDisk.insert(request)
                encodeTasks.putBack(request)
            }
            rebuildFetchTasks()
            condition.broadcast()
        }
        if tile != nil { tell.onFinish(request) }
    }
}
