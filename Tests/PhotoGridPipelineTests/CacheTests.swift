import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
@testable import PhotoGridPipeline

@Suite struct MemoryCacheTests {
    @Test func evictsTheLeastRecentlyUsedPastTheBudget() {
        let cache = MemoryCache<String, Int>(limit: 100)
        cache.set(1, for: "a", cost: 40)
        cache.set(2, for: "b", cost: 40)
        #expect(cache.value(for: "a") == 1)          // a is now the most recent
        cache.set(3, for: "c", cost: 40)              // over budget: b goes
        #expect(cache.value(for: "b") == nil)
        #expect(cache.value(for: "a") == 1 && cache.value(for: "c") == 3)
        #expect(cache.totalCost == 80)
        cache.set(4, for: "a", cost: 10)              // replacing updates the cost
        #expect(cache.totalCost == 50)
        cache.set(5, for: "huge", cost: 101)          // larger than the whole budget: not kept
        #expect(cache.value(for: "huge") == nil && cache.count == 2)
    }

    @Test func trimKeepsTheNewestFraction() {
        let cache = MemoryCache<Int, Int>(limit: 1000)
        for i in 0..<10 { cache.set(i, for: i, cost: 10) }
        cache.trim(toFraction: 0.5)
        #expect(cache.totalCost == 50)
        #expect((0..<5).allSatisfy { cache.value(for: $0) == nil })
        #expect((5..<10).allSatisfy { cache.value(for: $0) == $0 })
    }

    @Test func tiersThumbnailsAndEncodedTilesShareOneBudget() {
        let cache = TileCache(limitBytes: 10_000)
        let key = TierKey(photo: 1, tier: .t64)
        cache.store(tier: DecodedImage(image: RGBImage(width: 40, height: 40), origin: .embeddedThumbnail), for: key)            // 4,800 bytes
        let request = TileRequest(photo: 1, width: 40, height: 40, fit: .fill, mode: .halfBlock(.trueColor))
        cache.store(.cells([[UInt8](repeating: 0, count: 4_000)]), for: request)
        #expect(cache.totalBytes == 8_800)
        cache.store(thumbnail: RGBImage(width: 20, height: 20), for: 1)            // 1,200 bytes: fits exactly
        #expect(cache.totalBytes == 10_000 && cache.hasTier(key))
        cache.store(.cells([[UInt8](repeating: 0, count: 3_000)]), for: request.preview)
        #expect(cache.totalBytes <= 10_000)
        #expect(cache.tier(key) == nil)                                            // the oldest went first
        #expect(cache.encoded(request) != nil && cache.thumbnail(1) != nil)
    }

    @Test func memoryPressureHalvesTheBudgetAndWhatIsLeastWantedGoes() {
        let megabyte = 1 << 20
        let cache = TileCache(limitBytes: 64 * megabyte)
        let tiles = (0..<8).map { TileRequest(photo: PhotoID($0), width: 40, height: 40, fit: .fill, mode: .halfBlock(.trueColor)) }
        for tile in tiles { cache.store(.cells([[UInt8](repeating: 0, count: 6 * megabyte)]), for: tile) }   // 48 MB
        // The screen needs the two oldest: they stay, and the next oldest go instead.
        cache.protect(encoded: [tiles[0], tiles[1]], thumbnails: [])
        cache.halveBudget()
        #expect(cache.limitBytes == 32 * megabyte && cache.totalBytes <= 32 * megabyte)
        #expect(cache.hasEncoded(tiles[0]) && cache.hasEncoded(tiles[1]) && !cache.hasEncoded(tiles[2]))
        #expect(cache.hasEncoded(tiles[7]))
        // Never below the smallest budget, however often the pressure comes.
        for _ in 0..<5 { cache.halveBudget() }
        #expect(cache.limitBytes == TileCache.smallestBudget && cache.totalBytes <= TileCache.smallestBudget)
        #expect(cache.hasEncoded(tiles[0]) && cache.hasEncoded(tiles[1]))
    }

    @Test func somethingUnwantedNeverPushesOutWhatIsWanted() {
        let cache = TileCache(limitBytes: 10_000)
        let tiles = (0..<4).map { TileRequest(photo: PhotoID($0), width: 40, height: 40, fit: .fill, mode: .halfBlock(.trueColor)) }
        cache.protect(encoded: [tiles[0], tiles[1]], thumbnails: [])
        cache.store(.cells([[UInt8](repeating: 0, count: 4_000)]), for: tiles[0])
        cache.store(.cells([[UInt8](repeating: 0, count: 4_000)]), for: tiles[1])
        // A third tile, not wanted, does not fit beside them: it is the one not kept.
        cache.store(.cells([[UInt8](repeating: 0, count: 4_000)]), for: tiles[2])
        #expect(cache.hasEncoded(tiles[0]) && cache.hasEncoded(tiles[1]) && !cache.hasEncoded(tiles[2]))
        // Wanted now instead of the first: the first goes.
        cache.protect(encoded: [tiles[1], tiles[3]], thumbnails: [])
        cache.store(.cells([[UInt8](repeating: 0, count: 4_000)]), for: tiles[3])
        #expect(!cache.hasEncoded(tiles[0]) && cache.hasEncoded(tiles[1]) && cache.hasEncoded(tiles[3]))
    }

    @Test func atMostThreeZoomImagesAreKept() {
        let cache = TileCache(limitBytes: 1 << 30)
        func image(_ side: Int) -> DecodedImage { DecodedImage(image: RGBImage(width: side, height: side), origin: .diskCache) }
        cache.store(tier: image(100), for: TierKey(photo: 9, tier: .t2048))         // not a zoom image
        for photo in 0..<5 { cache.store(tier: image(200), for: TierKey(photo: PhotoID(photo), tier: .full)) }
        #expect((0..<5).filter { cache.hasTier(TierKey(photo: PhotoID($0), tier: .full)) } == [2, 3, 4])
        #expect(cache.hasTier(TierKey(photo: 9, tier: .t2048)))
        // And at most 200 MB of them: two of 61 MB and one of 101 MB pass it, so the oldest goes.
        cache.store(tier: image(4_500), for: TierKey(photo: 5, tier: .full))       // 61 MB
        cache.store(tier: image(4_500), for: TierKey(photo: 6, tier: .full))       // 61 MB
        cache.store(tier: image(5_800), for: TierKey(photo: 7, tier: .t4096))      // 101 MB
        #expect(!cache.hasTier(TierKey(photo: 5, tier: .full)))
        #expect(cache.hasTier(TierKey(photo: 6, tier: .full)) && cache.hasTier(TierKey(photo: 7, tier: .t4096)))
        #expect((0..<5).allSatisfy { !cache.hasTier(TierKey(photo: PhotoID($0), tier: .full)) })
        #expect(cache.largestTier(of: 7)?.image.width == 5_800)
    }
}
