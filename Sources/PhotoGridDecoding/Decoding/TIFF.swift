import CTiff
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// libtiff: the only Swift file that calls it, loaded on first use (Sources/CTiff). A TIFF (scans, exports, 8 or 16 bits a sample,
/// strips or tiles, any of libtiff's compressions) shows its first page through libtiff's RGBA
/// interface, which makes 8-bit RGBA of every photometric kind it knows; then its Orientation
/// tag turns it and transparency goes over `PNG.background`. libtiff has no scaled decode: the
/// page is read whole, so it is refused past `PhotoDecoder.wholeDecodeMaxPixels`.
///
/// libtiff reports errors by return codes and a message handler: the messages go to the file's
/// own handler (never to stderr, where they would land on the grid) and the first error names
/// what went wrong.
package enum TIFF {
    package struct Header: Sendable {
        /// As stored; `orientation` says how it is shown.
        package var width: Int, height: Int
        package var orientation: Orientation
        package var displaySize: (width: Int, height: Int) { orientation.displaySize(width: width, height: height) }
    }

    /// The most bytes libtiff may take at once for a file: a hostile header asks for more.
    static let maxAllocation = 512 << 20

    /// "II*\0" or "MM\0*", and BigTIFF's "II+\0" or "MM\0+".
    package static func isTIFF(_ data: [UInt8]) -> Bool {
        guard data.count >= 4 else { return false }
        return (data[0] == 0x49 && data[1] == 0x49 && (data[2] == 0x2A || data[2] == 0x2B) && data[3] == 0)
            || (data[0] == 0x4D && data[1] == 0x4D && data[2] == 0 && (data[3] == 0x2A || data[3] == 0x2B))
    }

    package static func readHeader(_ data: [UInt8]) throws(DecodeError) -> Header {
        try withFile(data) { library, tiff, _ throws(DecodeError) in try header(library, tiff) }
    }

    /// The first page, upright, 8 bits a channel.
    package static func decode(_ data: [UInt8], maxPixels: Int = PhotoDecoder.wholeDecodeMaxPixels) throws(DecodeError) -> RGBImage {
        try decodeWithProfile(data, maxPixels: maxPixels).image
    }

    /// The first page, and its ICC profile (tag 34675) if it has one: converted by the caller on
    /// the pixels it keeps.
    package static func decodeWithProfile(_ data: [UInt8], maxPixels: Int = PhotoDecoder.wholeDecodeMaxPixels) throws(DecodeError)
        -> (image: RGBImage, profile: [UInt8]?) {
        try withFile(data) { library, tiff, stream throws(DecodeError) -> (image: RGBImage, profile: [UInt8]?) in
            let header = try header(library, tiff)
            guard header.width * header.height <= maxPixels else { throw .tooLarge }
            var message = [CChar](repeating: 0, count: 1024)
            guard library.pointee.TIFFRGBAImageOK(tiff, &message) == 1 else {
                throw .unsupportedFormat("TIFF (" + message.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }.lowercased() + ")")
            }
            var raster = [UInt32](repeating: 0, count: header.width * header.height)
            // Asked for in the file's own orientation, libtiff flips nothing: the rows come as
            // stored, and `Orientation` turns them as it turns a JPEG's.
            let read = raster.withUnsafeMutableBufferPointer {
                library.pointee.TIFFReadRGBAImageOriented(tiff, UInt32(header.width), UInt32(header.height), $0.baseAddress,
                                          Int32(header.orientation.rawValue), 0)
            }
            guard read == 1 else { throw .corruptFile(format: "TIFF", stream.error ?? "unreadable") }
            var pixels = [UInt8](repeating: 0, count: header.width * header.height * 3)
            let background = PNG.background
            for i in raster.indices {
                let value = raster[i], alpha = Int(value >> 24)
                let r = Int(value & 0xFF), g = Int((value >> 8) & 0xFF), b = Int((value >> 16) & 0xFF)
                if alpha == 255 {
                    pixels[i * 3] = UInt8(r); pixels[i * 3 + 1] = UInt8(g); pixels[i * 3 + 2] = UInt8(b)
                } else {
                    // libtiff's RGBA is associated (premultiplied): the background fills the rest.
                    let rest = 255 - alpha
                    pixels[i * 3] = UInt8(min(255, r + (background.r * rest + 127) / 255))
                    pixels[i * 3 + 1] = UInt8(min(255, g + (background.g * rest + 127) / 255))
                    pixels[i * 3 + 2] = UInt8(min(255, b + (background.b * rest + 127) / 255))
                }
            }
            var length: UInt32 = 0
            let profile = pg_tiff_profile(library, tiff, &length).map { Array(UnsafeRawBufferPointer(start: $0, count: Int(length))) }
            return (header.orientation.apply(to: RGBImage(width: header.width, height: header.height, pixels: pixels)),
                    profile.flatMap { $0.count <= ColourProfile.maxProfileBytes ? $0 : nil })
        }
    }

    private static func header(_ library: UnsafePointer<pg_tiff>, _ tiff: OpaquePointer) throws(DecodeError) -> Header {
        var width: UInt32 = 0, height: UInt32 = 0
        guard pg_tiff_size(library, tiff, &width, &height) == 1, width > 0, height > 0 else { throw .corruptFile(format: "TIFF", "no size") }
        return Header(width: Int(width), height: Int(height),
                      orientation: Orientation(rawValue: Int(pg_tiff_orientation(library, tiff))) ?? .up)
    }

    /// The bytes libtiff reads, where it is, and its first error.
    private final class Stream {
        let data: [UInt8]
        var offset = 0
        var error: String?
        init(_ data: [UInt8]) { self.data = data }
    }

    private static func withFile<T>(_ data: [UInt8], _ body: (UnsafePointer<pg_tiff>, OpaquePointer, Stream) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard isTIFF(data) else { throw .corruptFile(format: "TIFF", "not a TIFF") }
        guard let library = pg_tiff_load() else { throw .unsupportedFormat("TIFF: libtiff is not installed") }
        guard data.count >= 8 else { throw .truncatedFile(format: "TIFF") }
        let stream = Stream(data)
        let handle = Unmanaged.passUnretained(stream).toOpaque()
        guard let options = library.pointee.TIFFOpenOptionsAlloc() else { throw .corrupt("out of memory") }
        defer { library.pointee.TIFFOpenOptionsFree(options) }
        library.pointee.TIFFOpenOptionsSetMaxSingleMemAlloc(options, tmsize_t(maxAllocation))
        library.pointee.TIFFOpenOptionsSetErrorHandlerExtR(options, { _, user, _, format, arguments in
            guard let user, let format, let arguments else { return 1 }
            let stream = Unmanaged<Stream>.fromOpaque(user).takeUnretainedValue()
            if stream.error == nil {
                var text = [CChar](repeating: 0, count: 256)
                vsnprintf(&text, text.count, format, arguments)
                stream.error = text.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
            }
            return 1
        }, handle)
        library.pointee.TIFFOpenOptionsSetWarningHandlerExtR(options, { _, _, _, _, _ in 1 }, handle)
        // "r": read; "m": no mapping (the bytes are in memory already); "h": the header only, at open.
        let tiff = library.pointee.TIFFClientOpenExt("photo.tif", "rm", handle, { handle, buffer, size in
            let stream = Unmanaged<Stream>.fromOpaque(handle!).takeUnretainedValue()
            let count = max(0, min(Int(size), stream.data.count - stream.offset))
            if count > 0, let buffer {
                stream.data.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress! + stream.offset, byteCount: count) }
            }
            stream.offset += count
            return tmsize_t(count)
        }, { _, _, _ in -1 }, { handle, offset, whence in
            let stream = Unmanaged<Stream>.fromOpaque(handle!).takeUnretainedValue()
            let base = whence == SEEK_CUR ? stream.offset : whence == SEEK_END ? stream.data.count : 0
            let (target, overflow) = base.addingReportingOverflow(Int(truncatingIfNeeded: Int64(bitPattern: offset)))
            guard !overflow, target >= 0 else { return toff_t(UInt64.max) }
            stream.offset = target
            return toff_t(target)
        }, { _ in 0 }, { handle in
            toff_t(Unmanaged<Stream>.fromOpaque(handle!).takeUnretainedValue().data.count)
        }, { _, _, _ in 0 }, { _, _, _ in }, options)
        guard let tiff else {
            throw stream.error.map { .corruptFile(format: "TIFF", $0) } ?? .corruptFile(format: "TIFF", "unreadable")
        }
        defer { library.pointee.TIFFClose(tiff) }
        return try body(library, tiff, stream)
    }
}
