import CCrypto
import PhotoGridSystem

/// The hashes buckets need, from OpenSSL's libcrypto (the one file calling it): SHA-256 and
/// HMAC-SHA-256 for Signature Version 4, MD5 for a file's ETag. Lower-case hex where AWS wants text.
/// libcrypto is loaded on first use (Sources/CCrypto/include/crypto_loader.h); a machine without
/// it has no libcurl either (libcurl links it), so no bucket is reached: the digests are then
/// empty rather than a crash.
package enum Digest {
    /// libcrypto's functions (loaded once; a pthread_once after that).
    static var crypto: UnsafePointer<pg_crypto>? { pg_crypto_load() }

    package static func sha256(_ bytes: some Collection<UInt8>) -> [UInt8] {
        guard let crypto else { return [] }
        return digest(Array(bytes), crypto.pointee.EVP_sha256())
    }

    package static func md5(_ bytes: some Collection<UInt8>) -> [UInt8] {
        guard let crypto else { return [] }
        return digest(Array(bytes), crypto.pointee.EVP_md5())
    }

    package static func hmacSHA256(key: [UInt8], _ message: some Collection<UInt8>) -> [UInt8] {
        guard let crypto else { return [] }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let message = Array(message)
        key.withUnsafeBufferPointer { key in
            message.withUnsafeBufferPointer { data in
                _ = crypto.pointee.HMAC(crypto.pointee.EVP_sha256(), key.baseAddress, Int32(key.count), data.baseAddress, data.count,
                                        &out, &length)
            }
        }
        return Array(out.prefix(Int(length)))
    }

    /// The ETag S3 gives the file at `path` once uploaded as `BucketClient` uploads it: the hex
    /// MD5 of its bytes when it goes in one piece; in parts of `partSize`, the MD5 of the parts'
    /// MD5s followed by "-" and their count. Read a piece at a time (a large original is not
    /// held whole); nil when it cannot be read.
    package static func etag(ofFile path: RawPath, partSize: Int) -> String? {
        guard let file = try? FileDescriptor.open(path, .read, options: .untrusted) else { return nil }
        defer { try? file.close() }
        var parts: [[UInt8]] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        guard let crypto, let context = crypto.pointee.EVP_MD_CTX_new() else { return nil }
        defer { crypto.pointee.EVP_MD_CTX_free(context) }
        var inPart = 0
        func finish() -> Bool {
            var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            guard crypto.pointee.EVP_DigestFinal_ex(context, &out, &length) == 1 else { return false }
            parts.append(Array(out.prefix(Int(length))))
            inPart = 0
            return crypto.pointee.EVP_DigestInit_ex(context, crypto.pointee.EVP_md5(), nil) == 1
        }
        guard crypto.pointee.EVP_DigestInit_ex(context, crypto.pointee.EVP_md5(), nil) == 1 else { return nil }
        while true {
            let room = min(buffer.count, partSize - inPart)
            guard let count = try? buffer.withUnsafeMutableBytes({ buffer throws(SystemError) in
                try file.read(into: UnsafeMutableRawBufferPointer(rebasing: buffer.prefix(room)))
            }) else { return nil }
            if count == 0 { break }
            _ = buffer.withUnsafeBytes { crypto.pointee.EVP_DigestUpdate(context, $0.baseAddress, count) }
            inPart += count
            if inPart == partSize, !finish() { return nil }
        }
        if inPart > 0 || parts.isEmpty, !finish() { return nil }
        if parts.count == 1 { return hex(parts[0]) }
        return hex(md5(parts.flatMap { $0 })) + "-\(parts.count)"
    }

    package static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes { text += [digits[Int(byte >> 4)], digits[Int(byte & 15)]] }
        return String(decoding: text, as: UTF8.self)
    }

    private static func digest(_ bytes: [UInt8], _ type: OpaquePointer?) -> [UInt8] {
        guard let crypto else { return [] }
        var out = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        bytes.withUnsafeBufferPointer { data in
            _ = crypto.pointee.EVP_Digest(data.baseAddress, data.count, &out, &length, type, nil)
        }
        return Array(out.prefix(Int(length)))
    }
}
