import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Base64 (RFC 4648, with padding), for pictures sent inside escape sequences.
package enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    package static func encode(_ bytes: [UInt8]) -> [UInt8] {
        var out = [UInt8](repeating: UInt8(ascii: "="), count: (bytes.count + 2) / 3 * 4)
        out.withUnsafeMutableBufferPointer { out in
            bytes.withUnsafeBufferPointer { input in
                alphabet.withUnsafeBufferPointer { table in
                    var o = 0, i = 0
                    while i + 3 <= input.count {
                        let n = Int(input[i]) << 16 | Int(input[i + 1]) << 8 | Int(input[i + 2])
                        out[o] = table[n >> 18]; out[o + 1] = table[n >> 12 & 63]
                        out[o + 2] = table[n >> 6 & 63]; out[o + 3] = table[n & 63]
                        i += 3; o += 4
                    }
                    let left = input.count - i
                    if left > 0 {
                        let n = Int(input[i]) << 16 | (left > 1 ? Int(input[i + 1]) << 8 : 0)
                        out[o] = table[n >> 18]; out[o + 1] = table[n >> 12 & 63]
                        if left > 1 { out[o + 2] = table[n >> 6 & 63] }
                    }
                }
            }
        }
        return out
    }

    /// The bytes back; nil on a character outside the alphabet or a wrong length. For tests.
    package static func decode(_ text: [UInt8]) -> [UInt8]? {
        guard text.count % 4 == 0 else { return nil }
        var values = [Int](repeating: -1, count: 256)
        for (i, c) in alphabet.enumerated() { values[Int(c)] = i }
        var out: [UInt8] = []
        out.reserveCapacity(text.count / 4 * 3)
        for start in stride(from: 0, to: text.count, by: 4) {
            let group = text[start..<(start + 4)]
            let padding = group.reversed().prefix { $0 == UInt8(ascii: "=") }.count
            guard padding <= 2 else { return nil }
            var n = 0
            for (k, c) in group.enumerated() {
                let v = k < 4 - padding ? values[Int(c)] : 0
                guard v >= 0 else { return nil }
                n = n << 6 | v
            }
            out.append(UInt8(n >> 16))
            if padding < 2 { out.append(UInt8(n >> 8 & 255)) }
            if padding < 1 { out.append(UInt8(n & 255)) }
        }
        return out
    }
}
