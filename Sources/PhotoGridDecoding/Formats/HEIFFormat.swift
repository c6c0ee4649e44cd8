import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

extension ImageFormat {
    package static let heif = ImageFormat("HEIF", .picture)
    package static let avif = ImageFormat("AVIF", .picture)
}

/// HEIC and AVIF, ISO media known by their brand (every MP4 video begins with `ftyp` too):
/// through libheif and libde265 (`HEIF`), an AVIF's picture through libavif (`AVIF`). The
/// embedded thumbnail when it covers the tile (phones write one of about 320 px), else the
/// picture decoded whole (HEVC and AV1 decoders do not scale) and shrunk, upright.
struct HEIFFormat: FormatReader {
    let extensions: [String: ImageFormat] = ["heic": .heif, "heif": .heif, "hif": .heif, "avif": .avif]

    func format(of head: [UInt8]) -> ImageFormat? {
        guard head.count >= 12, head[4..<8].elementsEqual("ftyp".utf8) else { return nil }
        let brand = String(decoding: head[8..<12], as: UTF8.self)
        if ["heic", "heix", "heim", "heis", "hevc", "hevx", "mif1", "msf1"].contains(brand) { return .heif }
        if brand == "avif" || brand == "avis" { return .avif }
        return nil
    }

    func reads(_ format: ImageFormat) -> Bool { format == .heif || format == .avif }
    func mediaType(_ format: ImageFormat) -> String { format == .avif ? "image/avif" : "image/heic" }

    func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage {
        let header = try HEIF.readHeader(data)
        if context.thumbnails, let small = header.thumbnail, min(small.width, small.height) >= min(size, header.width, header.height),
           let thumbnail = try? HEIF.decode(data, thumbnail: true) {
            return DecodedImage(image: PhotoDecoder.scaled(thumbnail, shortSide: limit), origin: .embeddedThumbnail)
        }
        let pixels = header.width * header.height
        guard pixels <= PhotoDecoder.wholeDecodeMaxPixels else { throw .tooLarge }
        // Shrunk by the largest whole factor that still covers `size` as it is copied out.
        let shrink = max(1, min(header.width, header.height) / max(1, size))
        // The decoder's planes (three bytes a pixel covers 8-bit 4:4:4; deeper samples take two
        // bytes each) and libheif's interleaved output; our copy is already shrunk.
        let planes = header.bitDepth > 8 ? 6 : 3, output = header.hasAlpha ? 4 : 3
        let bytes = data.count + pixels * (planes + output) + pixels / (shrink * shrink) * 3
        let (kept, decodedWidth) = try context.gate.run(bytes: bytes) { () throws(DecodeError) in
            var image: RGBImage?
            if HEIF.formatName(data) == "AVIF" { image = try AVIF.decode(data, shrink: shrink, maxPixels: PhotoDecoder.wholeDecodeMaxPixels) }
            if image == nil { image = try HEIF.decode(data, shrink: shrink) }
            guard let image else { throw DecodeError.corruptFile(format: HEIF.formatName(data), "no picture") }
            // An ICC profile (an iPhone's Display P3) on the pixels kept.
            return (ColourProfile.toSRGB(PhotoDecoder.scaled(image, shortSide: limit), profile: header.profile), image.width)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: max(1, 8 / shrink), scans: 1),
                            isComplete: shrink == 1 && kept.width == decodedWidth)
    }

    func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int) {
        try HEIF.readHeader(data).size
    }

    /// libheif needs the whole file.
    func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo? {
        guard let data = try? file.all(), let header = try? HEIF.readHeader(data) else { return nil }
        let found = HEIF.metadata(data)
        return PhotoInfo(width: header.width, height: header.height, exif: found.exif, xmp: found.xmp, upright: true)
    }

    func thumbnail(_ data: [UInt8], _ format: ImageFormat) -> RGBImage? { try? HEIF.decode(data, thumbnail: true) }
}
