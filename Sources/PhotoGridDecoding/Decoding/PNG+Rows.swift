import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The rows of 8-bit RGB and RGBA PNGs without interlacing, read by photogrid rather than
/// libspng (`readRows` says why): the image data inflated with zlib (`Zlib.Inflater`) and
/// unfiltered here. libspng has read the header and the chunks before the image data.
extension PNG {
    /// An 8-bit RGB or RGBA picture without interlacing (most photos and screenshots), its image
    /// data inflated with zlib and unfiltered here, row by row into `out`. libspng does the same
    /// one byte at a time with a switch on the filter inside its loop, as Debian builds it
    /// (without its SIMD filters): that was 42% of a 4K PNG's decode, against 37% for inflating.
    /// Chunks before the image data have been read and checked by libspng; each image data
    /// chunk's CRC is checked here, as libspng would. A file that ends early gives its rows so
    /// far, the rest grey, and `isPartial`.
    static func readRows(_ data: [UInt8], header: Header, channels: Int, into out: inout Shrinker,
                         cancel: CancelFlag?) throws(DecodeError) -> (image: RGBImage, isPartial: Bool) {
        // Raw deflate: zlib's Adler-32 of the inflated rows would cost 4% more, and every chunk's
        // CRC is checked already (libspng is told to skip it too). Its two header bytes are skipped.
        guard let inflater = Zlib.Inflater(raw: true) else { throw .outOfMemory }
        var header2 = 2
        let width = header.width, rowBytes = width * channels
        // The filter byte and the row as stored, and the unfiltered row before and this one,
        // each after `channels` zero bytes: the pixel left of the first is zero, as PNG has it.
        var raw = [UInt8](repeating: 0, count: 1 + rowBytes)
        var previous = [UInt8](repeating: 0, count: channels + rowBytes), current = previous
        var filled = 0, rows = 0
        var ended = false

        /// Inflates `input` into rows, each unfiltered and added to `out` once whole.
        func feed(_ input: UnsafeRawBufferPointer) throws(DecodeError) {
            var offset = min(header2, input.count)
            if header2 == 2, input.count >= 2 {
                // CMF and FLG: deflate with a window of at most 32 KB, no preset dictionary.
                guard input[0] & 0x0F == 8, input[0] >> 4 <= 7, input[1] & 0x20 == 0, (UInt16(input[0]) << 8 | UInt16(input[1])) % 31 == 0 else {
                    throw .corruptFile(format: "PNG", "damaged image data")
                }
            }
            header2 -= offset
            while offset < input.count && rows < header.height {
                let (read, written, status) = raw.withUnsafeMutableBytes { buffer in
                    inflater.inflate(UnsafeRawBufferPointer(rebasing: input[offset...]), into: UnsafeMutableRawBufferPointer(rebasing: buffer[filled...]))
                }
                offset += read
                filled += written
                if status == .damaged { throw .corruptFile(format: "PNG", "damaged image data") }
                if filled == raw.count {
                    if rows % 32 == 0, cancel?.isCancelled == true { throw .cancelled }
                    guard raw[0] <= 4 else { throw .corruptFile(format: "PNG", "unknown row filter") }
                    unfilter(raw, previous: previous, into: &current, channels: channels)
                    current.withUnsafeBufferPointer { out.add(row: UnsafeBufferPointer(rebasing: $0[channels...])) }
                    swap(&previous, &current)
                    rows += 1
                    filled = 0
                }
                if status == .ended { ended = true; return }
                if read == 0 && written == 0 { return }
            }
        }

        let result = data.withUnsafeBytes { file in Result(catching: { () throws(DecodeError) -> (image: RGBImage, isPartial: Bool) in
            var at = 8
            chunks: while rows < header.height {
                // A chunk: length, type, data, CRC. One cut short is where the file ends.
                guard at + 8 <= file.count else { break }
                let length = Int(file[at]) << 24 | Int(file[at + 1]) << 16 | Int(file[at + 2]) << 8 | Int(file[at + 3])
                let type = UnsafeRawBufferPointer(rebasing: file[(at + 4)..<(at + 8)])
                let isIDAT = type.elementsEqual("IDAT".utf8), isIEND = type.elementsEqual("IEND".utf8)
                guard length <= file.count - at - 12 else {
                    if isIDAT { try feed(UnsafeRawBufferPointer(rebasing: file[(at + 8)...])) }
                    break
                }
                if isIEND { break }
                defer { at += 12 + length }
                guard isIDAT else { continue }
                let body = UnsafeRawBufferPointer(rebasing: file[(at + 8)..<(at + 8 + length)])
                let stored = UInt32(file[at + 8 + length]) << 24 | UInt32(file[at + 9 + length]) << 16
                    | UInt32(file[at + 10 + length]) << 8 | UInt32(file[at + 11 + length])
                guard Zlib.crc32(UnsafeRawBufferPointer(rebasing: file[(at + 4)..<(at + 8 + length)])) == stored else {
                    throw .corruptFile(format: "PNG", "CRC mismatch")
                }
                try feed(body)
                if ended { break chunks }
            }
            guard rows > 0 || header.height == 0 else { throw .truncatedFile(format: "PNG") }
            let partial = rows < header.height
            if partial {
                // Opaque grey for the rows the file does not have yet.
                var grey = [UInt8](repeating: 255, count: rowBytes)
                for i in 0..<width {
                    grey[i * channels] = UInt8(background.r); grey[i * channels + 1] = UInt8(background.g); grey[i * channels + 2] = UInt8(background.b)
                }
                for _ in rows..<header.height { grey.withUnsafeBufferPointer { out.add(row: $0) } }
            }
            return (out.image, partial)
        }) }
        return try result.get()
    }

    /// One row unfiltered (PNG's five filters): `raw` is the filter byte and the stored row;
    /// `previous` and `current` hold the rows after `channels` zero bytes.
    private static func unfilter(_ raw: [UInt8], previous: [UInt8], into current: inout [UInt8], channels bpp: Int) {
        raw.withUnsafeBufferPointer { raw in
          previous.withUnsafeBufferPointer { up in
            current.withUnsafeMutableBufferPointer { row in
                let n = raw.count - 1
                let stored = raw.baseAddress! + 1, above = up.baseAddress! + bpp, out = row.baseAddress! + bpp
                switch raw[0] {
                case 1:     // Sub: plus the pixel to the left
                    for i in 0..<n { out[i] = stored[i] &+ out[i - bpp] }
                case 2:     // Up: plus the pixel above
                    for i in 0..<n { out[i] = stored[i] &+ above[i] }
                case 3:     // Average of left and above
                    for i in 0..<n { out[i] = stored[i] &+ UInt8((Int(out[i - bpp]) + Int(above[i])) >> 1) }
                case 4:     // Paeth: whichever of left, above and above-left is nearest left + above - above-left
                    for i in 0..<n {
                        let a = Int(out[i - bpp]), b = Int(above[i]), c = Int(above[i - bpp])
                        let pa = abs(b - c), pb = abs(a - c), pc = abs(a + b - 2 * c)
                        let predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                        out[i] = stored[i] &+ UInt8(truncatingIfNeeded: predicted)
                    }
                default:    // None
                    for i in 0..<n { out[i] = stored[i] }
                }
            }
          }
        }
    }
}
