import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Where a photo's bytes come from, apart from what they are (`PhotoDecoding`): a file on disk
/// (`FileLoader`), a remote gallery's server (`RemoteLoader`, beside it), or whatever
/// source comes next. The seam where tests put a fake.
///
/// A loader never makes its caller wait: what is at hand (a file, a cache) it returns at once
/// (`LoadStart.ready`); anything else it fetches on its own thread and hands to `then` when it
/// comes, and the pipeline decodes it then on a worker. So the pipeline runs one worker a core
/// however slow the network is.
package protocol PhotoLoading: Sendable {
    /// The bytes of `photo` that `want` needs.
    func load(_ photo: Photo, _ want: LoadWant, then: @escaping LoadCompletion) -> LoadStart
    /// What the gallery itself says of the photo (a manifest's size, date and camera), without
    /// its bytes; nil when its bytes must say it.
    func knownInfo(of photo: Photo) -> PhotoInfo?
    /// Whether it wants to hear of the images about to be asked for (`expect`).
    var expects: Bool { get }
    /// The images the pipeline is about to ask for, most urgent first, each time what is wanted
    /// changes or the list gains an image (not as images leave it, tile by tile): a remote
    /// gallery asks for them in one batch. Must return at once.
    func expect(_ images: [ExpectedImage])
    /// What identifies the picture a tile of `photo` is made from, for the disk cache of tiles
    /// when the photo is not a file (a remote rendition and its validator); nil when there is
    /// nothing usable without asking.
    func identity(of photo: Photo, for request: TileRequest) -> [UInt8]?
    /// Whether the gallery says the photo's file ends before its picture does (a served file
    /// still being copied): its pictures, whole renditions though they are, carry the damage mark.
    func isPartial(_ photo: Photo) -> Bool
}

extension PhotoLoading {
    package func knownInfo(of photo: Photo) -> PhotoInfo? { nil }
    package var expects: Bool { false }
    package func expect(_ images: [ExpectedImage]) {}
    package func identity(of photo: Photo, for request: TileRequest) -> [UInt8]? { nil }
    package func isPartial(_ photo: Photo) -> Bool { false }
}

/// What the pipeline wants of a photo's bytes.
package enum LoadWant: Sendable, Equatable {
    /// Enough to decode it so that its short side covers `size` pixels: a rendition that covers
    /// it, or the original.
    case picture(covering: Int)
    /// The whole original: the picture its first bytes could not give (a loader that answered
    /// `picture` with a head, as a remote original's byte range, is asked this next).
    case original
    /// What holds its embedded thumbnail: its first bytes (a remote original's byte range).
    case thumbnail
    /// What holds its details: its first bytes too.
    case details
}

package typealias LoadCompletion = @Sendable (Result<PhotoBytes, DecodeError>) -> Void

/// How a load began: answered at once, or under way (its answer goes to `then`).
package enum LoadStart: Sendable {
    case ready(Result<PhotoBytes, DecodeError>)
    case pending(LoadTicket)
}

/// A load under way: `cancel` says it is no longer wanted (its answer may still come).
package typealias LoadTicket = Ticket

/// An image the pipeline will ask a loader for: a photo, decoded to cover `size`.
package struct ExpectedImage: Sendable, Equatable {
    package var photo: Photo
    package var size: Int

    package init(photo: Photo, size: Int) {
        self.photo = photo
        self.size = size
    }
}
