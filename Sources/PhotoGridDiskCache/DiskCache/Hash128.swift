import PhotoGridModel
import PhotoGridSystem

/// A 128-bit hash that is the same in every run and on every machine, for naming files on disk
/// and for the server's ETags.
/// Swift's `Hasher` is seeded per process, so it cannot name anything that outlives the process.
///
/// Two FNV-1a lanes with different starting values run side by side, and each ends with a
/// multiply-xorshift finaliser: FNV alone leaves its last input bytes poorly spread into the high
/// bits, and the high bits pick the subfolder. Not for security: the cache checks the full key
/// stored in each file, so a collision costs a miss, never a wrong picture.
package struct Hash128: Sendable {
    private var low: UInt64 = 0xcbf2_9ce4_8422_2325        // FNV-1a's published offset basis
    private var high: UInt64 = 0x6c62_272e_07bb_0142       // FNV-128's basis, high half: any other start would do
    private static let prime: UInt64 = 0x0000_0100_0000_01b3

    package init() {}

    mutating func combine<Bytes: Sequence>(bytes: Bytes) where Bytes.Element == UInt8 {
        for byte in bytes { step(byte) }
    }

    /// The same, for whole payloads: contiguous bytes hash several times faster than a sequence.
    mutating func combine(bytes: [UInt8]) {
        bytes.withUnsafeBufferPointer { buffer in
            var low = self.low, high = self.high
            for byte in buffer {
                low = (low ^ UInt64(byte)) &* Hash128.prime
                high = Hash128.rotated((high ^ UInt64(byte)) &* Hash128.prime)
            }
            self.low = low
            self.high = high
        }
    }

    private mutating func step(_ byte: UInt8) {
        low = (low ^ UInt64(byte)) &* Hash128.prime
        high = Hash128.rotated((high ^ UInt64(byte)) &* Hash128.prime)
    }

    /// Rotating one lane keeps the two from moving in step on similar inputs.
    private static func rotated(_ x: UInt64) -> UInt64 { (x << 7) | (x >> 57) }

    /// Eight bytes, little-endian, whatever the machine.
    package mutating func combine(_ value: UInt64) {
        combine(bytes: (0..<8).lazy.map { UInt8(truncatingIfNeeded: value >> ($0 * 8)) })
    }

    /// A length first, then the bytes: ("ab", "c") and ("a", "bc") must not hash alike.
    package mutating func combine(field: [UInt8]) {
        combine(UInt64(field.count))
        combine(bytes: field)
    }

    /// 32 lowercase hex digits, the high lane first.
    package var hex: String {
        let digits = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        out.reserveCapacity(32)
        for lane in [Hash128.finish(high), Hash128.finish(low)] {
            for shift in stride(from: 60, through: 0, by: -4) {
                out.append(digits[Int((lane >> UInt64(shift)) & 0xf)])
            }
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The 64-bit value of the low lane only, finalised: enough for a payload checksum.
    package var value64: UInt64 { Hash128.finish(low) }

    /// A payload's checksum (the disk cache's records): the low lane's FNV over 64-bit words
    /// (then the last bytes one by one), with a xorshift after each multiply, so that a 200 KB
    /// sixel tile is checked in a tenth of the time a byte at a step takes. Each step is a
    /// bijection of the state for a given word, so any one changed word changes the result.
    package static func checksum(_ payload: [UInt8]) -> UInt64 {
        var state: UInt64 = 0xcbf2_9ce4_8422_2325 ^ UInt64(payload.count)
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

    /// MurmurHash3's fmix64 constants: every input bit reaches every output bit.
    private static func finish(_ x: UInt64) -> UInt64 {
        var h = x
        h ^= h >> 33
        h &*= 0xff51_afd7_ed55_8ccd
        h ^= h >> 33
        h &*= 0xc4ce_b9fe_1a85_ec53
        h ^= h >> 33
        return h
    }
}
