import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

extension ImageFormat {
    package static let png = ImageFormat("PNG", .picture)
}

/// PNG, through libspng (`PNG`): rows averaged in blocks as they are read, by the largest whole
/// factor that still covers the tile, then turned by its `eXIf` orientation and resampled.
struct PNGFormat: FormatReader {
    let extensions: [String: ImageFormat] = ["png": .png]

    func format(of head: [UInt8]) -> ImageFormat? {
        head.starts(with: [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]) ? .png : nil
    }

    func reads(_ format: ImageFormat) -> Bool { format == .png }
    func mediaType(_ format: ImageFormat) -> String { "image/png" }

    func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage {
        let header = try PNG.readHeader(data)
        let orientation = orientation(of: EmbeddedMetadata.png(data))
        // An interlaced PNG is decoded whole, four bytes a pixel: past 64 MP it is refused.
        guard !header.isInterlaced || header.width * header.height <= PhotoDecoder.wholeDecodeMaxPixels else { throw .tooLarge }
        let shrink = max(1, min(header.width, header.height) / max(1, size))
        let rows = header.isInterlaced ? header.height : 1
        let shrunk = (header.width / shrink) * (header.height / shrink) * 3
        let bytes = data.count + header.width * rows * 4 + shrunk * (orientation == .up ? 1 : 2)
        let (kept, decodedWidth, partial) = try context.gate.run(bytes: bytes) { () throws(DecodeError) in
            let (decoded, partial) = try PNG.decodeWhatThereIs(data, shrink: shrink, cancel: CancelFlag.current)
            let image = orientation.apply(to: decoded)
            // Its colour description (a profile, sRGB, gAMA and cHRM), on the pixels kept.
            return (ColourProfile.toSRGB(PhotoDecoder.scaled(image, shortSide: limit), profile: EmbeddedMetadata.pngProfile(data)), image.width, partial)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: max(1, 8 / shrink), scans: 1),
                            isComplete: shrink == 1 && kept.width == decodedWidth, isPartial: partial)
    }

    func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int) {
        let header = try PNG.readHeader(data)
        return orientation(of: EmbeddedMetadata.png(data)).displaySize(width: header.width, height: header.height)
    }

    /// PNG writers put their metadata before the pixels: the first megabyte holds it.
    func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo? {
        guard let head = try? file.head(1 << 20) else { return nil }
        let found = EmbeddedMetadata.png(head), size = (try? PNG.readHeader(head))?.size
        return PhotoInfo(width: size?.width, height: size?.height, exif: found.exif, xmp: found.xmp)
    }
}
