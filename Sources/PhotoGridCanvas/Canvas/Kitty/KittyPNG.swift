import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel

/// A tile as a PNG (kitty's `f=100`): its rows filtered as PNG filters them, then deflated.
/// A photo's raw rows barely deflate; the difference of each pixel from its neighbours (a row
/// filter) is mostly small numbers, which deflate well, so the same picture goes in fewer bytes
/// for about the same work (docs/benchmarks.md, "kitty's bytes"). Every row but the first is
/// Paeth-filtered (the first, with no row above, Sub): libpng's choice of the best filter row by
/// row saved 1.5% more bytes on camera photos for a quarter more CPU.
enum KittyPNG {
    static func encode(_ image: RGBImage) -> [UInt8]? {
        let width = image.width, height = image.height, stride = width * 3
        guard width > 0, height > 0, image.pixels.count >= stride * height else { return nil }
        var filtered = [UInt8](repeating: 0, count: (stride + 1) * height)
        image.pixels.withUnsafeBufferPointer { pixels in
            filtered.withUnsafeMutableBufferPointer { out in
                for y in 0..<height {
                    let row = pixels.baseAddress! + y * stride
                    let above = y > 0 ? pixels.baseAddress! + (y - 1) * stride : nil
                    let target = out.baseAddress! + y * (stride + 1)
                    target[0] = above == nil ? 1 : 4
                    apply(target[0], row: row, above: above, count: stride, into: target + 1)
                }
            }
        }
        guard let data = Deflate.zlib(filtered) else { return nil }
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]                        // 8 bits, RGB, deflate, adaptive filters, no interlace
        chunk("IHDR", header, into: &png)
        chunk("IDAT", data, into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    /// Filter `type` (1 Sub, 4 Paeth) of one row, 3 bytes a pixel. A loop a filter, with the
    /// first pixel (no left neighbour) apart: the choice and the checks made for every byte took
    /// as long as the filtering.
    private static func apply(_ type: UInt8, row: UnsafePointer<UInt8>, above: UnsafePointer<UInt8>?, count: Int,
                              into out: UnsafeMutablePointer<UInt8>) {
        let first = min(3, count)
        guard let above, type == 4 else {
            for i in 0..<first { out[i] = row[i] }
            for i in first..<max(first, count) { out[i] = row[i] &- row[i - 3] }
            return
        }
        // The first pixel's left and corner are 0: Paeth predicts the byte above.
        for i in 0..<first { out[i] = row[i] &- above[i] }
        // PNG's Paeth predictor: whichever of left (a), up (b) and corner (c) is nearest
        // p = a + b - c, so p - a = b - c and so on; chosen by selects, not early returns. (Written
        // with SIMD16 vectors it took four times as long: Swift's generic masks were not inlined.)
        for i in first..<max(first, count) {
            let (a, b, c) = (Int16(row[i - 3]), Int16(above[i]), Int16(above[i - 3]))
            let pa = spread(b &- c), pb = spread(a &- c), pc = spread(a &+ b &- c &- c)
            let predictor = pa <= min(pb, pc) ? a : pb <= pc ? b : c
            out[i] = row[i] &- UInt8(truncatingIfNeeded: predictor)
        }
    }

    @inline(__always)
    private static func spread(_ v: Int16) -> Int16 { max(v, 0 &- v) }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        let typed = Array(type.utf8) + data
        png += bigEndian(UInt32(data.count)) + typed
        png += bigEndian(typed.withUnsafeBytes { Zlib.crc32($0) })
    }
}
