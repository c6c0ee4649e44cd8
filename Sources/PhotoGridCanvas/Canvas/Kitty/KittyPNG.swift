import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel

/// A tile as a PNG (kitty's `f=100`): its rows filtered as PNG filters them, then deflated.
/// A photo's raw rows barely deflate; the difference of each pixel from its neighbours (a row
/// filter) is mostly small numbers, which deflate well, so the same picture goes in fewer bytes
/// for about the same work (docs/benchmarks.md, "kitty's bytes"). Every row is Sub-filtered (the
/// difference from the pixel to its left): Paeth made 3.5-5.5% fewer bytes on camera photos for
/// 7% more of a contact sheet's CPU and a tenth more of its time (docs/benchmarks.md, "Issue 53:
/// a third pass at --print --fit"), and kitty undoes Sub the fastest of the filters too.
enum KittyPNG {
    static func encode(_ image: RGBImage) -> [UInt8]? {
        let width = image.width, height = image.height, stride = width * 3
        guard width > 0, height > 0, image.pixels.count >= stride * height else { return nil }
        // Every byte is written below: no zeros first.
        let filtered = [UInt8](unsafeUninitializedCapacity: (stride + 1) * height) { out, count in
            image.pixels.withUnsafeBufferPointer { pixels in
                for y in 0..<height {
                    let target = out.baseAddress! + y * (stride + 1)
                    target[0] = 1
                    sub(row: pixels.baseAddress! + y * stride, count: stride, into: target + 1)
                }
            }
            count = (stride + 1) * height
        }
        let data = filtered.withUnsafeBufferPointer { HuffmanDeflate.zlib($0) }
        // The signature, IHDR's 25 bytes, IDAT's 12 around its data, IEND's 12: one copy of the
        // data, into its place.
        var png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
        png.reserveCapacity(8 + 25 + 12 + data.count + 12)
        var header = bigEndian(UInt32(width)) + bigEndian(UInt32(height))
        header += [8, 2, 0, 0, 0]                        // 8 bits, RGB, deflate, adaptive filters, no interlace
        chunk("IHDR", header, into: &png)
        chunk("IDAT", data, into: &png)
        chunk("IEND", [], into: &png)
        return png
    }

    /// PNG's Sub filter of one row, 3 bytes a pixel: the first pixel as it is (nothing to its
    /// left), then each byte less the one a pixel before; 16 bytes at a time, since the compiler
    /// kept the plain loop a byte at a time (the two pointers may overlap, for all it knows),
    /// 2% of a kitty sheet's CPU.
    static func sub(row: UnsafePointer<UInt8>, count: Int, into out: UnsafeMutablePointer<UInt8>) {
        let first = min(3, count)
        for i in 0..<first { out[i] = row[i] }
        var i = first
        let source = UnsafeRawPointer(row), target = UnsafeMutableRawPointer(out)
        while i + 16 <= count {
            let difference = source.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self)
                &- source.loadUnaligned(fromByteOffset: i - 3, as: SIMD16<UInt8>.self)
            target.storeBytes(of: difference, toByteOffset: i, as: SIMD16<UInt8>.self)
            i += 16
        }
        while i < count {
            out[i] = row[i] &- row[i - 3]
            i += 1
        }
    }

    private static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }

    private static func chunk(_ type: String, _ data: [UInt8], into png: inout [UInt8]) {
        let name = Array(type.utf8)
        png += bigEndian(UInt32(data.count))
        png += name
        png += data
        // The check covers the type and the data, taken one after the other.
        let crc = data.withUnsafeBytes { Zlib.crc32($0, after: name.withUnsafeBytes { Zlib.crc32($0) }) }
        png += bigEndian(crc)
    }
}
