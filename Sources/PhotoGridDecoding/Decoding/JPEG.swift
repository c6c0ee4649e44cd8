import CJPEGShim
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// libjpeg-turbo, through the C shim. The only Swift file that calls it.
package enum JPEG {
    /// What the markers before the first scan say.
    package struct Header: Sendable {
        package var width: Int
        package var height: Int
        package var components: Int
        package var isProgressive: Bool
        /// The TIFF structure of the Exif APP1 segment, if there is one.
        package var exif: [UInt8]?
        /// The embedded ICC profile (APP2), if there is one whole.
        package var icc: [UInt8]?
        /// Where a camera's larger preview lies in the file (`MultiPicture`), unchecked.
        package var preview: Range<Int>?
    }

    package struct DecodeOptions: Sendable {
        /// Output scale in eighths, 1...16: libjpeg-turbo's DCT scaling.
        package var scaleEighths: Int = 8
        /// Fast integer IDCT and simple upsampling, for thumbnails.
        package var fast = false
        package var allowTruncated = false
        /// Progressive files at 1/8 or 2/8: read only the scans that carry the coefficients the
        /// scaled IDCT uses.
        package var partialScans = false
        package var maxPixels = JPEG.defaultMaxPixels
        /// Checked once per row of blocks: set, the decode stops with `.cancelled`.
        package var cancel: CancelFlag?
        package init(scaleEighths: Int = 8, fast: Bool = false, partialScans: Bool = false) {
            self.scaleEighths = scaleEighths
            self.fast = fast
            self.partialScans = partialScans
        }
    }

    /// Past this many pixels (input or output) a JPEG is refused before anything is allocated.
    /// 250 MP is above any camera's full size.
    package static let defaultMaxPixels = 250_000_000

    package static func readHeader(_ data: [UInt8], maxPixels: Int = defaultMaxPixels) throws(DecodeError) -> Header {
        var header = pg_jpeg_header()
        var message = [CChar](repeating: 0, count: 256)
        let status = data.withUnsafeBufferPointer { bytes in
            pg_jpeg_read_header(bytes.baseAddress, bytes.count, Int64(maxPixels), &header, &message, message.count)
        }
        defer { pg_jpeg_free_header(&header) }
        try check(status, message)
        let exif = header.exif.map { Array(UnsafeBufferPointer(start: $0, count: header.exif_length)) }
        let segments = JPEGSegments.parse(data)
        return Header(width: Int(header.width), height: Int(header.height), components: Int(header.components),
                      isProgressive: header.progressive != 0, exif: exif, icc: segments.icc, preview: segments.preview)
    }

    package static func decode(_ data: [UInt8], options: DecodeOptions = DecodeOptions()) throws(DecodeError) -> RGBImage {
        try decodeCountingScans(data, options: options).image
    }

    /// Also says how many scans were read (a progressive file cut short reads fewer).
    package static func decodeCountingScans(_ data: [UInt8], options: DecodeOptions) throws(DecodeError) -> (image: RGBImage, scans: Int) {
        try decode(options) { cOptions, image, message in
            data.withUnsafeBufferPointer { bytes in
                pg_jpeg_decode(bytes.baseAddress, bytes.count, &cOptions, &image, &message, message.count)
            }
        }
    }

    /// Decodes the file open on `fd`, reading it in chunks from its start.
    package static func decode(descriptor fd: Int32, options: DecodeOptions) throws(DecodeError) -> (image: RGBImage, scans: Int) {
        try decode(options) { cOptions, image, message in pg_jpeg_decode_fd(fd, &cOptions, &image, &message, message.count) }
    }

    private static func decode(_ options: DecodeOptions,
                               _ call: (inout pg_jpeg_decode_options, inout pg_jpeg_image, inout [CChar]) -> pg_jpeg_status)
        throws(DecodeError) -> (image: RGBImage, scans: Int) {
        var image = pg_jpeg_image()
        var message = [CChar](repeating: 0, count: 256)
        var cOptions = pg_jpeg_decode_options(scale_num: Int32(options.scaleEighths), fast: options.fast ? 1 : 0,
                                              allow_truncated: options.allowTruncated ? 1 : 0,
                                              partial_scans: options.partialScans ? 1 : 0,
                                              max_pixels: Int64(options.maxPixels), cancel: nil)
        let status = withExtendedLifetime(options.cancel) { () -> pg_jpeg_status in
            options.cancel.map { cOptions.cancel = UnsafePointer($0.pointer) }
            return call(&cOptions, &image, &message)
        }
        try check(status, message)
        defer { pg_jpeg_free(image.pixels) }
        let width = Int(image.width), height = Int(image.height)
        let pixels = Array(UnsafeBufferPointer(start: image.pixels, count: width * height * 3))
        return (RGBImage(width: width, height: height, pixels: pixels), Int(image.scans_read))
    }

    /// Encodes baseline or progressive JPEG; `app1` is a whole APP1 payload ("Exif\0\0" + TIFF).
    /// `optimized`: Huffman tables made for the image, for files that travel or last; without,
    /// the encode takes a third of the time for 2-3% more bytes (what the disk cache writes).
    package static func encode(_ image: RGBImage, quality: Int = 85, progressive: Bool = false, optimized: Bool = true,
                              app1: [UInt8]? = nil) throws(DecodeError) -> [UInt8] {
        var output: UnsafeMutablePointer<UInt8>? = nil
        var length = 0
        var message = [CChar](repeating: 0, count: 256)
        let segment = app1 ?? []
        let status = image.pixels.withUnsafeBufferPointer { rgb in
            segment.withUnsafeBufferPointer { app in
                pg_jpeg_encode(rgb.baseAddress, Int32(image.width), Int32(image.height), Int32(quality),
                               progressive ? 1 : 0, optimized ? 1 : 0, app.isEmpty ? nil : app.baseAddress, app.count,
                               &output, &length, &message, message.count)
            }
        }
        try check(status, message)
        defer { pg_jpeg_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: length))
    }

    /// Sets a `CancelFlag`'s word for the shim, atomically.

    private static func check(_ status: pg_jpeg_status, _ message: [CChar]) throws(DecodeError) {
        let text = String(decoding: message.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        switch status {
        case PG_JPEG_OK: return
        case PG_JPEG_NOT_JPEG: throw .notJPEG
        case PG_JPEG_TRUNCATED: throw .truncated
        case PG_JPEG_EMPTY: throw .empty
        case PG_JPEG_UNSUPPORTED: throw .unsupportedJPEG(text)
        case PG_JPEG_TOO_LARGE: throw .tooLarge
        case PG_JPEG_NO_MEMORY: throw .outOfMemory
        case PG_JPEG_CANCELLED: throw .cancelled
        default: throw .corrupt(text)
        }
    }
}
