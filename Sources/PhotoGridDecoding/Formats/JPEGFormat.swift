import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

extension ImageFormat {
    package static let jpeg = ImageFormat("JPEG", .picture)
}

/// JPEG, through libjpeg-turbo (`JPEG`): decoded at the smallest DCT scale that covers the tile,
/// from its EXIF thumbnail when that is enough, a progressive file's first scans when they are
/// (`PhotoDecoder`, which also reads a file in place).
struct JPEGFormat: FormatReader {
    let extensions: [String: ImageFormat] = ["jpg": .jpeg, "jpeg": .jpeg, "jpe": .jpeg, "jfif": .jpeg]

    func format(of head: [UInt8]) -> ImageFormat? {
        head.count >= 3 && head[0] == 0xFF && head[1] == 0xD8 && head[2] == 0xFF ? .jpeg : nil
    }

    func reads(_ format: ImageFormat) -> Bool { format == .jpeg }
    func mediaType(_ format: ImageFormat) -> String { "image/jpeg" }

    func decode(_ data: [UInt8], _ format: ImageFormat, covering size: Int, atMost limit: Int, _ context: DecodeContext) throws(DecodeError) -> DecodedImage {
        try PhotoDecoder(usesThumbnails: context.thumbnails, gate: context.gate).decodeJPEG(data, covering: size, atMost: limit)
    }

    func displaySize(_ data: [UInt8], _ format: ImageFormat) throws(DecodeError) -> (width: Int, height: Int) {
        guard let info = PhotoInfo.read(data) else { throw .notJPEG }
        guard let width = info.width, let height = info.height else { throw .truncated }
        return (width, height)
    }

    /// The head of the file, and more of it when large segments (ICC, XMP) push the frame header
    /// past the first read: at most 2 MB.
    func info(_ file: OpenFile, _ format: ImageFormat) -> PhotoInfo? {
        var length = PhotoDecoder.headLength
        while true {
            guard let head = try? file.head(length), let info = PhotoInfo.read(head) else { return nil }
            if info.width != nil || head.count < length || length >= 2 * 1024 * 1024 { return info }
            length *= 4
        }
    }

    func thumbnail(_ data: [UInt8], _ format: ImageFormat) -> RGBImage? {
        guard let header = try? JPEG.readHeader(data) else { return nil }
        return PhotoDecoder.thumbnail(header: header, data: data)
    }
}
