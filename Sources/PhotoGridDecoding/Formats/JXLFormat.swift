import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

extension ImageFormat {
    package static let jxl = ImageFormat("JPEG XL", .picture)
}

/// JPEG XL, through libjxl (`JXL`): the first frame made whole (libjxl does not scale while it
/// decodes), upright, shrunk.
struct JXLFormat: FormatReader {
    let extensions: [String: ImageFormat] = ["jxl": .jxl]

    /// A bare codestream, or the container's signature box.
    func format(of head: [UInt8]) -> ImageFormat? {
        head.starts(with: [0xFF, 0x0A]) || head.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A]) ? .jxl : nil
    }

    func reads(_ format: ImageFormat) -> Bool { format == .jxl }
    func mediaType(_ format: ImageFormat) -> String { "image/jxl" }

    func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage {
        try PhotoDecoder.decodeWhole(data, size: try displaySize(data, format), atMost: limit, gate: context.gate) { () throws(DecodeError) in
            try JXL.decodeWithProfile(data)
        }
    }

    func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int) {
        let header = try JXL.readHeader(data)
        return (header.width, header.height)
    }

    func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo? {
        guard let data = try? file.all(), let header = try? JXL.readHeader(data) else { return nil }
        return PhotoInfo(width: header.width, height: header.height, exif: nil, xmp: nil, upright: true)
    }
}
