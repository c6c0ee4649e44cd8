import CDeflate

/// libdeflate: the only Swift file that calls it. It deflates whole buffers (a tile's filtered
/// rows) into one zlib stream, the same format zlib writes, in three fifths of the time: a kitty
/// screen's pictures spent a sixth of their CPU in zlib's level 1.
package enum Deflate {
    /// `bytes` as one zlib stream (RFC 1950) at `level` (1 fastest, 12 smallest): level 1, as
    /// a photo's pixels shrink little more at higher levels, and the encode runs once a tile.
    package static func zlib(_ bytes: [UInt8], level: Int32 = 1) -> [UInt8]? {
        guard let compressor = libdeflate_alloc_compressor(level) else { return nil }
        defer { libdeflate_free_compressor(compressor) }
        let bound = libdeflate_zlib_compress_bound(compressor, bytes.count)
        let out = [UInt8](unsafeUninitializedCapacity: bound) { buffer, count in
            count = bytes.withUnsafeBytes { source in
                libdeflate_zlib_compress(compressor, source.baseAddress, source.count, buffer.baseAddress, bound)
            }
        }
        // 0: it did not fit, which the bound rules out; said as a failure all the same.
        return out.isEmpty ? nil : out
    }
}
