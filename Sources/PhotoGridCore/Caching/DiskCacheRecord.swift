/// The bytes of one disk cache file: a header naming the full key, then the payload.
///
/// ```
/// offset  size  field
///  0       4    magic "PGDC"
///  4       2    format version, little-endian (2)
///  6       2    reserved, zero
///  8       8    photo size in bytes, Int64 LE
/// 16       8    photo mtime in ns since the epoch, Int64 LE
/// 24       4    path length P, UInt32 LE
/// 28       4    variant length V, UInt32 LE
/// 32       8    payload length N, UInt64 LE
/// 40       8    payload checksum, UInt64 LE (`checksum`)
/// 48       P    path bytes, as the kernel knows them
/// 48+P     V    variant, UTF-8
/// 48+P+V   N    payload
/// ```
///
/// The whole key is stored, not just its hash, so that a hash collision or a file put under the
/// wrong name reads as a miss. The file must be exactly as long as the header says: a file cut
/// short by a crash, or with bytes added, is refused. The checksum catches flipped bits in the
/// payload, which no decoder downstream could tell from a real picture.
enum DiskCacheRecord {
    static let magic: [UInt8] = Array("PGDC".utf8)
    /// 2: the checksum reads eight bytes at a step (version 1 read one; its files read as misses).
    static let version: UInt16 = 2
    static let headerSize = 48

    /// Header and payload in one buffer, so the file is written with one `write` in the common case.
    static func encode(_ key: DiskCache.Key, payload: [UInt8]) -> [UInt8] {
        let variant = Array(key.variant.utf8)
        var out: [UInt8] = []
        out.reserveCapacity(headerSize + key.path.bytes.count + variant.count + payload.count)
        out += magic
        append(UInt64(version), width: 2, to: &out)
        append(0, width: 2, to: &out)
        append(UInt64(bitPattern: Int64(key.size)), width: 8, to: &out)
        append(UInt64(bitPattern: key.modified), width: 8, to: &out)
        append(UInt64(key.path.bytes.count), width: 4, to: &out)
        append(UInt64(variant.count), width: 4, to: &out)
        append(UInt64(payload.count), width: 8, to: &out)
        append(checksum(payload), width: 8, to: &out)
        out += key.path.bytes
        out += variant
        out += payload
        return out
    }

    /// The payload if `bytes` is a whole, undamaged record of exactly `key`; nil otherwise.
    static func decode(_ bytes: [UInt8], expecting key: DiskCache.Key) -> [UInt8]? {
        guard bytes.count >= headerSize, bytes[0..<4].elementsEqual(magic),
              read(bytes, at: 4, width: 2) == UInt64(version), read(bytes, at: 6, width: 2) == 0 else { return nil }
        let variant = Array(key.variant.utf8)
        guard Int64(bitPattern: read(bytes, at: 8, width: 8)) == Int64(key.size),
              Int64(bitPattern: read(bytes, at: 16, width: 8)) == key.modified,
              read(bytes, at: 24, width: 4) == UInt64(key.path.bytes.count),
              read(bytes, at: 28, width: 4) == UInt64(variant.count) else { return nil }
        // Compared as UInt64 before any Int arithmetic: a damaged length must not overflow.
        let payloadLength = read(bytes, at: 32, width: 8)
        let payloadStart = headerSize + key.path.bytes.count + variant.count
        guard payloadStart <= bytes.count, payloadLength == UInt64(bytes.count - payloadStart) else { return nil }
        let pathEnd = headerSize + key.path.bytes.count
        guard bytes[headerSize..<pathEnd].elementsEqual(key.path.bytes),
              bytes[pathEnd..<payloadStart].elementsEqual(variant) else { return nil }
        let payload = Array(bytes[payloadStart...])
        guard checksum(payload) == read(bytes, at: 40, width: 8) else { return nil }
        return payload
    }

    /// FNV-style over 64-bit words (then the last bytes one by one), so that a 200 KB sixel tile
    /// is checked in a tenth of the time a byte at a step took. Each step is a bijection of the
    /// state for a given word, so any one changed word changes the result.
    static func checksum(_ payload: [UInt8]) -> UInt64 {
        let prime: UInt64 = 0x100_0000_01B3
        var state: UInt64 = 0xCBF2_9CE4_8422_2325 ^ UInt64(payload.count)
        payload.withUnsafeBytes { raw in
            let words = raw.count / 8
            for i in 0..<words {
                let word = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: i * 8, as: UInt64.self))
                state = (state ^ word) &* prime
                state ^= state >> 29
            }
            for i in (words * 8)..<raw.count { state = (state ^ UInt64(raw[i])) &* prime }
        }
        return state
    }

    private static func append(_ value: UInt64, width: Int, to out: inout [UInt8]) {
        for i in 0..<width { out.append(UInt8(truncatingIfNeeded: value >> UInt64(i * 8))) }
    }

    private static func read(_ bytes: [UInt8], at offset: Int, width: Int) -> UInt64 {
        var value: UInt64 = 0
        for i in 0..<width { value |= UInt64(bytes[offset + i]) << UInt64(i * 8) }
        return value
    }
}
