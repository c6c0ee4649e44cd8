import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// An animation's frames made for the photo view, each encoded for one tile request (the
/// view's, with the frame's number), on a thread of their own so that the workers go on with
/// the grid's tiles. Made once: playing them again only writes them again (a canvas that keeps
/// pictures in the terminal keeps each frame as one, and is only told where to show it).
/// Bounded: at most `maxFrames`, and encoded bytes up to a quarter of the cache's budget; the
/// view plays what was made and says the rest was left out.
package final class AnimationFrames: Sendable {
    package static let maxFrames = 1000

    package struct Made: Sendable {
        package var tiles: [EncodedTile] = []
        package var milliseconds: [Int] = []
        package var bytes = 0
        /// All the frames that will be made are made (or the making stopped).
        package var finished = false
        /// Why frames were left out, if they were.
        package var cut: String?
    }

    package let request: TileRequest
    let made = Locked(Made())
    let cancelled = Locked(false)
    /// The load of the photo's bytes, let go with the frames.
    let load = Locked<LoadTicket?>(nil)

    init(request: TileRequest) { self.request = request }

    package var now: Made { made.withLock { $0 } }
    /// The frames stop being made (the view moved on).
    package func cancel() {
        cancelled.withLock { $0 = true }
        load.withLock { $0 }?.cancel()
    }
    var isCancelled: Bool { cancelled.withLock { $0 } }

    /// The request a frame is drawn for: the view's, told apart by the frame's number.
    package func request(ofFrame index: Int) -> TileRequest {
        var frame = request
        frame.frame = index
        return frame
    }
}

extension TilePipeline {
    /// Starts making the frames of `request`'s photo, if it is an animation: its whole bytes from
    /// the loader, then each frame decoded, shaped and encoded as the still tile is. The pipeline
    /// is told of each (`onFinish`), as of a tile.
    package func animate(_ request: TileRequest) -> AnimationFrames {
        let frames = AnimationFrames(request: request)
        let photo = table[request.photo]
        let budget = max(8 << 20, cache.limitBytes / 4)
        let make: @Sendable (Result<PhotoBytes, DecodeError>) -> Void = { [decoder, encoder, tell] bytes in
            WorkerThreads.start {
                defer {
                    frames.made.withLock { $0.finished = true }
                    tell.onFinish(request)
                }
                guard case .success(let bytes) = bytes, !frames.isCancelled else { return }
                let error = Result { () throws(DecodeError) in
                    try decoder.frames(of: photo, from: bytes) { frame in
                        guard !frames.isCancelled else { return false }
                        let index = frames.now.tiles.count
                        let tile = encoder.encode(frame.image, for: frames.request(ofFrame: index))
                        let more = frames.made.withLock { made -> Bool in
                            made.tiles.append(tile)
                            made.milliseconds.append(frame.milliseconds)
                            made.bytes += tile.byteCount
                            if made.tiles.count >= AnimationFrames.maxFrames {
                                made.cut = "first \(AnimationFrames.maxFrames) frames"
                            } else if made.bytes > budget {
                                made.cut = "first \(made.tiles.count) frames (memory)"
                            }
                            return made.cut == nil
                        }
                        tell.onFinish(request)
                        return more
                    }
                }
                if case .failure(let failure) = error, frames.now.tiles.count > 1 {
                    frames.made.withLock { $0.cut = "frames after \($0.tiles.count): \(failure.reason)" }
                }
            }
        }
        switch loader.load(photo, .original, then: make) {
        case .ready(let result): make(result)
        case .pending(let ticket): frames.load.withLock { $0 = ticket }
        }
        return frames
    }
}
