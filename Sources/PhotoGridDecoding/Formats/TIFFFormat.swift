import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

extension ImageFormat {
    package static let tiff = ImageFormat("TIFF", .picture)
}

/// TIFF, through libtiff (`TIFF`): the first page made whole (libtiff does not scale while it
/// decodes), turned by its Orientation tag, shrunk; its tags are its EXIF.
struct TIFFFormat: FormatReader {
    let extensions: [String: ImageFormat] = ["tif": .tiff, "tiff": .tiff]

    /// By its byte order and 42 (43: BigTIFF); a raw file that is a TIFF inside is known by its
    /// name first.
    func format(of head: [UInt8]) -> ImageFormat? {
        guard head.count >= 4 else { return nil }
        let little = head[0] == 0x49 && head[1] == 0x49 && (head[2] == 0x2A || head[2] == 0x2B) && head[3] == 0
        let big = head[0] == 0x4D && head[1] == 0x4D && head[2] == 0 && (head[3] == 0x2A || head[3] == 0x2B)
        return little || big ? .tiff : nil
    }

    func reads(_ format: ImageFormat) -> Bool { format == .tiff }
    func mediaType(_ format: ImageFormat) -> String { "image/tiff" }

    func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage {
        try PhotoDecoder.decodeWhole(data, size: try displaySize(data, format), atMost: limit, gate: context.gate) { () throws(DecodeError) in
            try TIFF.decodeWithProfile(data)
        }
    }

    func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int) {
        try TIFF.readHeader(data).displaySize
    }

    /// A TIFF's tags are its EXIF: the camera, the date and the orientation are read from the
    /// file as from a JPEG's APP1. The tags of a photo come before its pixels in practice; the
    /// whole file is read where they do not.
    func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo? {
        guard let data = try? file.all(), let header = try? TIFF.readHeader(data) else { return nil }
        return PhotoInfo(width: header.width, height: header.height, exif: data, xmp: nil)
    }
}
