import PhotoGridModel
import PhotoGridSystem

/// The bytes of one disk cache file: a header, the full key, then the payload.
///
/// ```
/// offset  size  field
///  0       4    magic "PGDC"
///  4       2    format version, little-endian (3)
///  6       2    reserved, zero
///  8       4    key length K, UInt32 LE
/// 12       4    reserved, zero
/// 16       8    payload length N, UInt64 LE
/// 24       8    payload checksum, UInt64 LE (`checksum`)
/// 32       K    the key's bytes (`DiskCacheKey`)
/// 32+K     N    payload
/// ```
///
/// The whole key is stored, not just its hash, so that a hash collision or a file put under the
/// wrong name reads as a miss. The file must be exactly as long as the header says: a file cut
/// short by a crash, or with bytes added, is refused. The checksum catches flipped bits in the
/// payload, which no decoder downstream could tell from a real picture.
package enum DiskCacheRecord {
    static let magic: [UInt8] = Array("PGDC".utf8)
    /// 3: any kind of key, as bytes (2 had a photo's path, size, mtime and variant as fields; 1
    /// checksummed a byte at a step). Files of older versions read as misses and are deleted.
    static let version: UInt16 = 3
    static let headerSize = 32

    /// Header and payload in one buffer, so the file is written with one `write` in the common case.
    package static func encode(_ key: some DiskCacheKey, payload: [UInt8]) -> [UInt8] {
        let keyBytes = key.bytes
        var out: [UInt8] = []
        out.reserveCapacity(headerSize + keyBytes.count + payload.count)
        out += magic
        append(UInt64(version), width: 2, to: &out)
        append(0, width: 2, to: &out)
        append(UInt64(keyBytes.count), width: 4, to: &out)
        append(0, width: 4, to: &out)
        append(UInt64(payload.count), width: 8, to: &out)
        append(checksum(payload), width: 8, to: &out)
        out += keyBytes
        out += payload
        return out
    }

    /// The payload if `bytes` is a whole, undamaged record of exactly `key`; nil otherwise.
    static func decode(_ bytes: [UInt8], expecting key: some DiskCacheKey) -> [UInt8]? {
        guard bytes.count >= headerSize, bytes[0..<4].elementsEqual(magic),
              read(bytes, at: 4, width: 2) == UInt64(version), read(bytes, at: 6, width: 2) == 0,
              read(bytes, at: 12, width: 4) == 0 else { return nil }
        let keyBytes = key.bytes
        guard read(bytes, at: 8, width: 4) == UInt64(keyBytes.count) else { return nil }
        // Compared as UInt64 before any Int arithmetic: a damaged length must not overflow.
        let payloadLength = read(bytes, at: 16, width: 8)
        let payloadStart = headerSize + keyBytes.count
        guard payloadStart <= bytes.count, payloadLength == UInt64(bytes.count - payloadStart),
              bytes[headerSize..<payloadStart].elementsEqual(keyBytes) else { return nil }
        let payload = Array(bytes[payloadStart...])
        guard checksum(payload) == read(bytes, at: 24, width: 8) else { return nil }
        return payload
    }

    static func checksum(_ payload: [UInt8]) -> UInt64 { Hash128.checksum(payload) }

    private static func append(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        for i in 0..<width { out.append(UInt8(truncatingIfNeeded: value >> UInt64(i * 8))) }
    }

    private static func read(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<width { value |= UInt64(bytes[offset + i]) << UInt64(i * 8) }
        return value
    }
}
