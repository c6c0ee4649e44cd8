import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// A remote gallery's photo as the grid holds it (`PhotoSource.remote`): its record in the
/// gallery, reached from a `Photo` without a lookup.
package final class RemoteEntry: RemotePlace {
    package let photo: RemotePhoto

    package init(_ photo: RemotePhoto) { self.photo = photo }

    /// Its original's URL: what `-o`, `o` and `y` hand on.
    package var address: String { photo.original.description }
}

/// Bytes of a remote gallery's photos for the pipeline, through the fetcher (the disk cache, one
/// request per URL however many ask, never a waiting thread): the smallest rendition that covers
/// the tile; the original, whole, when there are no renditions; the original's first 64 KB for
/// its EXIF thumbnail and details when the gallery says nothing of them.
package struct RemoteLoader: PhotoLoading {
    let fetcher: Fetching
    /// Where renditions are asked for in batches, when the gallery's server takes them.
    let batches: BatchFetcher?

    /// Larger images are refused: no photo needs more.
    package static let imageLimit = 128 * 1024 * 1024
    /// Enough for the EXIF segment (at most 64 KB) and the markers before it.
    package static let headLength = 64 * 1024

    package init(fetcher: Fetching, batches: BatchFetcher? = nil) {
        self.fetcher = fetcher
        self.batches = batches
    }

    /// The grid's photo for a gallery's: a picture (decoded for what its bytes are) unless its
    /// name says otherwise (photogrid serve and export list a folder's videos too).
    package static func photo(_ remote: RemotePhoto, format: ImageFormat? = nil) -> Photo {
        Photo(remote: RemoteEntry(remote), relativePath: RawPath(remote.id), fileSize: remote.bytes ?? 0,
              format: format ?? RemoteLoader.format(of: remote))
    }

    /// What a manifest's photo is for the grid: a picture (decoded for what its bytes are) unless
    /// its name says video.
    package static func format(of photo: RemotePhoto) -> ImageFormat {
        let named = ImageFormat(fileExtension: RawPath(photo.name).lowercasedExtension)
        return named.isVideo ? named : .jpeg
    }

    /// The gallery's record behind a grid photo.
    static func remote(_ photo: Photo) -> RemotePhoto? { (photo.source.remote as? RemoteEntry)?.photo }

    /// What identifies the picture a tile of `photo` is made from, for the disk cache of tiles:
    /// the rendition the tile's size asks for (or the original) and what the HTTP cache knows
    /// of it. Nil unless it is kept and usable without asking, so that a tile is never drawn
    /// from a photo the server has since changed, beyond the freshness it gave.
    package func identity(of photo: Photo, for request: TileRequest) -> [UInt8]? {
        guard !photo.format.isVideo, let remote = RemoteLoader.remote(photo) else { return nil }
        let url = remote.hasRenditions ? remote.source(coveringShortSide: request.neededSize) : remote.original
        guard let validator = fetcher.validator(of: url) else { return nil }
        return Array(url.description.utf8) + [0] + validator
    }

    package var expects: Bool { batches != nil }

    /// Whether a photo's first bytes may hold a picture of it: a JPEG's EXIF thumbnail or first
    /// scans, a HEIF's thumbnail item. Its name says (a file whose name says nothing was found
    /// by its first bytes, which said JPEG or something else).
    static func hasThumbnailInHead(_ photo: RemotePhoto) -> Bool {
        switch ImageFormat(fileExtension: RawPath(photo.name).lowercasedExtension) {
        case .jpeg, .heif, .avif, .notAnImage: return true
        default: return false
        }
    }

    package func isPartial(_ photo: Photo) -> Bool { RemoteLoader.remote(photo)?.partial == true }

    /// The renditions the tiles about to be made need, asked for in one batch. Originals are
    /// not batched: each is a whole photo, asked for by its tile alone.
    package func expect(_ images: [ExpectedImage]) {
        guard let batches else { return }
        var urls: [RemoteURL] = []
        for image in images {
            guard !image.photo.format.isVideo, let remote = RemoteLoader.remote(image.photo), remote.hasRenditions else { continue }
            // A size no rendition covers (the zoom view of a large photo) takes the original.
            let url = remote.source(coveringShortSide: image.size)
            if url != remote.original { urls.append(url) }
        }
        batches.want(urls)
    }

    package func load(_ photo: Photo, _ want: LoadWant, then: @escaping LoadCompletion) -> LoadStart {
        // A listing's files photogrid does not decode (a video, a TIFF) say what they are, as
        // locally; Enter plays a video from its URL.
        if photo.format.isVideo || !photo.format.isDecoded && photo.format != .notAnImage {
            return .ready(.failure(.unsupportedFormat(photo.format.name)))
        }
        guard let remote = RemoteLoader.remote(photo) else { return .ready(.failure(.unreadable("not in the gallery"))) }
        switch want {
        case .picture(let size) where !remote.hasRenditions && RemoteLoader.hasThumbnailInHead(remote):
            // A listing's original: its first bytes hold its EXIF thumbnail, which may cover the
            // tile; the decoder says when it does not, and the pipeline asks for `original`.
            // A camera's preview, when the head points to one that may cover it, comes next.
            return headThenPreview(remote, size: size, then: then)
        case .picture(let size):
            // The pipeline told the batch what it wants just before this: once the batch has
            // claimed its renditions, this one's download joins it instead of asking alone.
            let url = remote.source(coveringShortSide: size)
            batches?.need(url)
            return fetch(url, range: nil, then: then) { .whole($0) }
        case .original:
            return fetch(remote.original, range: nil, then: then) { .whole($0) }
        case .thumbnail where remote.hasRenditions:
            // The smallest rendition is about as quick to fetch as the head, and is the tile itself.
            return .ready(.failure(.unsupportedFormat("")))
        case .thumbnail, .details:
            return fetch(remote.original, range: 0..<RemoteLoader.headLength, then: then) { .head($0, fileSize: remote.bytes) }
        }
    }

    /// What the gallery says of the photo: its size, date, camera and caption, when it gives its size.
    package func knownInfo(of photo: Photo) -> PhotoInfo? {
        guard !photo.format.isVideo, let remote = RemoteLoader.remote(photo), remote.width != nil && remote.height != nil else { return nil }
        var info = PhotoInfo()
        info.width = remote.width
        info.height = remote.height
        // EXIF's form, as a local photo's: the panel shows them alike.
        info.dateTaken = remote.taken.map(RemoteLoader.exifDate)
        info.caption = remote.caption
        info.captionSource = remote.caption == nil ? nil : .gallery
        info.latitude = remote.latitude
        info.longitude = remote.longitude
        if let camera = remote.camera {
            (info.make, info.model, info.lens, info.iso) = (camera.make, camera.model, camera.lens, camera.iso)
            (info.fNumber, info.exposureTime, info.focalLength) = (camera.aperture, camera.exposure, camera.focalLength)
        }
        return info
    }

    /// "2024-07-14T19:42:05" as EXIF writes it, "2024:07:14 19:42:05"; anything else as it is.
    static func exifDate(_ iso: String) -> String {
        var chars = Array(iso.utf8)
        guard chars.count == 19, chars[4] == UInt8(ascii: "-"), chars[7] == UInt8(ascii: "-"), chars[10] == UInt8(ascii: "T") else { return iso }
        chars[4] = UInt8(ascii: ":")
        chars[7] = UInt8(ascii: ":")
        chars[10] = UInt8(ascii: " ")
        return String(decoding: chars, as: UTF8.self)
    }

    /// A body through the fetcher, with network failures as decode errors (the tile's
    /// placeholder shows the reason).
    func fetch(_ url: RemoteURL, range: Range<Int>?, then: @escaping LoadCompletion,
                       as bytes: @escaping @Sendable ([UInt8]) -> PhotoBytes) -> LoadStart {
        fetch(url, range: range, then: then, answer: { bytes($0.body) })
    }

    /// The same, made from the whole answer (its status says whether a range was honoured).
    func fetch(_ url: RemoteURL, range: Range<Int>?, then: @escaping LoadCompletion,
               answer: @escaping @Sendable (FetchResult) -> PhotoBytes) -> LoadStart {
        let convert: @Sendable (Result<FetchResult, FetchError>) -> Result<PhotoBytes, DecodeError> = { result in
            result.map(answer).mapError(RemoteLoader.decodeError)
        }
        let limit = range?.count ?? RemoteLoader.imageLimit
        switch fetcher.get(url, range: range, limit: limit, then: { then(convert($0)) }) {
        case .done(let result): return .ready(convert(result))
        case .pending(let ticket): return .pending(LoadTicket { ticket.cancel() })
        }
    }

    static func decodeError(_ error: FetchError) -> DecodeError {
        if case .cancelled = error { return .cancelled }
        return .unavailable(error.reason, retryable: error.isTransient)
    }
}
