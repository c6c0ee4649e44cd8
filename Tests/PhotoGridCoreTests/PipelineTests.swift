import Dispatch
import Synchronization
import Testing
@testable import PhotoGridCore

/// A decoder that records what it was asked for, can hold a photo until released, and can fail.
final class FakeDecoder: PhotoDecoding {
    let calls = Mutex<[Int]>([])
    let started = DispatchSemaphore(value: 0)
    private let held: Set<Int>
    private let failing: Set<Int>
    private let gate = DispatchSemaphore(value: 0)

    init(holding held: Set<Int> = [], failing: Set<Int> = []) {
        self.held = held
        self.failing = failing
    }

    func release() { gate.signal() }

    func tileImage(of photo: Photo, width: Int, height: Int, fit: FitMode) throws(DecodeError) -> RGBImage {
        let index = Int(photo.name.prefix { $0.isNumber })!
        calls.withLock { $0.append(index) }
        started.signal()
        if held.contains(index) { gate.wait() }
        if failing.contains(index) { throw .corrupt("fake") }
        return RGBImage(width: width, height: height, fill: RGB(UInt8(index), 0, 0))
    }
}

/// Collects finished requests.
final class Finished: Sendable {
    let list = Mutex<[TileRequest]>([])
    let signal = DispatchSemaphore(value: 0)
    func add(_ request: TileRequest) { list.withLock { $0.append(request) }; signal.signal() }
    func wait(for count: Int) -> Bool {
        for _ in 0..<count where signal.wait(timeout: .now() + 10) == .timedOut { return false }
        return true
    }
}

@Suite struct PipelineTests {
    let photos = (0..<20).map { Photo(path: RawPath("/nonexistent/\($0).jpg"), relativePath: RawPath("\($0).jpg")) }

    func request(_ photo: Int, kept: Int? = nil) -> TileRequest {
        TileRequest(pixels: PixelKey(photo: photo, width: 8, height: 8, fit: .fill), mode: .halfBlock(.trueColor), keptRows: kept)
    }

    @Test func theSameKeyInFlightIsOneTask() throws {
        let decoder = FakeDecoder(holding: [0])
        let finished = Finished()
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 20), decoder: decoder, workers: 2,
                                    onFinish: finished.add)
        defer { pipeline.stop() }
        // A whole tile and the same tile cut by the screen's edge share their pixels; asked
        // for twice over, and again while the decode is running.
        pipeline.want([(request(0), .visible), (request(0, kept: 4), .visible), (request(0), .prefetch)])
        decoder.started.wait()
        pipeline.want([(request(0), .visible), (request(0, kept: 4), .visible)])
        decoder.release()
        #expect(finished.wait(for: 2))
        #expect(decoder.calls.withLock { $0 } == [0])
        #expect(pipeline.workDone == TilePipeline.Counters(decodes: 1, encodes: 2))
        // Asked again once cached: nothing more is made.
        pipeline.want([(request(0), .visible)])
        #expect(pipeline.workDone.decodes == 1)
    }

    @Test func tilesNoLongerWantedAreDroppedBeforeTheyStart() throws {
        let decoder = FakeDecoder(holding: [0])
        let finished = Finished()
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 20), decoder: decoder, workers: 1,
                                    onFinish: finished.add)
        defer { pipeline.stop() }
        pipeline.want([(request(0), .visible), (request(1), .visible), (request(2), .visible)])
        decoder.started.wait()
        // Scrolled on: 1 and 2 went off screen before a worker was free; 3 came on.
        pipeline.want([(request(0), .visible), (request(3), .visible)])
        decoder.release()
        #expect(finished.wait(for: 2))
        #expect(decoder.calls.withLock { $0 } == [0, 3])
        #expect(Set(finished.list.withLock { $0 }.map(\.pixels.photo)) == [0, 3])
    }

    @Test func visibleTilesGoBeforePrefetchedOnes() throws {
        let decoder = FakeDecoder(holding: [0])
        let finished = Finished()
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 20), decoder: decoder, workers: 1,
                                    onFinish: finished.add)
        defer { pipeline.stop() }
        pipeline.want([(request(0), .visible)])
        decoder.started.wait()
        pipeline.want([(request(0), .visible), (request(5), .prefetch), (request(6), .background), (request(7), .visible)])
        decoder.release()
        #expect(finished.wait(for: 4))
        #expect(decoder.calls.withLock { $0 } == [0, 7, 5, 6])
    }

    @Test func aFailedDecodeIsReportedWithItsReason() throws {
        let decoder = FakeDecoder(failing: [4])
        let finished = Finished()
        let cache = TileCache(limitBytes: 1 << 20)
        let pipeline = TilePipeline(photos: photos, cache: cache, decoder: decoder, workers: 2, onFinish: finished.add)
        defer { pipeline.stop() }
        pipeline.want([(request(4), .visible), (request(4, kept: 2), .visible), (request(5), .visible)])
        #expect(finished.wait(for: 3))
        #expect(pipeline.failure(forPhoto: 4) == .corrupt("fake"))
        #expect(pipeline.failure(forPhoto: 5) == nil)
        #expect(cache.encoded(request(5)) != nil && cache.encoded(request(4)) == nil)
        // A failed photo is not tried again on every frame.
        pipeline.want([(request(4), .visible)])
        #expect(decoder.calls.withLock { $0.filter { $0 == 4 }.count } == 1)
    }
}
