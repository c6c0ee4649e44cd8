import PhotoGridModel
import PhotoGridSystem

/// The formats other than JPEG: each decoded by its own library, to the short side the tile asks
/// for where the library can scale (PNG by rows, WebP while it decodes) and whole where it cannot
/// (GIF, HEIF), always under the decoder's memory gate with what the decode holds at its peak.
extension PhotoDecoder {
    /// The most pixels of a picture decoded whole at its full size (an interlaced PNG, a WebP, a
    /// GIF, a HEIF without a thumbnail large enough).
    static let wholeDecodeMaxPixels = 64_000_000

    /// `data` decoded as `format` (what its content says), upright, its short side between `size`
    /// and `limit` where the picture allows.
    static func decodeOther(_ format: ImageFormat, _ data: [UInt8], covering size: Int, atMost limit: Int,
                            thumbnails: Bool, gate: MemoryGate = .decodes) throws(DecodeError) -> DecodedImage {
        switch format {
        case .png: return try decodePNG(data, covering: size, atMost: limit, gate: gate)
        case .webp: return try decodeWebP(data, covering: size, atMost: limit, gate: gate)
        case .gif: return try decodeGIF(data, covering: size, atMost: limit, gate: gate)
        case .heif, .avif: return try decodeHEIF(data, covering: size, atMost: limit, thumbnails: thumbnails, gate: gate)
        case .tiff, .jxl: return try decodeWhole(format, data, atMost: limit, gate: gate)
        case .raw(let kind): return try decodeRAW(kind, data, covering: size, atMost: limit, gate: gate)
        case .jpeg: return try PhotoDecoder(gate: gate).decode(data, covering: size, atMost: limit)
        case .other(let name): throw .unsupportedFormat(name)
        case .notAnImage: throw .unsupportedFormat("")
        }
    }

    /// The size as displayed of the picture in `data`, whatever its format, from its header.
    package static func displaySize(of data: [UInt8]) throws(DecodeError) -> (width: Int, height: Int) {
        if let content = ImageFormat(content: Array(data.prefix(16))), content != .jpeg { return try displaySize(content, data) }
        guard let info = PhotoInfo.read(data) else { throw sniffOtherFormat(data).map { .unsupportedFormat($0) } ?? .notJPEG }
        guard let width = info.width, let height = info.height else { throw .truncated }
        return (width, height)
    }

    /// The size as displayed of a picture in `format`, from its header.
    static func displaySize(_ format: ImageFormat, _ data: [UInt8]) throws(DecodeError) -> (width: Int, height: Int) {
        switch format {
        case .png:
            let header = try PNG.readHeader(data)
            return orientation(of: EmbeddedMetadata.png(data)).displaySize(width: header.width, height: header.height)
        case .webp:
            let header = try WebP.readHeader(data)
            return orientation(of: EmbeddedMetadata.webp(data)).displaySize(width: header.width, height: header.height)
        case .gif: return try GIF.readHeader(data).size
        case .heif, .avif: return try HEIF.readHeader(data).size
        case .tiff: return try TIFF.readHeader(data).displaySize
        case .jxl:
            let header = try JXL.readHeader(data)
            return (header.width, header.height)
        case .raw:
            let header = try RAW.readHeader(data)
            return (header.width, header.height)
        case .jpeg, .other, .notAnImage: throw .unsupportedFormat(format.name)
        }
    }

    /// The details panel's facts for a file whose content is `format` (not JPEG): its size and
    /// what its EXIF and XMP say. PNG and WebP writers put their metadata before the pixels, so
    /// the first megabyte is read; libheif needs the whole file.
    static func otherInfo(_ format: ImageFormat, _ file: OpenFile) -> PhotoInfo? {
        switch format {
        case .png, .webp:
            guard let head = try? file.head(1 << 20) else { return nil }
            let found = format == .png ? EmbeddedMetadata.png(head) : EmbeddedMetadata.webp(head)
            let size = format == .png ? (try? PNG.readHeader(head))?.size : (try? WebP.readHeader(head))?.size
            return PhotoInfo(width: size?.width, height: size?.height, exif: found.exif, xmp: found.xmp)
        case .gif:
            // The screen descriptor and the global colour table: at most 781 bytes.
            guard let head = try? file.head(1024), let size = (try? GIF.readHeader(head))?.size else { return nil }
            return PhotoInfo(width: size.width, height: size.height, exif: nil, xmp: nil)
        case .heif, .avif:
            guard let data = try? file.all(), let header = try? HEIF.readHeader(data) else { return nil }
            let found = HEIF.metadata(data)
            return PhotoInfo(width: header.width, height: header.height, exif: found.exif, xmp: found.xmp, upright: true)
        case .tiff:
            // A TIFF's tags are its EXIF: the camera, the date and the orientation are read from
            // the file as from a JPEG's APP1. The tags of a photo come before its pixels in
            // practice; the whole file is read where they do not.
            guard let data = try? file.all(), let header = try? TIFF.readHeader(data) else { return nil }
            return PhotoInfo(width: header.width, height: header.height, exif: data, xmp: nil)
        case .jxl:
            guard let data = try? file.all(), let header = try? JXL.readHeader(data) else { return nil }
            return PhotoInfo(width: header.width, height: header.height, exif: nil, xmp: nil, upright: true)
        case .raw:
            return rawInfo(file)
        case .jpeg, .other, .notAnImage:
            return nil
        }
    }

    /// A TIFF's first page or a JPEG XL's first frame: made whole (neither library scales while
    /// it decodes), upright, then shrunk to `limit`. The gate counts the file, the whole picture
    /// (four bytes a pixel while it is made, three after) and the shrunk copy.
    static func decodeWhole(_ format: ImageFormat, _ data: [UInt8], atMost limit: Int, gate: MemoryGate = .decodes) throws(DecodeError) -> DecodedImage {
        let size = try displaySize(format, data)
        let pixels = size.width * size.height
        guard pixels <= wholeDecodeMaxPixels else { throw .tooLarge }
        let (kept, decodedWidth) = try gate.run(bytes: data.count + pixels * 7 + pixels * 3 / 4) { () throws(DecodeError) in
            let (image, profile) = format == .tiff ? try TIFF.decodeWithProfile(data) : try JXL.decodeWithProfile(data)
            return (ColourProfile.toSRGB(scaled(image, shortSide: limit), profile: profile), image.width)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: 8, scans: 1), isComplete: kept.width == decodedWidth)
    }

    static func orientation(of found: EmbeddedMetadata.Found) -> Orientation {
        found.exif.map { ExifInfo.parse($0).orientation } ?? .up
    }

    /// PNG data, its short side between `size` and `limit` where the image allows: rows are
    /// averaged in blocks as they are read (`PNG.decode`), by the largest whole factor that still
    /// covers `size`, then turned by the orientation of its `eXIf` chunk and resampled.
    static func decodePNG(_ data: [UInt8], covering size: Int, atMost limit: Int, gate: MemoryGate = .decodes) throws(DecodeError) -> DecodedImage {
        let header = try PNG.readHeader(data)
        let orientation = orientation(of: EmbeddedMetadata.png(data))
        // An interlaced PNG is decoded whole, four bytes a pixel: past 64 MP it is refused.
        guard !header.isInterlaced || header.width * header.height <= wholeDecodeMaxPixels else { throw .tooLarge }
        let shrink = max(1, min(header.width, header.height) / max(1, size))
        let rows = header.isInterlaced ? header.height : 1
        let shrunk = (header.width / shrink) * (header.height / shrink) * 3
        let bytes = data.count + header.width * rows * 4 + shrunk * (orientation == .up ? 1 : 2)
        let (kept, decodedWidth, partial) = try gate.run(bytes: bytes) { () throws(DecodeError) in
            let (decoded, partial) = try PNG.decodeWhatThereIs(data, shrink: shrink, cancel: CancelFlag.current)
            let image = orientation.apply(to: decoded)
            // Its colour profile, if any, on the pixels kept (`ColourProfile`).
            return (ColourProfile.toSRGB(scaled(image, shortSide: limit), profile: EmbeddedMetadata.pngProfile(data)), image.width, partial)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: max(1, 8 / shrink), scans: 1),
                            isComplete: shrink == 1 && kept.width == decodedWidth, isPartial: partial)
    }

    /// WebP data, its short side between `size` and `limit` where the picture allows: libwebp
    /// scales while it decodes, to the short side `size` asks for; then the orientation of its
    /// EXIF chunk turns it.
    static func decodeWebP(_ data: [UInt8], covering size: Int, atMost limit: Int, gate: MemoryGate = .decodes) throws(DecodeError) -> DecodedImage {
        let header = try WebP.readHeader(data)
        let orientation = orientation(of: EmbeddedMetadata.webp(data))
        let short = min(header.width, header.height)
        let target = min(short, max(1, size))
        let (width, height) = target < short ? ((header.width * target + short - 1) / short, (header.height * target + short - 1) / short)
                                             : (header.width, header.height)
        // libwebp keeps a lossless picture whole while it decodes, four bytes a pixel, whatever the
        // scale: counted so for every WebP, and refused past 64 MP.
        guard header.width * header.height <= wholeDecodeMaxPixels else { throw .tooLarge }
        let bytes = data.count + header.width * header.height * 4 + width * height * 7
        let (kept, decodedWidth, partial) = try gate.run(bytes: bytes) { () throws(DecodeError) in
            let (decoded, partial) = try WebP.decodeWhatThereIs(data, width: width, height: height)
            let image = orientation.apply(to: decoded)
            return (ColourProfile.toSRGB(scaled(image, shortSide: limit), profile: EmbeddedMetadata.webpProfile(data)), image.width, partial)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: 8, scans: 1),
                            isComplete: target == short && kept.width == decodedWidth, isPartial: partial)
    }

    /// A GIF's first frame, its rows averaged in blocks as they are read by the largest whole
    /// factor that still covers `size` (LZW cannot skip pixels), then resampled to `limit`.
    static func decodeGIF(_ data: [UInt8], covering size: Int, atMost limit: Int, gate: MemoryGate = .decodes) throws(DecodeError) -> DecodedImage {
        let header = try GIF.readHeader(data)
        let shrink = max(1, min(header.width, header.height) / max(1, size))
        // The frame's indices, and the sums a pixel of the shrunk frame.
        let pixels = max(1, min(header.width * header.height, GIF.maxPixels))
        let bytes = data.count + pixels + pixels / (shrink * shrink) * 27
        let (kept, decodedWidth) = try gate.run(bytes: bytes) { () throws(DecodeError) in
            let image = try GIF.decode(data, shrink: shrink)
            return (scaled(image, shortSide: limit), image.width)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: max(1, 8 / shrink), scans: 1),
                            isComplete: shrink == 1 && kept.width == decodedWidth)
    }

    /// HEIF or AVIF data: the embedded thumbnail when it covers `size` (phones write one of about
    /// 320 px), as EXIF thumbnails are used for JPEG; else the picture decoded whole (HEVC and AV1
    /// decoders do not scale) and shrunk to `limit`, upright. An AVIF's picture is decoded by
    /// libavif where it can (Sources/CAvif says why), else by libheif.
    static func decodeHEIF(_ data: [UInt8], covering size: Int, atMost limit: Int, thumbnails: Bool, gate: MemoryGate = .decodes) throws(DecodeError) -> DecodedImage {
        let header = try HEIF.readHeader(data)
        if thumbnails, let small = header.thumbnail, min(small.width, small.height) >= min(size, header.width, header.height),
           let thumbnail = try? HEIF.decode(data, thumbnail: true) {
            return DecodedImage(image: scaled(thumbnail, shortSide: limit), origin: .embeddedThumbnail)
        }
        let pixels = header.width * header.height
        guard pixels <= wholeDecodeMaxPixels else { throw .tooLarge }
        // Shrunk by the largest whole factor that still covers `size` as it is copied out.
        let shrink = max(1, min(header.width, header.height) / max(1, size))
        // The decoder's planes (three bytes a pixel covers 8-bit 4:4:4; deeper samples take two
        // bytes each) and libheif's interleaved output; our copy is already shrunk.
        let planes = header.bitDepth > 8 ? 6 : 3, output = header.hasAlpha ? 4 : 3
        let bytes = data.count + pixels * (planes + output) + pixels / (shrink * shrink) * 3
        let (kept, decodedWidth) = try gate.run(bytes: bytes) { () throws(DecodeError) in
            var image: RGBImage?
            if HEIF.formatName(data) == "AVIF" { image = try AVIF.decode(data, shrink: shrink, maxPixels: wholeDecodeMaxPixels) }
            if image == nil { image = try HEIF.decode(data, shrink: shrink) }
            guard let image else { throw DecodeError.corruptFile(format: HEIF.formatName(data), "no picture") }
            // An ICC profile (an iPhone's Display P3) on the pixels kept.
            return (ColourProfile.toSRGB(scaled(image, shortSide: limit), profile: header.profile), image.width)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: max(1, 8 / shrink), scans: 1),
                            isComplete: shrink == 1 && kept.width == decodedWidth)
    }
}
