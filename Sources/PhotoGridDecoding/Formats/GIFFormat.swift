import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

extension ImageFormat {
    package static let gif = ImageFormat("GIF", .picture)
}

/// GIF, through giflib (`GIF`): the first frame, its rows averaged in blocks as they are read
/// by the largest whole factor that still covers the tile (LZW cannot skip pixels).
struct GIFFormat: FormatReader {
    let extensions: [String: ImageFormat] = ["gif": .gif]

    func format(of head: [UInt8]) -> ImageFormat? {
        head.starts(with: Array("GIF87a".utf8)) || head.starts(with: Array("GIF89a".utf8)) ? .gif : nil
    }

    func reads(_ format: ImageFormat) -> Bool { format == .gif }
    func mediaType(_ format: ImageFormat) -> String { "image/gif" }

    func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage {
        let header = try GIF.readHeader(data)
        let shrink = max(1, min(header.width, header.height) / max(1, size))
        // The frame's indices, and the sums a pixel of the shrunk frame.
        let pixels = max(1, min(header.width * header.height, GIF.maxPixels))
        let bytes = data.count + pixels + pixels / (shrink * shrink) * 27
        let (kept, decodedWidth) = try context.gate.run(bytes: bytes) { () throws(DecodeError) in
            let image = try GIF.decode(data, shrink: shrink)
            return (PhotoDecoder.scaled(image, shortSide: limit), image.width)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: max(1, 8 / shrink), scans: 1),
                            isComplete: shrink == 1 && kept.width == decodedWidth)
    }

    func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int) {
        try GIF.readHeader(data).size
    }

    /// The screen descriptor and the global colour table: at most 781 bytes.
    func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo? {
        guard let head = try? file.head(1024), let size = (try? GIF.readHeader(head))?.size else { return nil }
        return PhotoInfo(width: size.width, height: size.height, exif: nil, xmp: nil)
    }
}
