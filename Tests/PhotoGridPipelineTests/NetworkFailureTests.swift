import Dispatch
import Glibc
import Testing
@testable import PhotoGridLoading
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem

/// A loader whose downloads fail, for the retry rule: half at once, half later on its own
/// thread, as a network's do.
final class FailingNetwork: PhotoLoading {
    let calls = Locked(0)
    func load(_ photo: Photo, _ want: LoadWant, then: @escaping LoadCompletion) -> LoadStart {
        let n = calls.withLock { $0 += 1; return $0 }
        let failure = DecodeError.unavailable("unreachable", retryable: true)
        guard n % 2 == 0 else { return .ready(.failure(failure)) }
        WorkerThreads.start { then(.failure(failure)) }
        return .pending(LoadTicket {})
    }
}

@Suite struct NetworkFailureTests {
    let photos = (0..<4).map { Photo(path: RawPath("/nonexistent/\($0).jpg"), relativePath: RawPath("\($0).jpg")) }

    @Test func aTransientFailureIsTriedAgainWhenThePhotoComesBackOnScreen() {
        let loader = FailingNetwork()
        let finished = Finished()
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 20), loader: loader, workers: 1,
                                    onFinish: finished.add)
        defer { pipeline.stop() }
        let request = TileRequest(photo: 1, width: 8, height: 8, fit: .fill, mode: .halfBlock(.trueColor))
        pipeline.want([WantedTile(request, .visible)])
        #expect(finished.wait(for: 1))
        #expect(pipeline.failure(forPhoto: 1) == .unavailable("unreachable", retryable: true))
        // Still on screen: not tried again frame after frame.
        pipeline.want([WantedTile(request, .visible)])
        pipeline.want([WantedTile(request, .visible)])
        #expect(loader.calls.withLock { $0 } == 1)
        // Off screen, then back: tried again.
        pipeline.want([])
        #expect(pipeline.failure(forPhoto: 1) == nil)
        pipeline.want([WantedTile(request, .visible)])
        #expect(finished.wait(for: 1))
        #expect(loader.calls.withLock { $0 } == 2)
    }

    /// Ctrl-R on a remote gallery: a photo that failed (the server was down) is asked for again at
    /// once, not only once it has left the screen.
    @Test func aRecheckTriesAFailedPhotoThatIsNotAFileAgain() {
        let remote = (0..<4).map { Photo.remote("http://127.0.0.1:9/\($0).jpg", relativePath: RawPath("\($0).jpg")) }
        let loader = FailingNetwork()
        let finished = Finished()
        let pipeline = TilePipeline(photos: remote, cache: TileCache(limitBytes: 1 << 20), loader: loader, workers: 1,
                                    onFinish: finished.add)
        defer { pipeline.stop() }
        let request = TileRequest(photo: 1, width: 8, height: 8, fit: .fill, mode: .halfBlock(.trueColor))
        pipeline.want([WantedTile(request, .visible)])
        #expect(finished.wait(for: 1))
        pipeline.want([WantedTile(request, .visible)])
        #expect(loader.calls.withLock { $0 } == 1)
        pipeline.recheck([0, 1, 2])
        // The recheck runs on a worker: done once the pipeline is idle again.
        #expect(pipeline.waitUntilIdle(milliseconds: 5000) && pipeline.failure(forPhoto: 1) == nil)
        pipeline.want([WantedTile(request, .visible)])
        #expect(finished.wait(for: 1))
        #expect(loader.calls.withLock { $0 } == 2)
    }
}
