import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// A tile of a photo outside the gallery's list (the raw file of a RAW+JPEG pair, shown in the
/// photo view in place of its JPEG), made on a thread of its own: loaded, decoded for the tile
/// and encoded as the pipeline's tiles are, the pipeline told when it is ready.
package final class AsideTile: Sendable {
    package let photo: Photo
    package let request: TileRequest
    private let made = Locked<Result<EncodedTile, DecodeError>?>(nil)
    private let load = Locked<LoadTicket?>(nil)

    init(photo: Photo, request: TileRequest) { (self.photo, self.request) = (photo, request) }

    /// The tile, or why it could not be made; nil while it is being made.
    package var result: Result<EncodedTile, DecodeError>? { made.withLock { $0 } }
    /// Lets go of its load, if it is still under way.
    package func cancel() { load.withLock { $0 }?.cancel() }

    fileprivate func finish(_ result: Result<EncodedTile, DecodeError>) { made.withLock { $0 = result } }
    fileprivate func hold(_ ticket: LoadTicket) { load.withLock { $0 = ticket } }
}

extension TilePipeline {
    /// Starts making `request` from `photo` instead of the photo the request names.
    package func makeAside(_ photo: Photo, for request: TileRequest) -> AsideTile {
        let aside = AsideTile(photo: photo, request: request)
        let size = request.neededSize
        let make: @Sendable (Result<PhotoBytes, DecodeError>) -> Void = { [decoder, encoder, tell] bytes in
            WorkerThreads.start {
                let tile = bytes.flatMap { bytes in
                    Result { () throws(DecodeError) in try decoder.image(of: photo, from: bytes, covering: size, atMost: size) }
                }.map { encoder.encode($0.image, for: request) }
                aside.finish(tile)
                tell.onFinish(request)
            }
        }
        switch loader.load(photo, .picture(covering: size), then: make) {
        case .ready(let result): make(result)
        case .pending(let ticket): aside.hold(ticket)
        }
        return aside
    }
}
