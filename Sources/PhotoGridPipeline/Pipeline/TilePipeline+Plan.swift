import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// What the pipeline makes of what is wanted, so that it fits the memory budget.
///
/// Without a plan, a budget smaller than the screen and its prefetches together made the
/// pipeline evict a tile it had just made to make the next one, then make the first again, on
/// both cores for as long as the grid stayed still (and each decode queued a tier image for the
/// disk cache, which never got its turn: memory grew by 30 MB/s). With it:
/// - the screen's tiles are always planned; prefetches follow in order of urgency while their
///   tiles fit, and stop at the first that does not, leaving room for the images being made and
///   the largest recent decode (a progressive 5120x2880 JPEG needs 88 MB while it decodes);
/// - every planned tile is protected in the cache, so only what is not planned is evicted;
/// - a tile whose source image would take more than `largestImageShare` of the budget is cut
///   from a smaller tier (softer), and a screen that does not fit at all keeps the tiles that do
///   and previews for the rest: both are shortfalls, which the status line reports.
extension TilePipeline {
    /// The largest share of the budget one source image may take.
    static let largestImageShare = 0.6

    /// The requests still to make, in order, from the wanted ones: already-made tiles of the plan
    /// are protected but need no task. Called under the pipeline's lock.
    func plan(_ requests: [WantedTile]) -> [WantedTile] {
        let limit = cache.limitBytes
        planning.imageCap = Int(Double(limit) * TilePipeline.largestImageShare)
        // Room for the images being made, which are held until their tiles are encoded (about
        // one per worker, as large as the screen's largest), and for the largest recent decode,
        // which is lent from the budget while it runs: prefetches take only what is left.
        let screenImage = requests.lazy.filter { $0.priority == .visible && !$0.request.isPreview }
            .map { TilePipeline.imageBytes(covering: self.planned($0.request).size) }.max() ?? 0
        let prefetchRoom = limit - workers * screenImage - (decoder.memoryGate?.largestRecent ?? 0)
        var total = 0, short = false, full = false
        var counted = Set<TileRequest>(), toMake = Set<TileRequest>(), thumbnails = Set<PhotoID>()
        var result: [WantedTile] = []
        for wanted in requests {
            let (request, priority) = (wanted.request, wanted.priority)
            if counted.contains(request) {
                if toMake.contains(request) { result.append(wanted) }
                continue
            }
            guard records.failures[request.photo] == nil else { continue }
            // A preview is worth making only while the real picture is still far off, and only
            // from something: another tier in memory, or the EXIF thumbnail.
            if request.isPreview && ((records.noThumbnail.contains(request.photo) && !cache.hasAnyImage(of: request.photo))
                                     || tierImage(for: request.final) != nil || cache.hasEncoded(request.final)) { continue }
            let made = cache.encodedBytes(request)
            let cost = made ?? estimatedBytes(request)
            if priority == .visible {
                guard total + cost <= limit else { short = true; continue }
                if !request.isPreview && planned(request).size < request.neededSize(shape: records.shapes[request.photo]) { short = true }
            } else {
                guard !full, total + cost <= prefetchRoom else { full = true; continue }
            }
            total += cost
            counted.insert(request)
            if request.isPreview { thumbnails.insert(request.photo) }
            if made == nil {
                toMake.insert(request)
                result.append(wanted)
            }
        }
        planning.planned = counted
        cache.protect(encoded: counted, thumbnails: thumbnails)
        if short && !planning.planWasShort { planning.shortfalls += 1 }
        planning.planWasShort = short
        return result
    }

    /// The tier image a final tile is made from and the short side it needs: what the tile asks
    /// for or, where that image would take more than `largestImageShare` of the budget, the
    /// largest tier that fits (the tile is enlarged from it, a little soft).
    ///
    /// The photo's shape, where known, makes a fitted tile's image smaller (`neededSize(shape:)`),
    /// at the tier of the box: a 16:9 photo's 1/8-scale decode (705x396 for a 390x219 tile in
    /// a 400-pixel box) is kept whole at 512 and resampled once, to the tile, rather than shrunk
    /// to 256 on the way.
    func planned(_ request: TileRequest) -> (key: TierKey, size: Int) {
        let size = request.neededSize(shape: records.shapes[request.photo])
        let tier = request.tier
        if TilePipeline.imageBytes(covering: size) <= planning.imageCap { return (TierKey(photo: request.photo, tier: tier), size) }
        let fitting = Tier.allCases.last { $0 < tier && TilePipeline.imageBytes(covering: $0.size) <= planning.imageCap } ?? .t64
        return (TierKey(photo: request.photo, tier: fitting), min(size, fitting.size))
    }

    /// What an image decoded to cover `size` may take, at most: a 3:2 photo whose short side is
    /// up to half again `size` (DCT scales come in eighths), never past its tier, three bytes a pixel.
    static func imageBytes(covering size: Int) -> Int {
        let short = min(Tier.covering(size).size, size + size / 2)
        return short * short * 9 / 2
    }

    /// What a tile not made yet will take, from the bytes per pixel of the tiles made so far.
    func estimatedBytes(_ request: TileRequest) -> Int {
        Int(Double(request.width * min(request.keptRows, request.height)) * (planning.encodedBytesPerPixel[request.mode] ?? request.mode.format.bytesPerPixelGuess))
    }

    /// Learns from a tile just made: the estimate rises at once to a larger tile and comes down
    /// slowly, so that a plan rarely counts a tile as smaller than it turns out.
    func learn(_ tile: EncodedTile, for request: TileRequest) {
        guard !request.isPreview else { return }
        let pixels = max(1, request.width * min(request.keptRows, request.height))
        let measured = Double(tile.byteCount) / Double(pixels)
        let current = planning.encodedBytesPerPixel[request.mode] ?? measured
        planning.encodedBytesPerPixel[request.mode] = max(measured, current * 0.95 + measured * 0.05)
    }

    /// The most that new tier images waiting for the disk cache may take: an eighth of the
    /// budget, at most 32 MB.
    var storeQueueLimit: Int { min(cache.limitBytes / 8, 32 << 20) }

    /// Tells the loader the tier images about to be fetched, most urgent first, when that list
    /// changed since last told: those with a fetch task, and those whose tiles are still to be
    /// looked for on disk (a miss fetches them; a remote tile can be on disk only while its
    /// rendition is in the HTTP cache, so asking costs nothing then). A fetch already running
    /// whose photo no tile wants any more is left out: the loader may let it go (a remote batch
    /// cancels it, and its worker is free).
    ///
    /// A job that ended only takes images off the list (its tile is made, or found on disk):
    /// the loader hears of that with the next change of wish or the next image added. Telling
    /// it at every tile cost a second visit's screen, 18 tiles read from disk, 0.6 ms of its 6
    /// under the pipeline's lock (the list rebuilt, compared and turned into URLs 18 times).
    func tellLoader(wishChanged: Bool) {
        // Tiles left behind mid-way (a disk read under way when the grid moved on) expect
        // nothing: told to a remote gallery, their images would be fetched for no one.
        let photosWanted = Set(encodeTasks.all.filter(\.job.wanted).map(\.key.photo))
        var images: [TierKey: (urgency: Urgency, size: Int)] = [:]
        for case (.tier(let key), let task, _) in fetchTasks.all where task.size > 0 && photosWanted.contains(key.photo) {
            images[key] = (task.urgency, task.size)
        }
        // Running or not: a wanted tile being looked for on disk still needs its image if it misses.
        for (request, task, _) in encodeTasks.all where task.wanted && !request.isPreview && awaitsDiskRead(request) {
            let (key, size) = planned(request)
            if let known = images[key], known.urgency >= task.urgency { continue }
            images[key] = (task.urgency, max(size, images[key]?.size ?? 0))
        }
        if !wishChanged && images.allSatisfy({ key, image in planning.lastExpectedSizes[key].map { $0 >= image.size } ?? false }) { return }
        let expected = images.map { key, image in (image.urgency, ExpectedImage(photo: table[key.photo], size: image.size)) }
            .sorted { $0.0 > $1.0 }.map(\.1)
        planning.lastExpectedSizes = images.mapValues(\.size)
        guard expected != planning.lastExpected else { return }
        planning.lastExpected = expected
        loader.expect(expected)
    }
}
