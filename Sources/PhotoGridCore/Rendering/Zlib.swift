import CZlib

/// zlib: the only Swift file that calls it.
package enum Zlib {
    /// `bytes` as one zlib stream (RFC 1950), what the kitty graphics protocol's `o=z` takes.
    /// Level 1: a photo's pixels shrink little more at higher levels (measured in
    /// docs/benchmarks.md), and the encode runs once a tile on a worker.
    package static func compress(_ bytes: [UInt8], level: Int32 = 1) -> [UInt8]? {
        var size = compressBound(uLong(bytes.count))
        var out = [UInt8](repeating: 0, count: Int(size))
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                compress2(target.baseAddress, &size, source.baseAddress, uLong(source.count), level)
            }
        }
        guard status == Z_OK else { return nil }
        out.removeSubrange(Int(size)...)
        return out
    }

    /// The bytes of one zlib stream back, at most `limit` of them; nil when the stream is damaged
    /// or longer. For tests, which check what a kitty picture carries.
    package static func decompress(_ bytes: [UInt8], limit: Int) -> [UInt8]? {
        var size = uLong(limit)
        var out = [UInt8](repeating: 0, count: limit)
        let status = out.withUnsafeMutableBufferPointer { target in
            bytes.withUnsafeBufferPointer { source in
                uncompress(target.baseAddress, &size, source.baseAddress, uLong(source.count))
            }
        }
        guard status == Z_OK else { return nil }
        out.removeSubrange(Int(size)...)
        return out
    }
}
