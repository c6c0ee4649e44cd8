import Dispatch
import Glibc
import Testing
@testable import PhotoGridCore
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem
@testable import PhotoGridTerminal

/// A decoder whose downloads fail, for the retry rule.
final class FailingNetwork: PhotoDecoding {
    let calls = Locked(0)
    func image(of photo: Photo, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        calls.withLock { $0 += 1 }
        throw .unavailable("unreachable", retryable: true)
    }
    func thumbnail(of photo: Photo) -> RGBImage? { nil }
}

@Suite struct NetworkFailureTests {
    let photos = (0..<4).map { Photo(path: RawPath("/nonexistent/\($0).jpg"), relativePath: RawPath("\($0).jpg")) }

    @Test func aTransientFailureIsTriedAgainWhenThePhotoComesBackOnScreen() {
        let decoder = FailingNetwork()
        let finished = Finished()
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 20), decoder: decoder, workers: 1,
                                    onFinish: finished.add)
        defer { pipeline.stop() }
        let request = TileRequest(photo: 1, width: 8, height: 8, fit: .fill, mode: .halfBlock(.trueColor))
        pipeline.want([WantedTile(request, .visible)])
        #expect(finished.wait(for: 1))
        #expect(pipeline.failure(forPhoto: 1) == .unavailable("unreachable", retryable: true))
        // Still on screen: not tried again frame after frame.
        pipeline.want([WantedTile(request, .visible)])
        pipeline.want([WantedTile(request, .visible)])
        #expect(decoder.calls.withLock { $0 } == 1)
        // Off screen, then back: tried again.
        pipeline.want([])
        #expect(pipeline.failure(forPhoto: 1) == nil)
        pipeline.want([WantedTile(request, .visible)])
        #expect(finished.wait(for: 1))
        #expect(decoder.calls.withLock { $0 } == 2)
    }

    /// Ctrl-R on a remote gallery: a photo that failed (the server was down) is asked for again at
    /// once, not only once it has left the screen.
    @Test func aRecheckTriesAFailedPhotoThatIsNotAFileAgain() {
        let remote = (0..<4).map { Photo(address: "http://127.0.0.1:9/\($0).jpg", relativePath: RawPath("\($0).jpg"), format: .jpeg) }
        let decoder = FailingNetwork()
        let finished = Finished()
        let pipeline = TilePipeline(photos: remote, cache: TileCache(limitBytes: 1 << 20), decoder: decoder, workers: 1,
                                    onFinish: finished.add)
        defer { pipeline.stop() }
        let request = TileRequest(photo: 1, width: 8, height: 8, fit: .fill, mode: .halfBlock(.trueColor))
        pipeline.want([WantedTile(request, .visible)])
        #expect(finished.wait(for: 1))
        pipeline.want([WantedTile(request, .visible)])
        #expect(decoder.calls.withLock { $0 } == 1)
        pipeline.recheck([0, 1, 2])
        // The recheck runs on a worker: done once the pipeline is idle again.
        #expect(pipeline.waitUntilIdle(milliseconds: 5000) && pipeline.failure(forPhoto: 1) == nil)
        pipeline.want([WantedTile(request, .visible)])
        #expect(finished.wait(for: 1))
        #expect(decoder.calls.withLock { $0 } == 2)
    }
}
