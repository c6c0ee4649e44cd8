import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The formats other than JPEG, through their readers (`Formats`): each decoded by its own
/// library, to the short side the tile asks for where the library can scale and whole where it
/// cannot, always under the decoder's memory gate with what the decode holds at its peak.
extension PhotoDecoder {
    /// The most pixels of a picture decoded whole at its full size (an interlaced PNG, a WebP, a
    /// GIF, a HEIF without a thumbnail large enough).
    static let wholeDecodeMaxPixels = 64_000_000

    /// `data` decoded as `format` (what its content says), upright, its short side between `size`
    /// and `limit` where the picture allows.
    static func decode(_ data: [UInt8], as format: ImageFormat, covering size: Int, atMost limit: Int,
                       thumbnails: Bool, gate: MemoryGate = .decodes) throws(DecodeError) -> DecodedImage {
        guard format.isDecoded, let reader = Formats.reader(for: format) else { throw .unsupportedFormat(format.name) }
        return try reader.decode(data, format, covering: size, atMost: limit, DecodeContext(gate: gate, thumbnails: thumbnails))
    }

    /// The size as displayed of the picture in `data`, whatever its format, from its header.
    package static func displaySize(of data: [UInt8]) throws(DecodeError) -> (width: Int, height: Int) {
        if let content = ImageFormat(content: Array(data.prefix(16))), content != .jpeg { return try displaySize(content, data) }
        if let other = sniffOtherFormat(data) { throw .unsupportedFormat(other) }
        return try JPEGFormat().displaySize(data, .jpeg)
    }

    /// The size as displayed of a picture in `format`, from its header.
    static func displaySize(_ format: ImageFormat, _ data: [UInt8]) throws(DecodeError) -> (width: Int, height: Int) {
        guard let reader = Formats.reader(for: format) else { throw .unsupportedFormat(format.name) }
        return try reader.displaySize(data, format)
    }

    /// A picture its library makes whole (TIFF's first page, JPEG XL's first frame: neither
    /// scales while it decodes), upright, shrunk to `limit`, its colour profile applied. The
    /// gate counts the file, the whole picture (four bytes a pixel while it is made, three
    /// after) and the shrunk copy.
    static func decodeWhole(_ data: [UInt8], size: (width: Int, height: Int), atMost limit: Int, gate: MemoryGate,
                            decode: () throws(DecodeError) -> (RGBImage, [UInt8]?)) throws(DecodeError) -> DecodedImage {
        let pixels = size.width * size.height
        guard pixels <= wholeDecodeMaxPixels else { throw .tooLarge }
        let (kept, decodedWidth) = try gate.run(bytes: data.count + pixels * 7 + pixels * 3 / 4) { () throws(DecodeError) in
            let (image, profile) = try decode()
            return (ColourProfile.toSRGB(scaled(image, shortSide: limit), profile: profile), image.width)
        }
        return DecodedImage(image: kept, origin: .file(scaleEighths: 8, scans: 1), isComplete: kept.width == decodedWidth)
    }
}
