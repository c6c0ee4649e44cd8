import CSPNG
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// libspng: the only Swift file that calls it. libspng returns error codes (no longjmp), checks
/// every chunk's CRC and decodes every colour type and bit depth (1-16 bits, palette, grey,
/// transparency, Adam7 interlacing) to 8-bit RGBA. It reads every file's header and chunks; the
/// rows of 8-bit RGB and RGBA without interlacing, most photos and screenshots, are inflated
/// with zlib and unfiltered here (`readRows` says why).
package enum PNG {
    package struct Header: Sendable {
        package var width: Int, height: Int
        package var isInterlaced: Bool
        /// 8-bit truecolour (RGB, no alpha channel): read as RGB when it has no `tRNS` either.
        package var isRGB8: Bool
        /// 8-bit truecolour with alpha.
        package var isRGBA8 = false
        package var size: (width: Int, height: Int) { (width, height) }
    }

    /// What transparent pixels are composited onto: one neutral grey, in every mode.
    package static let background: (r: Int, g: Int, b: Int) = (128, 128, 128)

    /// The eight bytes every PNG file starts with.
    package static func isPNG(_ data: [UInt8]) -> Bool {
        data.count >= 8 && data.prefix(8).elementsEqual([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A])
    }

    package static func readHeader(_ data: [UInt8], maxPixels: Int = JPEG.defaultMaxPixels) throws(DecodeError) -> Header {
        try withContext(data, maxPixels: maxPixels) { _, header throws(DecodeError) in header }
    }

    /// The image as RGB, each side divided by `shrink` (each output pixel the mean of a
    /// `shrink` x `shrink` block), transparency composited onto `background`. A non-interlaced
    /// file is read row by row into the shrunk image: a 4K screenshot wanted for a 400-pixel tile
    /// never takes more than a few rows at full size. An interlaced one is decoded whole first.
    package static func decode(_ data: [UInt8], shrink: Int = 1, maxPixels: Int = JPEG.defaultMaxPixels,
                              cancel: CancelFlag? = nil) throws(DecodeError) -> RGBImage {
        let (image, partial) = try decodeWhatThereIs(data, shrink: shrink, maxPixels: maxPixels, cancel: cancel)
        guard !partial else { throw .truncatedFile(format: "PNG") }
        return image
    }

    /// As `decode`, but a non-interlaced file that ends after some of its rows gives those rows,
    /// the rest grey, and `isPartial` true (a file still being copied). An interlaced one, whose
    /// first pass is spread over the whole picture, still fails. A set `cancel` stops a
    /// non-interlaced decode within 32 rows (`.cancelled`).
    /// `libspngsRows` reads every file's rows through libspng, for tests to compare with.
    package static func decodeWhatThereIs(_ data: [UInt8], shrink: Int = 1, maxPixels: Int = JPEG.defaultMaxPixels,
                                         cancel: CancelFlag? = nil, libspngsRows: Bool = false) throws(DecodeError) -> (image: RGBImage, isPartial: Bool) {
        try withContext(data, maxPixels: maxPixels) { context, header throws(DecodeError) in
            let step = max(1, min(shrink, header.width, header.height))
            // 8-bit RGB without transparency, as most photos and screenshots are, is read as RGB:
            // libspng then copies its rows instead of widening each pixel, and nothing is composited.
            var trns = spng_trns()
            var opaqueRGB = header.isRGB8 && !header.isInterlaced
            if opaqueRGB {
                // Asking reads the chunks before the image data: a file that ends there says so now.
                let status = spng_get_trns(context, &trns)
                if status != 0 && status != Int32(SPNG_ECHUNKAVAIL.rawValue) { try check(status) }
                opaqueRGB = status == Int32(SPNG_ECHUNKAVAIL.rawValue)
            }
            let channels = opaqueRGB ? 3 : 4
            var out = Shrinker(width: header.width, height: header.height, step: step, channels: channels)
            if !libspngsRows, opaqueRGB || (header.isRGBA8 && !header.isInterlaced) {
                return try readRows(data, header: header, channels: channels, into: &out, cancel: cancel)
            }
            let rowBytes = header.width * channels
            if header.isInterlaced {
                var whole = [UInt8](repeating: 0, count: rowBytes * header.height)
                let status = whole.withUnsafeMutableBytes { spng_decode_image(context, $0.baseAddress, $0.count, Int32(SPNG_FMT_RGBA8.rawValue), Int32(SPNG_DECODE_TRNS.rawValue)) }
                try check(status)
                for y in 0..<header.height { whole.withUnsafeBufferPointer { out.add(row: UnsafeBufferPointer(rebasing: $0[(y * rowBytes)..<((y + 1) * rowBytes)])) } }
                return (out.image, false)
            }
            try check(spng_decode_image(context, nil, 0, Int32(opaqueRGB ? SPNG_FMT_RGB8.rawValue : SPNG_FMT_RGBA8.rawValue),
                                        Int32(SPNG_DECODE_TRNS.rawValue | SPNG_DECODE_PROGRESSIVE.rawValue)))
            var row = [UInt8](repeating: 0, count: rowBytes)
            var rows = 0
            while true {
                if rows % 32 == 0, cancel?.isCancelled == true { throw .cancelled }
                let status = row.withUnsafeMutableBytes { spng_decode_row(context, $0.baseAddress, $0.count) }
                if status != 0 && status != Int32(SPNG_EOI.rawValue) {
                    do throws(DecodeError) { try check(status) } catch .truncatedFile where rows > 0 {
                        // Opaque grey for the rows the file does not have yet.
                        for i in 0..<header.width {
                            row[i * channels] = UInt8(background.r); row[i * channels + 1] = UInt8(background.g); row[i * channels + 2] = UInt8(background.b)
                            if channels == 4 { row[i * 4 + 3] = 255 }
                        }
                        for _ in rows..<header.height { row.withUnsafeBufferPointer { out.add(row: $0) } }
                        return (out.image, true)
                    }
                }
                row.withUnsafeBufferPointer { out.add(row: $0) }
                rows += 1
                if status == Int32(SPNG_EOI.rawValue) { break }
            }
            return (out.image, false)
        }
    }

    private static func withContext<T>(_ data: [UInt8], maxPixels: Int,
                                       _ body: (OpaquePointer, Header) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard !data.isEmpty else { throw .empty }
        guard isPNG(data) else { throw .unsupportedFormat("") }
        // zlib's Adler-32 is not checked: every chunk's CRC already is, and it costs 3% of a decode.
        guard let context = spng_ctx_new(Int32(SPNG_CTX_IGNORE_ADLER32.rawValue)) else { throw .outOfMemory }
        defer { spng_ctx_free(context) }
        // Chunk sizes and the image's own size are limited before anything is allocated for them.
        spng_set_image_limits(context, 1 << 20, 1 << 20)
        spng_set_chunk_limits(context, 16 << 20, 64 << 20)
        // Read through a stream rather than handed the buffer: in buffer mode libspng refuses a
        // chunk longer than what is left before reading any of it, so a file cut in its image
        // data would give no rows at all. (It reads image data 8 KB at a time: a file cut in its
        // first 8 KB of it shows nothing yet.) The bytes stay valid through the whole decode.
        let result = data.withUnsafeBytes { bytes in
            Result(catching: { () throws(DecodeError) -> T in
                let source = Source(bytes)
                try check(withExtendedLifetime(source) { spng_set_png_stream(context, read, Unmanaged.passUnretained(source).toOpaque()) })
                var ihdr = spng_ihdr()
                try check(spng_get_ihdr(context, &ihdr))
                let header = Header(width: Int(ihdr.width), height: Int(ihdr.height), isInterlaced: ihdr.interlace_method != 0,
                                    isRGB8: ihdr.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR.rawValue) && ihdr.bit_depth == 8,
                                    isRGBA8: ihdr.color_type == UInt8(SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue) && ihdr.bit_depth == 8)
                guard header.width > 0, header.height > 0 else { throw .corruptFile(format: "PNG", "no pixels") }
                guard header.width * header.height <= maxPixels else { throw .tooLarge }
                return try withExtendedLifetime(source) { () throws(DecodeError) -> T in try body(context, header) }
            })
        }
        return try result.get()
    }

    private final class Source {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    /// libspng's reads: exactly `length` bytes, or the end of the file.
    private static let read: @convention(c) (OpaquePointer?, UnsafeMutableRawPointer?, UnsafeMutableRawPointer?, Int) -> Int32 = { _, user, destination, length in
        guard let user, let destination else { return Int32(SPNG_IO_ERROR.rawValue) }
        let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
        guard length <= source.bytes.count - source.offset, let base = source.bytes.baseAddress else { return Int32(SPNG_IO_EOF.rawValue) }
        destination.copyMemory(from: base + source.offset, byteCount: length)
        source.offset += length
        return 0
    }

    private static func check(_ status: Int32) throws(DecodeError) {
        guard status != 0 else { return }
        if status == Int32(SPNG_EOF.rawValue) || status == Int32(SPNG_IO_EOF.rawValue) { throw .truncatedFile(format: "PNG") }
        if status == Int32(SPNG_EMEM.rawValue) { throw .outOfMemory }
        if status == Int32(SPNG_EWIDTH.rawValue) || status == Int32(SPNG_EHEIGHT.rawValue) || status == Int32(SPNG_EUSER_WIDTH.rawValue)
            || status == Int32(SPNG_EUSER_HEIGHT.rawValue) { throw .tooLarge }
        throw .corruptFile(format: "PNG", String(cString: spng_strerror(status)))
    }

    /// Accumulates RGBA (or RGB) rows into an RGB image `step` times smaller each way, compositing alpha.
    struct Shrinker {
        let width: Int, step: Int, channels: Int
        var image: RGBImage
        private var sums: [Int]
        private var rowsIn = 0, outRow = 0

        init(width: Int, height: Int, step: Int, channels: Int = 4) {
            self.width = width
            self.step = step
            self.channels = channels
            image = RGBImage(width: max(1, width / step), height: max(1, height / step))
            sums = [Int](repeating: 0, count: image.width * 3)
        }

        mutating func add(row: UnsafeBufferPointer<UInt8>) {
            guard outRow < image.height else { return }        // the last rows that do not make a block
            if channels == 3 {
                // Opaque RGB, most of what is read: a block's samples summed in a run, no division.
                let step = step, width = image.width
                sums.withUnsafeMutableBufferPointer { sums in
                    var p = 0
                    for o in stride(from: 0, to: width * 3, by: 3) {
                        var r = 0, g = 0, b = 0
                        for _ in 0..<step { r += Int(row[p]); g += Int(row[p + 1]); b += Int(row[p + 2]); p += 3 }
                        sums[o] += r; sums[o + 1] += g; sums[o + 2] += b
                    }
                }
            } else {
                addComposited(row)
            }
            rowsIn += 1
            guard rowsIn == step else { return }
            let area = step * step, base = outRow * image.width * 3
            for i in 0..<sums.count { image.pixels[base + i] = UInt8((sums[i] + area / 2) / area); sums[i] = 0 }
            rowsIn = 0
            outRow += 1
        }

        private mutating func addComposited(_ row: UnsafeBufferPointer<UInt8>) {
            for x in 0..<(image.width * step) {
                let p = x * channels, a = channels == 4 ? Int(row[p + 3]) : 255, o = (x / step) * 3
                // Most pixels are opaque: no compositing, no division.
                guard a < 255 else {
                    sums[o] += Int(row[p]); sums[o + 1] += Int(row[p + 1]); sums[o + 2] += Int(row[p + 2])
                    continue
                }
                sums[o] += (Int(row[p]) * a + PNG.background.r * (255 - a) + 127) / 255
                sums[o + 1] += (Int(row[p + 1]) * a + PNG.background.g * (255 - a) + 127) / 255
                sums[o + 2] += (Int(row[p + 2]) * a + PNG.background.b * (255 - a) + 127) / 255
            }
        }
    }
}
