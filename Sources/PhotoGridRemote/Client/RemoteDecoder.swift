import PhotoGridCore
import GalleryFormats

/// Photos of a remote gallery for the pipeline: the smallest rendition that covers the tile,
/// downloaded (through the disk cache, one request per URL however many ask) and decoded here;
/// the original, whole, when there are no renditions; the first 64 KB of the original for an
/// EXIF thumbnail and details when the gallery says nothing of them.
package struct RemoteDecoder: PhotoDecoding {
    let fetcher: Fetching
    /// The gallery's photos by address; a gallery read again (`adopt`) adds to them.
    let photos: Locked<[String: RemotePhoto]>
    let decoder = PhotoDecoder(usesThumbnails: false, gate: MemoryGate())
    /// Where renditions are asked for in batches, when the gallery's server takes them.
    let batches: BatchFetcher?

    /// Larger images are refused: no photo needs more.
    package static let imageLimit = 128 * 1024 * 1024
    /// Enough for the EXIF segment (at most 64 KB) and the markers before it.
    package static let headLength = 64 * 1024

    package init(fetcher: Fetching, photos: [RemotePhoto], batches: BatchFetcher? = nil) {
        self.fetcher = fetcher
        self.batches = batches
        var map: [String: RemotePhoto] = [:]
        for photo in photos { map[RemoteDecoder.address(of: photo)] = photo }
        self.photos = Locked(map)
    }

    /// A remote photo's address in the grid (`PhotoSource.address`): its original's URL, which is
    /// also what `-o`, `o` and `y` hand on.
    package static func address(of photo: RemotePhoto) -> String { photo.original.description }

    /// What a manifest's photo is for the grid: a picture (decoded for what its bytes are) unless
    /// its name says video (photogrid serve and export list a folder's videos too).
    package static func format(of photo: RemotePhoto) -> ImageFormat {
        let named = ImageFormat(fileExtension: RawPath(photo.name).lowercasedExtension)
        return named.isVideo ? named : .jpeg
    }

    /// The photos of the gallery read again: new ones known, changed ones as they are now.
    package func adopt(_ photos: [RemotePhoto]) {
        self.photos.withLock { map in
            for photo in photos { map[RemoteDecoder.address(of: photo)] = photo }
        }
    }

    /// The gallery's photo behind a grid photo.
    func remote(_ photo: Photo) -> RemotePhoto? {
        guard case .address(let address) = photo.source else { return nil }
        return photos.withLock { $0[address] }
    }

    /// Downloads wait without a core; only the decode takes one.
    package var computesOnly: Bool { false }
    /// Decodes go through its PhotoDecoder's, which pass its gate.
    package var memoryGate: MemoryGate? { decoder.gate }

    /// What identifies the picture a tile of `photo` is made from, for the disk cache of tiles:
    /// the rendition the tile's size asks for (or the original) and what the HTTP cache knows
    /// of it. Nil unless it is kept and usable without asking, so that a tile is never drawn
    /// from a photo the server has since changed, beyond the freshness it gave.
    package func identity(of photo: Photo, for request: TileRequest) -> [UInt8]? {
        guard !photo.format.isVideo, let remote = remote(photo) else { return nil }
        let url = remote.hasRenditions ? remote.source(coveringShortSide: request.neededSize) : remote.original
        guard let validator = fetcher.validator(of: url) else { return nil }
        return Array(url.description.utf8) + [0] + validator
    }

    package var expects: Bool { batches != nil }

    /// The renditions the tiles about to be made need, asked for in one batch. Originals are
    /// not batched: each is a whole photo, asked for by its tile alone.
    package func expect(_ images: [ExpectedImage]) {
        guard let batches else { return }
        var urls: [RemoteURL] = []
        for image in images {
            guard !image.photo.format.isVideo, let remote = remote(image.photo), remote.hasRenditions else { continue }
            // A size no rendition covers (the zoom view of a large photo) takes the original.
            let url = remote.source(coveringShortSide: image.size)
            if url != remote.original { urls.append(url) }
        }
        batches.want(urls)
    }

    package func image(of photo: Photo, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        // A listing's files photogrid does not decode (a video, a TIFF) say what they are, as
        // locally; Enter plays a video from its URL.
        if photo.format.isVideo || !photo.format.isDecoded && photo.format != .notAnImage {
            throw .unsupportedFormat(photo.format.name)
        }
        guard let remote = remote(photo) else { throw .unreadable("not in the gallery") }
        // The pipeline told the batch what it wants just before this: once the batch has
        // claimed its renditions, this one's download joins it instead of asking alone.
        let url = remote.source(coveringShortSide: size)
        batches?.need(url)
        // The grid may have left the photo since this fetch started (the pipeline then cancels
        // it): the batch that was to bring it went with the move, and asking for it alone now
        // would fetch it for no one.
        if CancelFlag.current?.isCancelled == true { throw .cancelled }
        let body = try download(url, range: nil, limit: RemoteDecoder.imageLimit)
        return try CPUGate.shared.run { () throws(DecodeError) in try decoder.decode(body, covering: size, atMost: limit) }
    }

    /// The EXIF thumbnail in the original's first 64 KB, for a first picture while the whole
    /// original comes. Not asked for when the gallery has renditions: the smallest of those is
    /// about as quick to fetch as the head, and is the tile itself.
    package func thumbnail(of photo: Photo) -> RGBImage? {
        guard !photo.format.isVideo, let remote = remote(photo), !remote.hasRenditions, let head = try? download(remote.original, range: 0..<RemoteDecoder.headLength,
                                                                          limit: RemoteDecoder.headLength),
              let header = try? JPEG.readHeader(head) else { return nil }
        return CPUGate.shared.run { PhotoDecoder.thumbnail(header: header, data: head) }
    }

    package func info(of photo: Photo) -> PhotoInfo? {
        guard !photo.format.isVideo, let remote = remote(photo) else { return nil }
        // What the gallery says, else what the file's head does.
        if remote.width != nil && remote.height != nil {
            var info = PhotoInfo()
            info.width = remote.width
            info.height = remote.height
            // EXIF's form, as a local photo's: the panel shows them alike.
            info.dateTaken = remote.taken.map(RemoteDecoder.exifDate)
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
        guard let head = try? download(remote.original, range: 0..<RemoteDecoder.headLength, limit: RemoteDecoder.headLength) else {
            return nil
        }
        return PhotoInfo.read(head)
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

    /// A body, with network failures as decode errors (the tile's placeholder shows the reason).
    /// A server that ignores the range sends the whole file: only its head is kept.
    func download(_ url: RemoteURL, range: Range<Int>?, limit: Int) throws(DecodeError) -> [UInt8] {
        do throws(FetchError) {
            let result = try fetcher.get(url, range: range, limit: range == nil ? limit : RemoteDecoder.imageLimit)
            if let range, result.status == 200, result.body.count > range.count { return Array(result.body.prefix(range.count)) }
            return result.body
        } catch {
            throw .unavailable(error.reason, retryable: error.isTransient)
        }
    }
}
