import CZlib
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// zlib: the only Swift file that calls it. It inflates PNG's image data (PNG+Rows.swift says why
/// not through libspng) and embedded profiles, and gives PNG's and zlib's checksums. kitty's
/// pictures are deflated by `HuffmanDeflate` (PhotoGridCanvas), not here.
package enum Zlib {
    /// `bytes` as one zlib stream (RFC 1950), at `level`: for tests, which compare photogrid's
    /// deflater with zlib's and make PNG data to read.
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
    /// or longer. For tests, which check what a deflated picture carries.
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

    /// The CRC-32 of `bytes` (ISO 3309, as PNG's chunks carry it); after `earlier`, that of the
    /// bytes it was of and then these.
    package static func crc32(_ bytes: UnsafeRawBufferPointer, after earlier: UInt32 = 0) -> UInt32 {
        UInt32(CZlib.crc32_z(uLong(earlier), bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), bytes.count))
    }

    /// The Adler-32 of `bytes` (RFC 1950: the check at a zlib stream's end).
    package static func adler32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        UInt32(CZlib.adler32_z(1, bytes.baseAddress?.assumingMemoryBound(to: Bytef.self), bytes.count))
    }

    /// A zlib stream inflated piece by piece, as PNG's image data arrives in chunks: each call
    /// takes what it can of `input` and fills what it can of `output`.
    package final class Inflater {
        package enum Status { case more, ended, damaged }
        /// zlib's state points back at its stream (and checks it does): the stream stays at one
        /// address, allocated here rather than a stored property Swift may move for an access.
        private let stream: UnsafeMutablePointer<z_stream>
        private let started: Bool

        /// `raw`: a deflate stream without zlib's header and Adler-32 check (the caller skips the
        /// header's two bytes), for a format that checks its data otherwise, as PNG's CRCs do.
        package init?(raw: Bool = false) {
            stream = .allocate(capacity: 1)
            stream.initialize(to: z_stream())
            started = inflateInit2_(stream, raw ? -15 : 15, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
            if !started { return nil }
        }

        /// Runs after a failed init too (every stored property was set), so the stream is freed
        /// here alone: freeing it in init as well freed it twice.
        deinit {
            if started { inflateEnd(stream) }
            stream.deinitialize(count: 1)
            stream.deallocate()
        }

        /// Inflates from `input` into `output`: how many bytes of each it used, and whether the
        /// stream goes on, has ended, or is damaged.
        package func inflate(_ input: UnsafeRawBufferPointer, into output: UnsafeMutableRawBufferPointer) -> (read: Int, written: Int, status: Status) {
            guard let inBase = input.baseAddress, let outBase = output.baseAddress, input.count > 0, output.count > 0 else { return (0, 0, .more) }
            stream.pointee.next_in = UnsafeMutablePointer(mutating: inBase.assumingMemoryBound(to: Bytef.self))
            stream.pointee.avail_in = uInt(min(input.count, Int(UInt32.max)))
            stream.pointee.next_out = outBase.assumingMemoryBound(to: Bytef.self)
            stream.pointee.avail_out = uInt(min(output.count, Int(UInt32.max)))
            let before = (stream.pointee.avail_in, stream.pointee.avail_out)
            let code = CZlib.inflate(stream, Z_NO_FLUSH)
            let used = (Int(before.0 - stream.pointee.avail_in), Int(before.1 - stream.pointee.avail_out))
            stream.pointee.next_in = nil; stream.pointee.next_out = nil
            switch code {
            case Z_OK, Z_BUF_ERROR: return (used.0, used.1, .more)
            case Z_STREAM_END: return (used.0, used.1, .ended)
            default: return (used.0, used.1, .damaged)
            }
        }
    }
}
