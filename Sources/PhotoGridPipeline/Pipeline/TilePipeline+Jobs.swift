import PhotoGridDecoding
import PhotoGridModel
import PhotoGridSystem

/// The jobs the worker threads run (`work`): fetching tier images, thumbnails and details,
/// encoding and loading tiles, storing tier images to disk, and rechecking files for Ctrl-R.
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
            switch job {
            case .fetch(let source, _):
                fetchTasks.take(source)
                if case .tier(let key) = source { cancelFlags[key] = CancelFlag() }
                for _ in 0..<activity.idleExtraWorkers { WorkerThreads.start { [self] in work() } }
                activity.idleExtraWorkers = 0
            case .encode(let request), .loadTile(let request): encodeTasks.take(request)
            case .store: stores.storesRunning += 1; counters.stores += 1
            case .recheck: break
            }
            condition.unlock()
            switch job {
            case .fetch(.tier(let key), let size):
                if let flag = locked({ cancelFlags[key] }) { CancelFlag.with(flag) { fetchTier(key, size: size) } } else { fetchTier(key, size: size) }
            case .fetch(.thumbnail(let photo), _): fetchThumbnail(photo)
            case .fetch(.info(let photo), _): fetchInfo(photo)
            case .encode(let request): encode(request)
            case .loadTile(let request): loadTile(request)
            case .store(let key, let image):
                tierStore?.save(image, of: photos[key.photo], tier: key.tier)
                locked { stores.storesRunning -= 1; condition.broadcast() }
            case .recheck(let indexes): recheckFiles(indexes)
            }
        }
    }

    /// A tier image whose short side is at least `size`: from a larger tier in memory, else the
    /// disk cache, else the decoder (which decodes for `size` and keeps up to the tier's size).
    func fetchTier(_ key: TierKey, size: Int) {
        var result: Result<DecodedImage, DecodeError>
        var worthStoring = false
        let larger = key.tier.larger.lazy.compactMap { self.cache.tier(TierKey(photo: key.photo, tier: $0)) }.first { $0.covers(size) }
        if let larger {
            let image = PhotoDecoder.scaled(larger.image, shortSide: key.tier.size)
            result = .success(DecodedImage(image: image, origin: larger.origin, isComplete: larger.isComplete && image.width == larger.image.width,
                                           isPartial: larger.isPartial))
            locked { counters.derived += 1 }
        } else if photos.indices.contains(key.photo), let image = tierStore?.load(photos[key.photo], tier: key.tier), image.covers(size) {
            result = .success(image)
            locked { counters.diskHits += 1 }
        } else if photos.indices.contains(key.photo) {
            locked { counters.decodes += 1 }
            do throws(DecodeError) {
                let photo = photos[key.photo]
                let decoded = decoder.computesOnly
                    ? try CPUGate.shared.run { () throws(DecodeError) in try decoder.image(of: photo, covering: size, atMost: key.tier.size) }
                    : try decoder.image(of: photo, covering: size, atMost: key.tier.size)
                result = .success(decoded)
                // What a half-written file has so far is not kept for the next run.
                worthStoring = !decoded.isPartial
            } catch { result = .failure(error) }
        } else {
            result = .failure(.unreadable("no such photo"))
        }
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

    func recheckFiles(_ indexes: [Int]) {
        // A photo that is not a file (a remote one) cannot be looked at here; one that failed is
        // asked for again, whatever the reason was: the server may be back, the photo mended.
        let retried = locked { () -> [Int] in
            let failed = Set(indexes).filter { photos[$0].file == nil && records.failures[$0] != nil }
            for index in failed { records.failures[index] = nil }
            if !failed.isEmpty {
                rebuildFetchTasks()
                condition.broadcast()
            }
            return Array(failed)
        }
        retried.forEach(tell.onInfo)
        let now = Set(indexes).compactMap { index in
            photos[index].stamp == nil ? nil : photos[index].file.map { (index, FileStamp.of($0)) }
        }
        let changed = locked {
            defer { for (index, stamp) in now { records.stamps[index] = stamp } }
            return now.filter { records.stamps[$0.0] != $0.1 }.map(\.0)
        }
        guard !changed.isEmpty else { return }
        for index in changed { cache.forget(photo: index) }
        locked {
            for index in changed {
                records.failures[index] = nil
                records.incomplete.remove(index)
                records.infos[index] = nil
                records.noThumbnail.remove(index)
            }
            encodeTasks.dropWaiting { request, _ in changed.contains(request.photo) }
            notOnDisk = notOnDisk.filter { !changed.contains($0.photo) }
            rebuildFetchTasks()
            condition.broadcast()
        }
        changed.forEach(tell.onInfo)
    }

    func fetchInfo(_ photo: Int) {
        let info = photos.indices.contains(photo) ? decoder.info(of: photos[photo]) : nil
        locked {
            records.infos[photo] = .some(info)
            records.wantedInfos[photo] = nil
            fetchTasks.finish(.info(photo))
            condition.broadcast()
        }
        tell.onInfo(photo)
    }

    func fetchThumbnail(_ photo: Int) {
        let thumbnail = photos.indices.contains(photo) ? decoder.thumbnail(of: photos[photo]) : nil
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
        let tile = CPUGate.shared.run { encoder.encode(image, for: request, incomplete: partial) }
        // Written at once (a file write, a small part of the encode), so that a run quit before
        // its workers were ever idle still leaves its screens for the next. What a half-written
        // file has so far is not kept.
        if !partial, let tierStore, tierStore.keepsTiles(for: request), photos.indices.contains(request.photo) {
            tierStore.saveTile(tile, of: photos[request.photo], request: request)
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
        let tile = photos.indices.contains(request.photo) ? tierStore?.loadTile(photos[request.photo], request: request) : nil
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
