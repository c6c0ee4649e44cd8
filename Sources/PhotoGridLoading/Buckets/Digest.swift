import CCrypto
import PhotoGridSystem

/// The hashes buckets need, from OpenSSL's libcrypto (the one file calling it): SHA-256 and
/// HMAC-SHA-256 for Signature Version 4, MD5 for a file's ETag. Lower-case hex where AWS wants text.
package enum Digest {
    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(Array(bytes), EVP_sha256()) }

    package static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] { digest(Array(bytes), EVP_md5()) }

    package static func hmacSHA256(key: [UInt8], _ message: some Collection<UInt8>) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let message = Array(message)
        key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { data in
                _ = HMAC(EVP_sha256(), key.baseAddress, Int32(key.count), data.baseAddress, data.count, &out, &length)
            }
        }
        return Array(out.prefix(Int(length)))
    }

    /// The MD5 of a file read a piece at a time (a large original is not held whole); nil when
    /// it cannot be read.
    package static func md5(ofFile path: RawPath) -> [UInt8]? {
        guard let file = try? FileDescriptor.open(path, .read, options: .untrusted) else { return nil }
        defer { try? file.close() }
        guard let context = EVP_MD_CTX_new() else { return nil }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestInit_ex(context, EVP_md5(), nil) == 1 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            guard let count = try? buffer.withUnsafeMutableBytes({ buffer throws(SystemError) in try file.read(into: buffer) }) else { return nil }
            if count == 0 { break }
            _ = buffer.withUnsafeBytes { EVP_DigestUpdate(context, $0.baseAddress, count) }
        }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        guard EVP_DigestFinal_ex(context, &out, &length) == 1 else { return nil }
        return Array(out.prefix(Int(length)))
    }

    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }

    private static func digest(_ bytes: [UInt8], _ type: OpaquePointer?) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBufferPointer { data in
            _ = EVP_Digest(data.baseAddress, data.count, &out, &length, type, nil)
        }
        return Array(out.prefix(Int(length)))
    }
}
