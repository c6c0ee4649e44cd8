import Dispatch
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridLoading
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem

/// What the pipeline tells a loader that takes batches (a remote gallery's), and how it waits
/// for one whose downloads wait on the network.
@Suite struct PipelineExpectTests {
    let photos = (0..<20).map { Photo(path: RawPath("/nonexistent/\($0).jpg"), relativePath: RawPath("\($0).jpg")) }

    func request(_ photo: Int) -> TileRequest {
        TileRequest(photo: PhotoID(photo), width: 40, height: 40, fit: .fill, mode: .halfBlock(.trueColor))
    }

    /// A loader that records each list it is told to expect, and can hold its loads (as a
    /// network does) until as many are under way at once as asked.
    final class ExpectingLoader: PhotoLoading {
        let told = Locked<[[Int]]>([])
        let held = Locked<[LoadCompletion]>([])
        let together: Int
        let allIn = DispatchSemaphore(value: 0)

        init(together: Int = 0) { self.together = together }

        var expects: Bool { true }
        func expect(_ images: [ExpectedImage]) { told.withLock { $0.append(images.map { FakeDecoder.index($0.photo) }) } }

        func load(_ photo: Photo, _ want: LoadWant, then: @escaping LoadCompletion) -> LoadStart {
            guard together > 0 else { return .ready(.success(.whole([]))) }
            let count = held.withLock { held -> Int in
                held.append(then)
                return held.count
            }
            if count == together { allIn.signal() }
            return .pending(LoadTicket {})
        }

        /// Hands every held load its bytes.
        func release() {
            for then in held.withLock({ held in defer { held = [] }; return held }) { then(.success(.whole([]))) }
        }
    }

    /// A screen whose tiles are all on disk: the decoder hears of it once, when it is wanted
    /// (so that a miss would already be in the first batch), not again as each tile is read.
    @Test func aScreenReadFromDiskIsToldOnce() throws {
        let loader = ExpectingLoader(), store = FakeTierStore(), finished = Finished()
        let encoded = TileEncoder().encode(RGBImage(width: 40, height: 40, fill: RGB(1, 2, 3)), for: request(0))
        for index in 0..<12 { store.saveTile(encoded, of: photos[index], request: request(index)) }
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 24), loader: loader, decoder: FakeDecoder(), tierStore: store,
                                    workers: 2, onFinish: finished.add)
        defer { pipeline.stop() }
        pipeline.want((0..<12).map { WantedTile(request($0), .visible) })
        #expect(finished.wait(for: 12))
        #expect(pipeline.workDone.tileDiskHits == 12)
        let told = loader.told.withLock { $0 }
        #expect(told.count == 1)
        #expect(Set(told.first ?? []) == Set(0..<12))
        // A new wish is told, even one that only drops images.
        pipeline.want([WantedTile(request(13), .visible)])
        #expect(finished.wait(for: 1))
        #expect(loader.told.withLock { $0.count } >= 2)
    }

    /// A tier store whose read of one photo's tile waits until let go, and misses.
    final class HeldReadStore: TierStoring {
        let held: Int
        let entered = DispatchSemaphore(value: 0)
        let go = DispatchSemaphore(value: 0)
        init(holding photo: Int) { held = photo }
        func load(_ photo: Photo, tier: Tier) -> DecodedImage? { nil }
        func save(_ image: DecodedImage, of photo: Photo, tier: Tier) {}
        func keepsTiles(for request: TileRequest) -> Bool { true }
        func loadTile(_ photo: Photo, request: TileRequest) -> EncodedTile? {
            if FakeDecoder.index(photo) == held {
                entered.signal()
                go.wait()
            }
            return nil
        }
        func saveTile(_ tile: EncodedTile, of photo: Photo, request: TileRequest) {}
    }

    /// A tile whose disk read is under way when the grid moves on expects nothing: a remote
    /// gallery would otherwise fetch its image for no one (a batch carries what is expected).
    @Test func aTileLeftMidReadIsNoLongerExpected() throws {
        let loader = ExpectingLoader(), store = HeldReadStore(holding: 0), finished = Finished()
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 24), loader: loader, decoder: FakeDecoder(), tierStore: store,
                                    workers: 2, onFinish: finished.add)
        defer {
            store.go.signal()
            pipeline.stop()
        }
        pipeline.want([WantedTile(request(0), .visible)])
        #expect(store.entered.wait(timeout: .now() + 10) == .success)
        pipeline.want([WantedTile(request(5), .visible)])
        #expect(finished.wait(for: 1))
        let told = loader.told.withLock { $0 }
        #expect(told.last == [5], "\(told)")
    }

    /// The grid asks at every frame, mostly for the same list: the same wish again is no news,
    /// though tiles were made since.
    @Test func theSameWishAgainIsNotTold() throws {
        let loader = ExpectingLoader(together: 1), store = FakeTierStore(), finished = Finished()
        let encoded = TileEncoder().encode(RGBImage(width: 40, height: 40, fill: RGB(1, 2, 3)), for: request(0))
        for index in 0..<6 { store.saveTile(encoded, of: photos[index], request: request(index)) }
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 24), loader: loader, decoder: FakeDecoder(), tierStore: store,
                                    workers: 2, onFinish: finished.add)
        defer { pipeline.stop() }
        // Six tiles on disk and one to download, held.
        let wish = (0..<7).map { WantedTile(request($0), .visible) }
        pipeline.want(wish)
        #expect(finished.wait(for: 6))
        #expect(loader.allIn.wait(timeout: .now() + 10) == .success)
        let before = loader.told.withLock { $0.count }
        pipeline.want(wish)
        pipeline.want(wish)
        #expect(loader.told.withLock { $0.count } == before)
        loader.release()
        #expect(finished.wait(for: 1))
    }

    /// A download under way holds no worker: six wait on the network at once while one worker
    /// decodes, and all six are decoded once they come.
    @Test func downloadsOverlapBeyondTheWorkers() throws {
        let loader = ExpectingLoader(together: 6), finished = Finished()
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 24), loader: loader, decoder: FakeDecoder(), tierStore: nil,
                                    workers: 1, onFinish: finished.add)
        defer { pipeline.stop() }
        pipeline.want((0..<6).map { WantedTile(request($0), .visible) })
        #expect(loader.allIn.wait(timeout: .now() + 10) == .success)
        loader.release()
        #expect(finished.wait(for: 6))
    }
}
