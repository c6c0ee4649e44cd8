import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

extension ImageFormat {
    package static let webp = ImageFormat("WebP", .picture)
}

/// WebP, through libwebp (`WebP`): scaled while it decodes, to the short side the tile asks for;
/// then the orientation of its EXIF chunk turns it.
struct WebPFormat: FormatReader {
    let extensions: [String: ImageFormat] = ["webp": .webp]

    func format(of head: [UInt8]) -> ImageFormat? {
        head.count >= 12 && head.starts(with: Array("RIFF".utf8)) && head[8..<12].elementsEqual("WEBP".utf8) ? .webp : nil
    }

    func reads(_ format: ImageFormat) -> Bool { format == .webp }
    func mediaType(_ format: ImageFormat) -> String { "image/webp" }

    func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage {
        let header = try WebP.readHeader(data)
        let orientation = orientation(of: EmbeddedMetadata.webp(data))
        let short = min(header.width, header.height)
        let target = min(short, max(1, size))
        let (width, height) = target < short ? ((header.width * target + short - 1) / short, (header.height * target + short - 1) / short)
                                             : (header.width, header.height)
        // libwebp keeps a lossless picture whole while it decodes, four bytes a pixel, whatever the
        // scale: counted so for every WebP, and refused past 64 MP.
        guard header.width * header.height <= PhotoDecoder.wholeDecodeMaxPixels else { throw .tooLarge }
        let bytes = data.count + header.width * header.height * 4 + width * height * 7
        let (kept, decodedWidth, partial) = try context.gate.run(bytes: bytes) { () throws(DecodeError) in
            let (decoded, partial) = try WebP.decodeWhatThereIs(data, width: width, height: height)
            let image = orientation.apply(to: decoded)
            return (ColourProfile.toSRGB(PhotoDecoder.scaled(image, shortSide: limit), profile: EmbeddedMetadata.webpProfile(data)), image.width, partial)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: 8, scans: 1),
                            isComplete: target == short && kept.width == decodedWidth, isPartial: partial)
    }

    func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int) {
        let header = try WebP.readHeader(data)
        return orientation(of: EmbeddedMetadata.webp(data)).displaySize(width: header.width, height: header.height)
    }

    /// WebP writers put their metadata before the pixels: the first megabyte holds it.
    func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo? {
        guard let head = try? file.head(1 << 20) else { return nil }
        let found = EmbeddedMetadata.webp(head), size = (try? WebP.readHeader(head))?.size
        return PhotoInfo(width: size?.width, height: size?.height, exif: found.exif, xmp: found.xmp)
    }
}
