import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A photo decoded for the caches: upright, its short side at least what was asked for (unless
/// the photo is smaller) and at most the limit given.
package struct DecodedImage: Sendable {
    package enum Origin: Equatable, Sendable {
        /// The thumbnail embedded in the file (EXIF's, HEIF's) was large enough: the photo itself was not read.
        case embeddedThumbnail
        /// A camera's larger preview (`MultiPicture`) was large enough: the photo itself was not read.
        case embeddedPreview
        /// Decoded from the file at this DCT scale, reading this many scans.
        case file(scaleEighths: Int, scans: Int)
        /// Read back from the disk cache.
        case diskCache
    }

    package var image: RGBImage
    package var origin: Origin
    /// The photo at its full size: no larger image of it exists.
    package var isComplete: Bool
    /// The file ends before the picture does (still being copied or synced): this is what
    /// decoded of it, the rest left grey; its tiles carry a mark saying so.
    package var isPartial: Bool

    package init(image: RGBImage, origin: Origin, isComplete: Bool = false, isPartial: Bool = false) {
        self.image = image
        self.origin = origin
        self.isComplete = isComplete && !isPartial
        self.isPartial = isPartial
    }

    /// Whether tiles `size` pixels wide and tall can be cut from it without enlarging.
    package func covers(_ size: Int) -> Bool { isComplete || min(image.width, image.height) >= size }
}

/// Makes images of photos for the pipeline from what a loader hands it (`PhotoBytes`): pure
/// work on the per-core pool, never a wait for bytes. The seam where tests put a fake.
package protocol PhotoDecoding: Sendable {
    /// The photo upright, its short side at least `size` pixels (its own size, when smaller) and
    /// at most `limit`: decoded for `size`, kept up to `limit` so that larger tiles can use it too.
    func image(of photo: Photo, from bytes: PhotoBytes, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage
    /// The photo's embedded EXIF thumbnail, upright and cut to the photo's shape; nil when there is none.
    func thumbnail(of photo: Photo, from bytes: PhotoBytes) -> RGBImage?
    /// What the photo's bytes say about it (size, date, camera, caption...); nil if it is no picture photogrid reads.
    func info(of photo: Photo, from bytes: PhotoBytes) -> PhotoInfo?
    /// The gate its decodes pass (`MemoryGate.decodes` for libjpeg's), if any: the pipeline
    /// leaves room in the budget for the largest of its recent decodes.
    var memoryGate: MemoryGate? { get }
    /// An animation's frames (`Animation.frames`), each handed to `each` until it returns false;
    /// none for a still picture.
    func frames(of photo: Photo, from bytes: PhotoBytes, each: (Animation.Frame) -> Bool) throws(DecodeError)
}

extension PhotoDecoding {
    package func frames(of photo: Photo, from bytes: PhotoBytes, each: (Animation.Frame) -> Bool) throws(DecodeError) {}
}

extension PhotoDecoding {
    /// The file's own details, with the caption of its XMP sidecar first where it has one; the
    /// details in the bytes in memory for a photo that is not a file.
    package func info(of photo: Photo, from bytes: PhotoBytes) -> PhotoInfo? {
        guard case .file(let path) = bytes else { return bytes.inMemory.flatMap(PhotoDecoder.readInfo(inMemory:)) }
        if let info = PhotoDecoder.readInfo(photo, path: path) { return info.withSidecar(of: photo) }
        // A file photogrid does not read (a video) has for details only its sidecar's caption.
        let sidecarOnly = PhotoInfo().withSidecar(of: photo)
        return sidecarOnly.caption == nil ? nil : sidecarOnly
    }

    package var memoryGate: MemoryGate? { nil }
}

/// Decodes photo files with libjpeg-turbo, doing as little work as the size asked for allows:
/// the EXIF thumbnail when it is large enough; else the smallest DCT scale whose output still
/// covers the size, with the fast IDCT and plain upsampling at the two smallest scales, and for
/// progressive files at those scales only the scans that carry the coefficients they use. The
/// result is turned upright and resampled to size.
package struct PhotoDecoder: PhotoDecoding {
    package var memoryGate: MemoryGate? { gate }
    /// What its decodes pass: a session's own (`fit` to its budget), else the process's.
    package let gate: MemoryGate
    /// Off for benchmarks that measure decoding itself.
    package var usesThumbnails: Bool
    /// Off for benchmarks that measure libjpeg's full decode.
    package var usesShortcuts: Bool

    package init(usesThumbnails: Bool = true, usesShortcuts: Bool = true, gate: MemoryGate = .decodes) {
        self.usesThumbnails = usesThumbnails
        self.usesShortcuts = usesShortcuts
        self.gate = gate
    }

    /// Bytes read first: enough for the markers before the image data of nearly every file, the
    /// EXIF segment (at most 64 KB) with its thumbnail among them.
    static let headLength = 128 * 1024

    /// A photo's file, for what only a file can do (a video's frame, `--print`'s single photo).
    static func file(of photo: Photo) throws(DecodeError) -> RawPath {
        guard let path = photo.file else { throw .unreadable("not a file: " + photo.source.description) }
        return path
    }

    package func image(of photo: Photo, from bytes: PhotoBytes, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        switch bytes {
        case .file(let path): return try image(of: photo, file: path, covering: size, atMost: limit)
        case .whole(let data):
            if photo.format.isRaw { return try PhotoDecoder.decode(data, as: photo.format, covering: size, atMost: limit, thumbnails: usesThumbnails, gate: gate) }
            return try decode(data, covering: size, atMost: limit)
        case .head(let data, _):
            // A small file's preview may lie inside its head.
            return try decodeHead(data, covering: size, atMost: limit) { $0.upperBound <= data.count ? Array(data[$0]) : nil }
        case .preview(let head, let preview):
            return try decodeHead(head, covering: size, atMost: limit) { $0.count == preview.count ? preview : nil }
        }
    }

    /// A photo that is a file, read in place.
    package func image(of photo: Photo, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        try image(of: photo, file: try PhotoDecoder.file(of: photo), covering: size, atMost: limit)
    }

    private func image(of photo: Photo, file path: RawPath, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        // Opened without the size limit first: a 4 GB video is a video, not a file too large.
        let file = try OpenFile(path, limit: .max)
        // The content says what the file is, whatever its name.
        let magic = try file.head(16)
        // A raw file goes by its name: many are TIFFs inside.
        let content = photo.format.isRaw ? photo.format : ImageFormat(content: magic)
        // A video: a frame from ffmpeg when it is there, else a tile that says what it is.
        if content?.isVideo == true || (content == nil && photo.format.isVideo) {
            return try PhotoDecoder.videoFrame(photo, name: (content ?? photo.format).name, atMost: limit)
        }
        // A picture format photogrid does not decode: said at once, nothing more read.
        if let content, !content.isDecoded { throw .unsupportedFormat(content.name) }
        guard file.size <= FileReader.defaultLimit else { throw .tooLarge }
        if let content, content != .jpeg {
            let decoded = try PhotoDecoder.decode(try file.all(), as: content, covering: size, atMost: limit, thumbnails: usesThumbnails, gate: gate)
            return PhotoDecoder.turnedBySidecar(decoded, photo: photo, path: path)
        }
        if content == nil { try PhotoDecoder.checkFormat(photo, head: magic) }
        let (head, header) = try PhotoDecoder.header(of: file)
        // A file still being copied shows what it has, marked, not its thumbnail: whole it is not.
        let reachesEnd = { () throws(DecodeError) -> Bool in
            if JPEGSegments.endsWithEOI(try file.tail(2)) { return true }
            return JPEGSegments.reachesEnd(try file.all())
        }
        if usesThumbnails, PhotoDecoder.thumbnailMayCover(header, size), let thumbnail = PhotoDecoder.thumbnail(header: header, data: head),
           min(thumbnail.width, thumbnail.height) >= min(size, header.width, header.height), try reachesEnd() {
            return DecodedImage(image: PhotoDecoder.scaled(thumbnail, shortSide: limit), origin: .embeddedThumbnail)
        }
        // The preview lies after the photo: read whole, the file was copied that far.
        if let preview = try preview(header, covering: size, atMost: limit, read: { file.bytes(in: $0) }) { return preview }
        // libjpeg reads the file itself, in chunks: no copy of it all in memory (but for a
        // baseline file at 1/8, which `JPEGEighth` reads whole: its scan is most of it).
        return try decode(header: header, covering: size, atMost: limit, fileSize: file.size, whole: { () throws(DecodeError) in try file.all() },
                          prefix: { count in try? file.head(count) }, reachesEnd: reachesEnd) { options throws(DecodeError) in
            try file.withDescriptor { fd throws(DecodeError) in try JPEG.decode(descriptor: fd, options: options) }
        }
    }

    /// Past this, markers before the frame header are not read on: no real file has this much.
    static let longestHead = 16 * 1024 * 1024

    /// The file's first bytes and the header they hold. When the markers run past them (huge
    /// ICC or XMP segments), four times as much is read, up to `longestHead`; any other failure
    /// is the answer already, so a file of random bytes is never read whole.
    static func header(of file: OpenFile) throws(DecodeError) -> (head: [UInt8], header: JPEG.Header) {
        var length = headLength
        while true {
            let head = try file.head(length)
            if let format = sniffOtherFormat(head) { throw .unsupportedFormat(format) }
            do throws(DecodeError) {
                return (head, try JPEG.readHeader(head))
            } catch .truncated where head.count < file.size {
                guard length < longestHead else { throw .corrupt("no frame header in the first 16 MB") }
                length *= 4
            }
        }
    }

    /// What a photo's file says about itself (`FormatReader.info`).
    package static func readInfo(_ photo: Photo) -> PhotoInfo? {
        photo.file.flatMap { readInfo(photo, path: $0) }
    }

    /// The details in a photo's bytes in memory (downloaded whole, or its head).
    package static func readInfo(inMemory data: [UInt8]) -> PhotoInfo? {
        if let content = ImageFormat(content: Array(data.prefix(16))), content != .jpeg {
            guard let size = try? displaySize(content, data) else { return nil }
            var info = PhotoInfo()
            (info.width, info.height) = (size.width, size.height)
            return info
        }
        return PhotoInfo.read(data)
    }

    static func readInfo(_ photo: Photo, path: RawPath) -> PhotoInfo? {
        // A video: its size and length, from ffprobe where ffmpeg is installed.
        if photo.format.isVideo { return VideoFrame.info(of: path) }
        guard photo.format.isDecoded, let file = try? OpenFile(path) else { return nil }
        // A raw file by its name; any other by its content, which says what it is whatever its name.
        let content = photo.format.isRaw ? photo.format : (try? file.head(16)).flatMap { ImageFormat(content: $0) } ?? .jpeg
        return Formats.reader(for: content)?.info(file, content)
    }

    package func thumbnail(of photo: Photo, from bytes: PhotoBytes) -> RGBImage? {
        guard photo.format == .jpeg || photo.format == .heif || photo.format == .avif, let reader = Formats.reader(for: photo.format) else { return nil }
        // A JPEG's thumbnail is in its head; libheif needs the whole file.
        let data: [UInt8]?
        switch bytes {
        case .file(let path):
            data = photo.format == .jpeg ? try? FileReader.read(path, limit: FileReader.defaultLimit, prefix: PhotoDecoder.headLength)
                                         : try? FileReader.read(path)
        case .whole(let whole): data = whole
        case .head(let head, _), .preview(let head, _): data = photo.format == .jpeg ? head : nil
        }
        let thumbnail = data.flatMap { reader.thumbnail($0, photo.format) }
        // A HEIF turned in its sidecar: its thumbnail as the photo is shown.
        if photo.format != .jpeg, let thumbnail, case .file(let path) = bytes {
            return PhotoDecoder.turnedBySidecar(DecodedImage(image: thumbnail, origin: .embeddedThumbnail), photo: photo, path: path).image
        }
        return thumbnail
    }

    /// A picture that is not a JPEG, stood up by its file, turned further as its sidecar's
    /// `tiff:Orientation` says (`[` `]` write it, as Lightroom and digiKam do, for a photo whose
    /// file photogrid does not turn). The value is absolute, as EXIF's is: what the file's own
    /// orientation did is undone first. JPEGs are turned in their files and skip this; raw
    /// files too, whose sidecars belong to the raw developer (darktable, Lightroom) and whose
    /// own orientation LibRaw applies out of sight of the header photogrid reads.
    static func turnedBySidecar(_ decoded: DecodedImage, photo: Photo, path: RawPath) -> DecodedImage {
        guard !photo.format.isRaw, let wanted = Sidecar.orientation(of: path) else { return decoded }
        let own = readInfo(photo, path: path)?.orientation ?? .up
        let extra = wanted.relative(to: own)
        guard extra != .up else { return decoded }
        var turned = decoded
        turned.image = extra.apply(to: decoded.image)
        return turned
    }

    /// A photo that is a file: its EXIF thumbnail.
    package func thumbnail(of photo: Photo) -> RGBImage? {
        photo.file.flatMap { thumbnail(of: photo, from: .file($0)) }
    }

    /// A photo that is a file: its details.
    package func info(of photo: Photo) -> PhotoInfo? {
        photo.file.flatMap { info(of: photo, from: .file($0)) }
    }

    /// What a photo's first bytes show of it: its EXIF thumbnail when that covers `size` (or the
    /// photo is no larger); else, for a progressive JPEG decoded at an eighth or a quarter of its
    /// size, its first scans when they are all in the head (they hold the whole picture at that
    /// scale). Else the head is too little: `truncated`, and the loader brings more.
    func decodeHead(_ data: [UInt8], covering size: Int, atMost limit: Int,
                    preview read: (Range<Int>) -> [UInt8]? = { _ in nil }) throws(DecodeError) -> DecodedImage {
        if let content = ImageFormat(content: Array(data.prefix(16))), content != .jpeg {
            guard content.isDecoded else { throw .unsupportedFormat(content.name) }
            // A HEIF's thumbnail item, when the head holds it (phones put it before the picture).
            if content == .heif || content == .avif, usesThumbnails, let thumbnail = Formats.reader(for: content)?.thumbnail(data, content),
               min(thumbnail.width, thumbnail.height) >= size {
                return DecodedImage(image: PhotoDecoder.scaled(thumbnail, shortSide: limit), origin: .embeddedThumbnail)
            }
            throw .truncated
        }
        if let format = PhotoDecoder.sniffOtherFormat(data) { throw .unsupportedFormat(format) }
        let header = try JPEG.readHeader(data)
        if PhotoDecoder.thumbnailMayCover(header, size), let thumbnail = PhotoDecoder.thumbnail(header: header, data: data),
           min(thumbnail.width, thumbnail.height) >= min(size, header.width, header.height) {
            return DecodedImage(image: PhotoDecoder.scaled(thumbnail, shortSide: limit), origin: .embeddedThumbnail)
        }
        if let preview = try preview(header, covering: size, atMost: limit, read: read) { return preview }
        let scale = PhotoDecoder.scaleEighths(forFactor: Double(size) / Double(min(header.width, header.height)))
        guard usesShortcuts, header.isProgressive, scale <= 2 else { throw .truncated }
        var options = JPEG.DecodeOptions(scaleEighths: scale)
        options.cancel = CancelFlag.current
        (options.fast, options.partialScans) = (true, true)
        // Past the scans it needs, libjpeg stops; a head that ends before them is `truncated`.
        let dcOnly = PhotoDecoder.readsDCOnly(options)
        let (decoded, scans) = try gate.run(bytes: PhotoDecoder.decodeBytes(header, scale: scale, dcOnly: dcOnly)) { () throws(DecodeError) in
            if dcOnly, let picture = try JPEGEighth.decode(maxPixels: options.maxPixels, cancel: options.cancel, prefix: { _ in data }) { return picture }
            return try JPEG.decodeCountingScans(data, options: options)
        }
        let orientation = header.exif.map { ExifInfo.parse($0).orientation } ?? .up
        return DecodedImage(image: PhotoDecoder.scaled(orientation.apply(to: decoded), shortSide: limit), origin: .file(scaleEighths: scale, scans: scans))
    }

    /// A video's frame (`VideoFrame`), its short side at most `limit`; where there is no ffmpeg
    /// or it gives no frame, the video's name as the failure, which its tile shows.
    static func videoFrame(_ photo: Photo, name: String, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        guard VideoFrame.isInstalled else { throw .unsupportedFormat(name) }
        let frame: RGBImage?
        do { frame = try VideoFrame.frame(of: try file(of: photo), shortSide: limit, format: name) } catch .cancelled {
            throw .cancelled
        } catch .corruptFile(let format, let detail) {
            // A broken (or fake) video says so: Enter would play nothing.
            throw .corruptFile(format: format, detail)
        } catch { frame = nil }
        guard let frame else { throw .unsupportedFormat(name) }
        // Asked for at most `limit`: a smaller frame is the video's own size.
        return DecodedImage(image: scaled(frame, shortSide: limit), origin: .file(scaleEighths: 8, scans: 1),
                            isComplete: min(frame.width, frame.height) < min(limit, VideoFrame.maxShortSide))
    }

    /// Decodes a picture's data upright, its short side between `size` and `limit` where the
    /// photo allows: in whatever format its content says, JPEG where it says none.
    package func decode(_ data: [UInt8], covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        if let content = ImageFormat(content: Array(data.prefix(16))), content != .jpeg {
            return try PhotoDecoder.decode(data, as: content, covering: size, atMost: limit, thumbnails: usesThumbnails, gate: gate)
        }
        return try decodeJPEG(data, covering: size, atMost: limit)
    }

    /// JPEG data upright, its short side between `size` and `limit` where the photo allows.
    func decodeJPEG(_ data: [UInt8], covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        if let format = PhotoDecoder.sniffOtherFormat(data) { throw .unsupportedFormat(format) }
        let header = try JPEG.readHeader(data)
        if let preview = try preview(header, covering: size, atMost: limit, read: { $0.upperBound <= data.count ? Array(data[$0]) : nil }) {
            return preview
        }
        return try decode(header: header, covering: size, atMost: limit, fileSize: data.count, whole: { () throws(DecodeError) in data },
                          prefix: { _ in data }, reachesEnd: { () throws(DecodeError) in JPEGSegments.reachesEnd(data) }) { options throws(DecodeError) in
            try JPEG.decodeCountingScans(data, options: options)
        }
    }

    /// The decode itself, from whichever source: the scale, the shortcuts, orientation and size.
    /// `prefix(n)` gives the file's first `n` bytes or more, for a decode that reads only its
    /// first scans (`JPEGEighth`). `reachesEnd` says whether the file runs to its end, asked
    /// when the decode did not read that far (a progressive file's first scans only).
    private func decode(header: JPEG.Header, covering size: Int, atMost limit: Int, fileSize: Int, whole: () throws(DecodeError) -> [UInt8],
                        prefix: (Int) -> [UInt8]?, reachesEnd: () throws(DecodeError) -> Bool,
                        _ source: (JPEG.DecodeOptions) throws(DecodeError) -> (image: RGBImage, scans: Int)) throws(DecodeError) -> DecodedImage {
        let orientation = header.exif.map { ExifInfo.parse($0).orientation } ?? .up
        let short = min(header.width, header.height)
        let scale = PhotoDecoder.scaleEighths(forFactor: Double(size) / Double(short))
        var options = JPEG.DecodeOptions(scaleEighths: scale)
        options.cancel = CancelFlag.current
        if usesShortcuts {
            options.fast = scale <= 2
            options.partialScans = scale <= 2
        }
        // At 1/8 a progressive file's first DC scans are the picture, read without libjpeg's
        // coefficients for all of it, and a sequential file's DC coefficients are, its AC ones
        // passed over unread; libjpeg reads what `JPEGEighth` does not. A sequential scan is
        // most of its file: read whole at once.
        var early: (image: RGBImage, scans: Int)? = nil
        if PhotoDecoder.readsDCOnly(options) {
            let wholeFile = header.isProgressive ? 0 : fileSize
            early = try gate.run(bytes: PhotoDecoder.decodeBytes(header, scale: 1, dcOnly: true) + wholeFile) { () throws(DecodeError) in
                if header.isProgressive {
                    return try JPEGEighth.decode(maxPixels: options.maxPixels, cancel: options.cancel, prefix: prefix)
                }
                let data = try whole()
                return try JPEGEighth.decode(maxPixels: options.maxPixels, cancel: options.cancel, prefix: { _ in data })
            }
        }
        let (kept, uprightWidth, scans, partial) = try gate.run(bytes: PhotoDecoder.decodeBytes(header, scale: scale, dcOnly: early != nil)) {
            () throws(DecodeError) in
            // A file cut short (still being copied) is decoded again for what it has: libjpeg
            // then ends the data where the file does and leaves the rest grey.
            var partial = false
            let (decoded, scans): (RGBImage, Int)
            do throws(DecodeError) {
                if let early { (decoded, scans) = early } else { (decoded, scans) = try source(options) }
            } catch .truncated {
                options.allowTruncated = true
                partial = true
                do throws(DecodeError) {
                    (decoded, scans) = try source(options)
                } catch .corrupt {
                    // Cut inside a marker segment (a progressive file's tables between scans):
                    // what comes before that marker is whole.
                    let data = try whole()
                    guard let end = JPEGSegments.lastMarker(in: data) else { throw .truncated }
                    (decoded, scans) = try JPEG.decodeCountingScans(Array(data[..<end]), options: options)
                }
            }
            // Its first scans were enough: the rest of the file, cut or not, was never read.
            if !partial, options.partialScans, header.isProgressive, try !reachesEnd() { partial = true }
            // Shrunk from the picture's own extent at this scale, not libjpeg's rounded-up output
            // (`shrink`), then turned; converted to sRGB once shrunk: the pixels kept.
            let whole = Resampler.Region(x: 0, y: 0, width: Double(header.width), height: Double(header.height))
            let upright = orientation.apply(to: PhotoDecoder.shrink(decoded, region: whole, scale: scale, shortSide: limit, keepsPadding: true))
            let uprightWidth = orientation.displaySize(width: decoded.width, height: decoded.height).width
            return (ColourProfile.toSRGB(upright, profile: header.icc), uprightWidth, scans, partial)
        }
        let complete = scale == 8 && kept.width == uprightWidth
        return DecodedImage(image: kept, origin: .file(scaleEighths: scale, scans: scans), isComplete: complete, isPartial: partial)
    }

    /// Whether a decode with `options` is a JPEG's DC coefficients at 1/8, which `JPEGEighth`
    /// reads (the fast settings, whose output it matches or, for a sequential file's subsampled
    /// colour, nearly matches): a progressive file's first DC scans, a sequential file's blocks.
    static func readsDCOnly(_ options: JPEG.DecodeOptions) -> Bool {
        options.partialScans && options.fast && options.scaleEighths == 1 && !options.allowTruncated
    }

    /// What a decode at `scale` eighths uses while it runs, at most: a progressive file's
    /// coefficients (two bytes each: three bytes a pixel at 4:2:0, six with three full-size
    /// components; the header does not say which, so six), libjpeg's output, our copy of it and
    /// the turned and shrunk images made from it.
    /// Read by `JPEGEighth` (`dcOnly`): a 4-byte DC coefficient a block of each of three
    /// components, and the first megabyte or so of the file.
    static func decodeBytes(_ header: JPEG.Header, scale: Int, dcOnly: Bool = false) -> Int {
        let pixels = header.width * header.height
        let coefficients = dcOnly ? pixels / 64 * 4 * 3 + (1 << 20)
            : header.isProgressive ? pixels * 2 * (header.components >= 3 ? 3 : 1) : 0
        let output = (header.width * scale / 8) * (header.height * scale / 8) * 3
        return coefficients + 3 * output
    }
}
