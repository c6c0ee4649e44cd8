import Dispatch
import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem

/// A decoder that records what it was asked for, can hold a photo until released, can fail,
/// and has EXIF thumbnails for some photos.
final class FakeDecoder: PhotoDecoding {
    let calls = Locked<[Int]>([])
    let sizes = Locked<[Int]>([])
    let thumbnailCalls = Locked<[Int]>([])
    let started = DispatchSemaphore(value: 0)
    private let held: Set<Int>
    private let failing: Set<Int>
    private let withThumbnails: Set<Int>
    private let gate = DispatchSemaphore(value: 0)

    init(holding held: Set<Int> = [], failing: Set<Int> = [], thumbnails: Set<Int> = []) {
        self.held = held
        self.failing = failing
        self.withThumbnails = thumbnails
    }

    func release() { gate.signal() }

    static func index(_ photo: Photo) -> Int { Int(photo.name.prefix { $0.isNumber })! }

    /// A large photo, "decoded" to exactly the size asked for (as a DCT scale would, roughly).
    func image(of photo: Photo, from bytes: PhotoBytes, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        let index = FakeDecoder.index(photo)
        calls.withLock { $0.append(index) }
        sizes.withLock { $0.append(size) }
        started.signal()
        if held.contains(index) { gate.wait() }
        if failing.contains(index) { throw .corrupt("fake") }
        let short = min(size, limit)
        let image = RGBImage(width: short * 3 / 2, height: short, fill: RGB(UInt8(index), 0, 0))
        return DecodedImage(image: image, origin: .file(scaleEighths: 1, scans: 1))
    }

    func thumbnail(of photo: Photo, from bytes: PhotoBytes) -> RGBImage? {
        let index = FakeDecoder.index(photo)
        thumbnailCalls.withLock { $0.append(index) }
        return withThumbnails.contains(index) ? RGBImage(width: 24, height: 16, fill: RGB(0, UInt8(index), 0)) : nil
    }
}

/// A disk cache in memory.
final class FakeTierStore: TierStoring {
    let saved = Locked<[String: DecodedImage]>([:])
    let tiles = Locked<[String: EncodedTile]>([:])
    func name(_ photo: Photo, _ tier: Tier) -> String { "\(photo.source)#\(tier.size)" }
    func load(_ photo: Photo, tier: Tier) -> DecodedImage? { saved.withLock { $0[name(photo, tier)] } }
    func save(_ image: DecodedImage, of photo: Photo, tier: Tier) { saved.withLock { $0[name(photo, tier)] = image } }
    // Tiles kept as the disk cache keeps them.
    func keepsTiles(for request: TileRequest) -> Bool { TileRecord.variant(for: request) != nil }
    func loadTile(_ photo: Photo, request: TileRequest) -> EncodedTile? { tiles.withLock { $0["\(photo.source)#\(request)"] } }
    func saveTile(_ tile: EncodedTile, of photo: Photo, request: TileRequest) { tiles.withLock { $0["\(photo.source)#\(request)"] = tile } }
}

/// Collects finished requests.
final class Finished: Sendable {
    let list = Locked<[TileRequest]>([])
    let signal = DispatchSemaphore(value: 0)
    func add(_ request: TileRequest) { list.withLock { $0.append(request) }; signal.signal() }
    func wait(for count: Int) -> Bool {
        for _ in 0..<count where signal.wait(timeout: .now() + 10) == .timedOut { return false }
        return true
    }
}

@Suite struct PipelineTests {
    let photos = (0..<20).map { Photo(path: RawPath("/nonexistent/\($0).jpg"), relativePath: RawPath("\($0).jpg")) }

    func request(_ photo: Int, size: Int = 40, kept: Int? = nil) -> TileRequest {
        TileRequest(photo: PhotoID(photo), width: size, height: size, fit: .fill, mode: .halfBlock(.trueColor), keptRows: kept)
    }

    func pipeline(_ decoder: FakeDecoder, _ finished: Finished, workers: Int = 2, store: TierStoring? = nil,
                  cache: TileCache = TileCache(limitBytes: 1 << 24)) -> TilePipeline {
        TilePipeline(photos: photos, cache: cache, decoder: decoder, tierStore: store, workers: workers, onFinish: finished.add)
    }

    @Test func theSameKeyInFlightIsOneTask() throws {
        let decoder = FakeDecoder(holding: [0])
        let finished = Finished()
        let pipeline = pipeline(decoder, finished)
        defer { pipeline.stop() }
        // A whole tile, the same tile cut by the screen's edge, and the (smaller) tile at another
        // column count in the same tier share one decode; asked for twice over, and again
        // mid-decode. (A larger one off screen gets its own: theScreenIsDecodedForAtItsOwnSizeFirst.)
        pipeline.want([WantedTile(request(0), .visible), WantedTile(request(0, kept: 4), .visible), WantedTile(request(0), .prefetch),
                       WantedTile(request(0, size: 30), .background)])
        decoder.started.wait()
        pipeline.want([WantedTile(request(0), .visible), WantedTile(request(0, kept: 4), .visible), WantedTile(request(0, size: 30), .background)])
        decoder.release()
        #expect(finished.wait(for: 3))
        #expect(decoder.calls.withLock { $0 } == [0])
        #expect(pipeline.workDone.decodes == 1 && pipeline.workDone.encodes == 3)
        // Asked again once cached: nothing more is made.
        pipeline.want([WantedTile(request(0), .visible)])
        #expect(pipeline.workDone.decodes == 1 && pipeline.workDone.encodes == 3)
    }

    @Test func tilesNoLongerWantedAreDroppedBeforeTheyStart() throws {
        let decoder = FakeDecoder(holding: [0])
        let finished = Finished()
        let pipeline = pipeline(decoder, finished, workers: 1)
        defer { pipeline.stop() }
        pipeline.want([WantedTile(request(0), .visible), WantedTile(request(1), .visible), WantedTile(request(2), .visible)])
        decoder.started.wait()
        // Scrolled on: 1 and 2 went off screen before a worker was free; 3 came on.
        pipeline.want([WantedTile(request(0), .visible), WantedTile(request(3), .visible)])
        decoder.release()
        #expect(finished.wait(for: 2))
        #expect(decoder.calls.withLock { $0 } == [0, 3])
        #expect(Set(finished.list.withLock { $0 }.map(\.photo)) == [0, 3])
    }

    @Test func visibleTilesGoBeforePrefetchedOnes() throws {
        let decoder = FakeDecoder(holding: [0])
        let finished = Finished()
        let pipeline = pipeline(decoder, finished, workers: 1)
        defer { pipeline.stop() }
        pipeline.want([WantedTile(request(0), .visible)])
        decoder.started.wait()
        pipeline.want([WantedTile(request(0), .visible), WantedTile(request(5), .prefetch), WantedTile(request(6), .background), WantedTile(request(7), .visible)])
        decoder.release()
        #expect(finished.wait(for: 4))
        #expect(decoder.calls.withLock { $0 } == [0, 7, 5, 6])
    }

    @Test func aSmallerTierIsMadeFromALargerOneNotDecodedAgain() throws {
        let decoder = FakeDecoder()
        let finished = Finished()
        let pipeline = pipeline(decoder, finished)
        defer { pipeline.stop() }
        pipeline.want([WantedTile(request(3, size: 390), .visible)])            // tier 512, decoded for 390
        #expect(finished.wait(for: 1))
        pipeline.want([WantedTile(request(3, size: 200), .visible), WantedTile(request(3, size: 60), .visible)])   // tiers 256 and 64
        #expect(finished.wait(for: 2))
        #expect(decoder.sizes.withLock { $0 } == [390])
        #expect(pipeline.workDone.derived == 2)
        // Larger tiles within the same tier need more than was decoded: decoded again, for them.
        pipeline.want([WantedTile(request(3, size: 470), .visible)])
        #expect(finished.wait(for: 1))
        // Going up a tier needs a decode too: nothing larger is in memory.
        pipeline.want([WantedTile(request(3, size: 900), .visible)])
        #expect(finished.wait(for: 1))
        #expect(decoder.sizes.withLock { $0 } == [390, 470, 900])
        // And a tile smaller than what tier 1024 holds now is cut from it, in tier 512.
        pipeline.want([WantedTile(request(3, size: 500), .visible)])
        #expect(finished.wait(for: 1))
        #expect(decoder.sizes.withLock { $0 }.count == 3)
    }

    /// Two prefetched layouts want the same photo at tiers 1024 and 2048: one decode, at the
    /// larger, whichever worker comes first.
    @Test(arguments: [1, 2])
    func aPhotoWantedAtTwoTiersIsDecodedOnceAtTheLarger(workers: Int) throws {
        let decoder = FakeDecoder()
        let finished = Finished()
        let pipeline = pipeline(decoder, finished, workers: workers, cache: TileCache(limitBytes: 1 << 26))
        defer { pipeline.stop() }
        pipeline.want([WantedTile(request(3, size: 800), .prefetch), WantedTile(request(3, size: 1200), .background), WantedTile(request(4, size: 800), .prefetch)])
        #expect(finished.wait(for: 3))
        let decodes = zip(decoder.calls.withLock { $0 }, decoder.sizes.withLock { $0 })
        #expect(decodes.filter { $0.0 == 3 }.map(\.1) == [1200])
        #expect(pipeline.workDone.derived == 1)
    }

    /// The screen does not wait for a larger decode wanted off screen (the neighbouring column
    /// count's): its tile is decoded for at its own size first, the larger one after.
    @Test func theScreenIsDecodedForAtItsOwnSizeFirst() throws {
        let decoder = FakeDecoder()
        let finished = Finished()
        let pipeline = pipeline(decoder, finished, workers: 1, cache: TileCache(limitBytes: 1 << 26))
        defer { pipeline.stop() }
        // Tiers 1024 and 2048, and two sizes of one tier (t512: 300 and 450).
        pipeline.want([WantedTile(request(3, size: 800), .visible), WantedTile(request(3, size: 1200), .background),
                       WantedTile(request(4, size: 300), .visible), WantedTile(request(4, size: 450), .background)])
        #expect(finished.wait(for: 4))
        let decodes = zip(decoder.calls.withLock { $0 }, decoder.sizes.withLock { $0 }).map { [$0.0, $0.1] }
        #expect(decodes == [[3, 800], [4, 300], [3, 1200], [4, 450]])
    }

    @Test func anImageTooSmallForALargerTileInItsTierIsFetchedAgainNotSpunOn() throws {
        let decoder = FakeDecoder(holding: [3])
        let finished = Finished()
        let pipeline = pipeline(decoder, finished, workers: 1)
        defer { pipeline.stop() }
        pipeline.want([WantedTile(request(3, size: 300), .visible)])                 // tier 512, decoded for 300
        decoder.started.wait()
        // A larger tile of the same tier comes on screen while that decode runs: the image held
        // for the first cannot make it, and the one worker must fetch again rather than try it
        // over and over.
        pipeline.want([WantedTile(request(3, size: 300), .visible), WantedTile(request(3, size: 450), .visible)])
        decoder.release()
        #expect(decoder.started.wait(timeout: .now() + 10) == .success, "the second fetch never started")
        decoder.release()
        #expect(finished.wait(for: 2))
        #expect(decoder.sizes.withLock { $0 } == [300, 450])
        #expect(pipeline.workDone.encodes == 2)
    }

    @Test func previewsComeFromThumbnailsFirstAndOnlyWhereThereAreAny() throws {
        let decoder = FakeDecoder(holding: [1], thumbnails: [1])
        let finished = Finished()
        let cache = TileCache(limitBytes: 1 << 24)
        let pipeline = pipeline(decoder, finished, workers: 1, cache: cache)
        defer { pipeline.stop() }
        // As the grid asks: the screen's previews first, then its real tiles.
        pipeline.want([WantedTile(request(1).preview, .visible), WantedTile(request(2).preview, .visible), WantedTile(request(1), .visible), WantedTile(request(2), .visible)])
        // Photo 1's preview is drawn while its decode is still held.
        decoder.started.wait()
        #expect(cache.encoded(request(1).preview) != nil)
        #expect(cache.encoded(request(1)) == nil)
        decoder.release()
        #expect(finished.wait(for: 3))
        #expect(cache.encoded(request(1)) != nil && cache.encoded(request(2)) != nil)
        // Photo 2 has no thumbnail: no preview, and it is not asked for again.
        #expect(cache.encoded(request(2).preview) == nil)
        pipeline.want([WantedTile(request(2, size: 30).preview, .visible)])
        #expect(decoder.thumbnailCalls.withLock { $0.filter { $0 == 2 }.count } == 1)
    }

    @Test func newTiersGoToTheDiskCacheWhenIdleAndAreReadBackNextTime() throws {
        let store = FakeTierStore()
        let decoder = FakeDecoder()
        let finished = Finished()
        let first = pipeline(decoder, finished, store: store)
        first.want([WantedTile(request(4), .visible), WantedTile(request(5), .visible)])
        #expect(finished.wait(for: 2))
        first.waitForStores()
        first.stop()
        #expect(store.saved.withLock { $0.count } == 2)
        #expect(first.workDone.stores == 2)
        // A new process, with tiles of another size (their encoded tiles are not on disk): the
        // tiers come from the disk cache, nothing is decoded.
        let again = FakeDecoder()
        let second = pipeline(again, finished, store: store)
        defer { second.stop() }
        second.want([WantedTile(request(4, size: 30), .visible), WantedTile(request(5, size: 30), .visible)])
        #expect(finished.wait(for: 2))
        #expect(again.calls.withLock { $0 }.isEmpty)
        #expect(second.workDone.diskHits == 2)
    }

    @Test func encodedTilesGoToTheDiskCacheAndANewProcessNeitherDecodesNorEncodes() throws {
        let store = FakeTierStore()
        let finished = Finished()
        func sixel(_ photo: Int) -> TileRequest { TileRequest(photo: PhotoID(photo), width: 40, height: 40, fit: .fill, mode: .sixel(colors: 16)) }
        let first = pipeline(FakeDecoder(), finished, store: store)
        first.want([WantedTile(sixel(4), .visible), WantedTile(sixel(5), .visible), WantedTile(request(6), .visible)])
        #expect(finished.wait(for: 3))
        first.stop()
        // The tiles are kept as soon as made (not left for an idle moment that a run quit early
        // never has), the half-block one too.
        #expect(store.tiles.withLock { $0.count } == 3)
        let made = try #require(first.cache.encoded(sixel(4))?.sixelParts?.first?.bytes)
        // A new process: the sixel tiles are read, nothing decoded or encoded.
        let again = FakeDecoder()
        let second = pipeline(again, finished, store: store)
        defer { second.stop() }
        second.want([WantedTile(sixel(4), .visible), WantedTile(sixel(5), .visible)])
        #expect(finished.wait(for: 2))
        #expect(again.calls.withLock { $0 }.isEmpty)
        #expect(second.workDone.tileDiskHits == 2 && second.workDone.encodes == 0 && second.workDone.diskHits == 0)
        #expect(second.cache.encoded(sixel(4))?.sixelParts?.first?.bytes == made)
        // A tile not kept yet falls through to its tier, as before.
        second.want([WantedTile(sixel(7), .visible)])
        #expect(finished.wait(for: 1))
        #expect(second.workDone.encodes == 1 && again.calls.withLock { $0 } == [7])
    }

    /// A warm start: the screen's tiles are on disk and its photos have thumbnails. Asked as the
    /// grid asks (previews first), each tile is read and no preview is made or fetched for: it
    /// would only be drawn under the sharp tile.
    @Test func tilesReadFromDiskLeaveTheirPreviewsUnmade() throws {
        let store = FakeTierStore()
        let finished = Finished()
        func sixel(_ photo: Int) -> TileRequest { TileRequest(photo: PhotoID(photo), width: 40, height: 40, fit: .fill, mode: .sixel(colors: 16)) }
        let first = pipeline(FakeDecoder(), finished, store: store)
        first.want([WantedTile(sixel(4), .visible), WantedTile(sixel(5), .visible)])
        #expect(finished.wait(for: 2))
        first.stop()
        let again = FakeDecoder(thumbnails: [4, 5])
        let second = pipeline(again, finished, workers: 1, store: store)
        defer { second.stop() }
        second.want([WantedTile(sixel(4).preview, .visible), WantedTile(sixel(5).preview, .visible),
                     WantedTile(sixel(4), .visible), WantedTile(sixel(5), .visible)])
        #expect(finished.wait(for: 2))
        // Nothing else may still be running: the pipeline goes idle with both tiles read.
        #expect(second.waitUntilIdle(milliseconds: 5000))
        #expect(second.workDone.tileDiskHits == 2 && second.workDone.encodes == 0, "\(second.workDone)")
        #expect(again.thumbnailCalls.withLock { $0 }.isEmpty)
        #expect(second.cache.encoded(sixel(4).preview) == nil && second.cache.encoded(sixel(5).preview) == nil)
    }

    /// A decoded photo's tile for another column count waits while a tile on screen waits: on
    /// one worker, both screen tiles are made before the other size of the first photo.
    @Test func theScreenComesBeforeOtherSizesOfAPhotoAlreadyDecoded() throws {
        let finished = Finished()
        let pipeline = pipeline(FakeDecoder(), finished, workers: 1)
        defer { pipeline.stop() }
        pipeline.want([WantedTile(request(4), .visible), WantedTile(request(5), .visible), WantedTile(request(4, size: 48), .background)])
        #expect(finished.wait(for: 3))
        let order = finished.list.withLock { $0 }
        #expect(order.map(\.photo) == [4, 5, 4], "\(order)")
        #expect(order.last?.width == 48)
    }

    /// With tiles kept on disk, each is looked for there first; a photo missing there at two
    /// sizes of one tier, both prefetched, is still decoded once, for the larger.
    @Test func tilesLookedForOnDiskStillShareOneDecode() throws {
        let decoder = FakeDecoder()
        let finished = Finished()
        let pipeline = pipeline(decoder, finished, workers: 1, store: FakeTierStore())
        defer { pipeline.stop() }
        func sixel(_ size: Int) -> TileRequest { TileRequest(photo: 4, width: size, height: size, fit: .fill, mode: .sixel(colors: 16)) }
        pipeline.want([WantedTile(sixel(40), .prefetch), WantedTile(sixel(60), .background)])
        #expect(finished.wait(for: 2))
        #expect(decoder.calls.withLock { $0 } == [4])
        #expect(decoder.sizes.withLock { $0 } == [60])
    }

    @Test func aFailedDecodeIsReportedWithItsReason() throws {
        let decoder = FakeDecoder(failing: [4])
        let finished = Finished()
        let cache = TileCache(limitBytes: 1 << 20)
        let pipeline = pipeline(decoder, finished, cache: cache)
        defer { pipeline.stop() }
        pipeline.want([WantedTile(request(4), .visible), WantedTile(request(4, kept: 2), .visible), WantedTile(request(5), .visible)])
        #expect(finished.wait(for: 3))
        #expect(pipeline.failure(forPhoto: 4) == .corrupt("fake"))
        #expect(pipeline.failure(forPhoto: 5) == nil)
        #expect(cache.encoded(request(5)) != nil && cache.encoded(request(4)) == nil)
        // A failed photo is not tried again on every frame.
        pipeline.want([WantedTile(request(4), .visible)])
        #expect(decoder.calls.withLock { $0.filter { $0 == 4 }.count } == 1)
    }

    /// The pages kept for the next decode go back when nothing is left to do (`Allocator`):
    /// the pipeline says so once each time its last job has ended and nothing came for a
    /// moment (`TilePipeline.idleDelay`), never while a job runs.
    @Test func idleIsToldOnceWhenTheLastJobEnds() throws {
        let decoder = FakeDecoder(holding: [0])
        let finished = Finished()
        let idle = Locked(0), told = DispatchSemaphore(value: 0)
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 24), decoder: decoder, workers: 2,
                                    onFinish: finished.add, onIdle: { idle.withLock { $0 += 1 }; told.signal() })
        defer { pipeline.stop() }
        pipeline.want([WantedTile(request(0), .visible), WantedTile(request(1), .visible)])
        decoder.started.wait()
        // Photo 1 is made while 0 is held: one worker runs out of jobs, the other is busy.
        #expect(finished.wait(for: 1))
        #expect(told.wait(timeout: .now() + 0.3) == .timedOut && idle.withLock { $0 } == 0)
        decoder.release()
        #expect(finished.wait(for: 1) && told.wait(timeout: .now() + 10) == .success)
        #expect(told.wait(timeout: .now() + 0.3) == .timedOut && idle.withLock { $0 } == 1)
        // More work, and idle again: told again, once.
        pipeline.want([WantedTile(request(2), .visible)])
        #expect(finished.wait(for: 1) && told.wait(timeout: .now() + 10) == .success)
        #expect(told.wait(timeout: .now() + 0.3) == .timedOut && idle.withLock { $0 } == 2)
    }
}
