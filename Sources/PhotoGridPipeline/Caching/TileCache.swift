import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// Decoded tier images, EXIF thumbnails and terminal-ready tiles, under one byte budget with
/// least-recently-used eviction across all of them, so that no kind starves the others.
package final class TileCache: Sendable {
    package enum Key: Hashable, Sendable {
        case tier(TierKey)
        case thumbnail(PhotoID)
        case encoded(TileRequest)
    }

    enum Value: Sendable {
        case image(RGBImage)
        case tier(DecodedImage)
        case encoded(EncodedTile)
    }

    let store: MemoryCache<Key, Value>
    /// Zoom images (tiers 4096 and full), oldest first: at most `zoomLimit` of them, or
    /// `zoomBytes`, are kept, inside the one budget, so that a few big photos cannot push out
    /// the grid.
    private let zoomKeys = Locked<[(TierKey, Int)]>([])
    package static let zoomLimit = 3
    package static let zoomBytes = 200 * 1024 * 1024

    package init(limitBytes: Int) {
        store = MemoryCache(limit: limitBytes)
    }

    package var totalBytes: Int { store.totalCost }
    /// The most the cache ever held at once.
    package var peakBytes: Int { store.peakCost }
    package var limitBytes: Int { store.limit }

    package func tier(_ key: TierKey) -> DecodedImage? {
        if case .tier(let image)? = store.value(for: .tier(key)) { return image }
        return nil
    }
    package func hasTier(_ key: TierKey) -> Bool { store.contains(.tier(key)) }
    package func thumbnail(_ photo: PhotoID) -> RGBImage? { image(.thumbnail(photo)) }
    package func hasThumbnail(_ photo: PhotoID) -> Bool { store.contains(.thumbnail(photo)) }

    package func encoded(_ request: TileRequest) -> EncodedTile? {
        if case .encoded(let tile)? = store.value(for: .encoded(request)) { return tile }
        return nil
    }

    package func hasEncoded(_ request: TileRequest) -> Bool { store.contains(.encoded(request)) }

    package func store(tier image: DecodedImage, for key: TierKey) {
        store.set(.tier(image), for: .tier(key), cost: image.image.byteCount)
        guard key.tier.isZoom else { return }
        let evicted: [TierKey] = zoomKeys.withLock { keys in
            keys.removeAll { $0.0 == key }
            keys.append((key, image.image.byteCount))
            var gone: [TierKey] = []
            while keys.count > TileCache.zoomLimit || keys.reduce(0, { $0 + $1.1 }) > TileCache.zoomBytes, keys.count > 1 {
                gone.append(keys.removeFirst().0)
            }
            return gone
        }
        for key in evicted { store.removeValue(for: .tier(key)) }
    }

    /// The largest tier image of a photo in memory, if any: a preview's source.
    package func largestTier(of photo: PhotoID) -> DecodedImage? {
        for size in Tier.allCases.reversed() { if let image = tier(TierKey(photo: photo, tier: size)) { return image } }
        return nil
    }

    package func hasAnyImage(of photo: PhotoID) -> Bool {
        hasThumbnail(photo) || Tier.allCases.contains { hasTier(TierKey(photo: photo, tier: $0)) }
    }
    package func store(thumbnail image: RGBImage, for photo: PhotoID) { store.set(.image(image), for: .thumbnail(photo), cost: image.byteCount) }
    package func store(_ tile: EncodedTile, for request: TileRequest) { store.set(.encoded(tile), for: .encoded(request), cost: tile.byteCount) }

    /// The largest whole, final tile of `photo` in `mode` held, no larger than `width` x `height`
    /// pixels (a grid tile, say): what the zoom view shows of a photo it just stepped to while
    /// nothing better is ready.
    package func largestTile(of photo: PhotoID, mode: RenderMode, within width: Int, _ height: Int) -> (TileRequest, EncodedTile)? {
        let candidates = store.keys { key in
            guard case .encoded(let r) = key else { return false }
            return r.photo == photo && r.mode == mode && !r.isPreview && r.keptRows == r.height && r.width <= width && r.height <= height
        }.compactMap { key -> TileRequest? in if case .encoded(let r) = key { return r } else { return nil } }
        for request in candidates.sorted(by: { $0.width * $0.height > $1.width * $1.height }) {
            if let tile = encoded(request) { return (request, tile) }
        }
        return nil
    }

    /// Drops everything made from the photo: its file changed.
    package func forget(photo: PhotoID) {
        store.removeAll { key in
            switch key {
            case .tier(let tier): return tier.photo == photo
            case .thumbnail(let id): return id == photo
            case .encoded(let request): return request.photo == photo
            }
        }
        zoomKeys.withLock { $0.removeAll { $0.0.photo == photo } }
    }

    /// What the encoded tile costs, if held: what the pipeline's plan counts for it.
    package func encodedBytes(_ request: TileRequest) -> Int? { store.cost(of: .encoded(request)) }

    /// The tiles and thumbnails that the screen and its planned prefetches need: evicted only
    /// when nothing else is left (`MemoryCache`).
    package func protect(encoded: Set<TileRequest>, thumbnails: Set<PhotoID>) {
        store.protect(Set(encoded.map { Key.encoded($0) }).union(thumbnails.map { Key.thumbnail($0) }))
    }

    /// Bytes of the budget that decodes in progress use (`MemoryGate`): what the cache holds that
    /// is not protected gives way to them.
    package func reserve(_ bytes: Int) { store.setReserved(bytes) }

    /// The budget below which memory pressure does not halve it further.
    package static let smallestBudget = 16 * 1024 * 1024

    /// On memory pressure: the budget halves (down to `smallestBudget`) and what is over it goes,
    /// least wanted first; the pipeline plans what it makes for the new budget.
    package func halveBudget() { store.setLimit(max(min(store.limit, TileCache.smallestBudget), store.limit / 2)) }

    package func removeAll() { store.removeAll() }

    private func image(_ key: Key) -> RGBImage? {
        if case .image(let image)? = store.value(for: key) { return image }
        return nil
    }
}
