import CRaw
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// LibRaw: the only Swift file that calls it. A camera's raw file (CR2, CR3, NEF, ARW, RAF, ORF,
/// RW2, DNG...) shows the preview the camera put in it, a JPEG most often and often at full size,
/// which decodes in the time a JPEG does; only the zoom view, asking for more than the preview
/// has, gets the raw data developed (at half size where that covers the screen: a quarter of the
/// work). A file with no preview says what it is rather than "unsupported".
package enum RAW {
    /// What LibRaw says of a raw file: the picture's size upright, how the camera turned it, the
    /// camera, the preview.
    package struct Header: Sendable {
        package var width: Int, height: Int
        package var orientation: Orientation
        package var make: String, model: String
        /// The preview's stored size; nil when the file has none.
        package var preview: (width: Int, height: Int)?
    }

    /// The preview as the camera stored it: a JPEG's bytes, or pixels.
    package enum Preview {
        case jpeg([UInt8])
        case pixels(RGBImage)
    }

    /// "Canon CR2: no preview": the camera's maker and the file's kind.
    package static func noPreview(_ kind: String, make: String) -> DecodeError {
        .noPreview((make.split(separator: " ").first.map { String($0) + " " } ?? "") + kind)
    }

    /// LibRaw's flip (0, 3, 5, 6) as an orientation.
    static func orientation(flip: Int32) -> Orientation {
        switch flip {
        case 3: return .down
        case 5: return .left
        case 6: return .right
        default: return .up
        }
    }

    package static func readHeader(_ data: [UInt8]) throws(DecodeError) -> Header {
        try withFile(data) { library, raw throws(DecodeError) in header(raw) }
    }

    private static func header(_ raw: UnsafeMutablePointer<libraw_data_t>) -> Header {
        let orientation = orientation(flip: pg_raw_flip(raw))
        let size = orientation.displaySize(width: Int(pg_raw_width(raw)), height: Int(pg_raw_height(raw)))
        let preview = pg_raw_has_thumb(raw) != 0 ? (Int(pg_raw_thumb_width(raw)), Int(pg_raw_thumb_height(raw))) : nil
        return Header(width: size.width, height: size.height, orientation: orientation,
                      make: String(cString: pg_raw_make(raw)), model: String(cString: pg_raw_model(raw)), preview: preview)
    }

    /// The camera's preview, as stored (not turned: `Header.orientation` says how).
    package static func preview(_ data: [UInt8]) throws(DecodeError) -> (Header, Preview?) {
        try withFile(data) { library, raw throws(DecodeError) -> (Header, Preview?) in
            let found = header(raw)
            guard found.preview != nil, library.pointee.libraw_unpack_thumb(raw) == 0 else { return (found, nil) }
            var status: Int32 = 0
            guard let made = library.pointee.libraw_dcraw_make_mem_thumb(raw, &status) else { return (found, nil) }
            defer { library.pointee.libraw_dcraw_clear_mem(made) }
            let image = made.pointee
            let count = Int(image.data_size)
            let bytes = withUnsafePointer(to: &made.pointee.data) {
                Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: count))
            }
            if image.type == LIBRAW_IMAGE_JPEG { return (found, .jpeg(bytes)) }
            guard image.type == LIBRAW_IMAGE_BITMAP, image.colors == 3, image.bits == 8,
                  count >= Int(image.width) * Int(image.height) * 3 else { return (found, nil) }
            return (found, .pixels(RGBImage(width: Int(image.width), height: Int(image.height),
                                            pixels: Array(bytes.prefix(Int(image.width) * Int(image.height) * 3)))))
        }
    }

    /// The raw data developed: demosaiced, the camera's white balance, sRGB, upright; at half
    /// size when `half`.
    package static func develop(_ data: [UInt8], half: Bool, maxPixels: Int = PhotoDecoder.wholeDecodeMaxPixels) throws(DecodeError) -> RGBImage {
        try withFile(data) { library, raw throws(DecodeError) -> RGBImage in
            let found = header(raw)
            guard found.width * found.height / (half ? 4 : 1) <= maxPixels else { throw .tooLarge }
            pg_raw_set_development(raw, half ? 1 : 0)
            var status = library.pointee.libraw_unpack(raw)
            guard status == 0 else { throw failure(library, status, found) }
            status = library.pointee.libraw_dcraw_process(raw)
            guard status == 0 else { throw failure(library, status, found) }
            guard let made = library.pointee.libraw_dcraw_make_mem_image(raw, &status) else { throw failure(library, status, found) }
            defer { library.pointee.libraw_dcraw_clear_mem(made) }
            let image = made.pointee
            let count = Int(image.width) * Int(image.height) * 3
            guard image.colors == 3, image.bits == 8, Int(image.data_size) >= count else {
                throw .corruptFile(format: "raw", "an unexpected development")
            }
            let pixels = withUnsafePointer(to: &made.pointee.data) {
                Array(UnsafeBufferPointer(start: UnsafeRawPointer($0).assumingMemoryBound(to: UInt8.self), count: count))
            }
            return RGBImage(width: Int(image.width), height: Int(image.height), pixels: pixels)
        }
    }

    private static func failure(_ library: UnsafePointer<pg_raw>, _ status: Int32, _ header: Header) -> DecodeError {
        .corruptFile(format: "raw", message(library, status))
    }

    private static func message(_ library: UnsafePointer<pg_raw>, _ status: Int32) -> String {
        library.pointee.libraw_strerror(status).map { String(cString: $0) } ?? "error \(status)"
    }

    private static func withFile<T>(_ data: [UInt8], _ body: (UnsafePointer<pg_raw>, UnsafeMutablePointer<libraw_data_t>) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard let library = pg_raw_load() else { throw .unsupportedFormat("raw: LibRaw is not installed") }
        // LibRaw reads the buffer in place for as long as the file is open: a copy of its own,
        // freed after it is closed (copying a file of 30 MB takes a few milliseconds).
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: max(1, data.count), alignment: 16)
        defer { buffer.deallocate() }
        data.withUnsafeBytes { buffer.copyMemory(from: $0) }
        guard let raw = library.pointee.libraw_init(0) else { throw .outOfMemory }
        defer { library.pointee.libraw_close(raw) }
        let opened = library.pointee.libraw_open_buffer(raw, buffer.baseAddress, data.count)
        guard opened == 0 else { throw .corruptFile(format: "raw", message(library, opened)) }
        return try body(library, raw)
    }
}
