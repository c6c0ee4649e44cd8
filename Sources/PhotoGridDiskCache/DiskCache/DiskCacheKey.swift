import PhotoGridModel
import PhotoGridSystem

/// What a disk cache entry is for. A key is its bytes: hashed, they name the entry's file, and
/// they are kept whole in it (`DiskCacheRecord`), so that a hash collision or a file under another
/// entry's name reads as a miss. Each kind of entry has its own key type: a file's tier or tile
/// (`DiskCache.FileKey`), an HTTP response
/// (`PhotoGridLoading`'s `HTTPCache`). Each begins its bytes with its kind's name, so two kinds
/// never share an entry.
package protocol DiskCacheKey: Sendable {
    var bytes: [UInt8] { get }
}

extension DiskCacheKey {
    /// 32 hex digits. Stable across runs and machines: it names a file.
    package var hashName: String {
        var hash = Hash128()
        hash.combine(bytes: bytes)
        return hash.hex
    }
}

extension DiskCache {
    /// A key's bytes: the kind's name, then each field behind its length, so that two different
    /// lists of fields never give the same bytes ("ab" + "c" against "a" + "bc").
    package static func keyBytes(kind: String, _ fields: [[UInt8]]) -> [UInt8] {
        var out: [UInt8] = []
        for field in [Array(kind.utf8)] + fields {
            withUnsafeBytes(of: UInt32(field.count).littleEndian) { out += $0 }
            out += field
        }
        return out
    }

    /// A number as a key field: eight bytes, little-endian.
    package static func field(_ value: Int64) -> [UInt8] { withUnsafeBytes(of: value.littleEndian) { Array($0) } }

    /// What is made from a file (a tier image "t512", an encoded tile): under the file's path,
    /// size and mtime (ns since the epoch) when it was read, so a file that changes misses. The
    /// path is used as given: the same photo reached by two paths (a relative one, a link) has
    /// two entries, which wastes a little space but is never wrong.
    package struct FileKey: DiskCacheKey, Hashable {
        package var path: RawPath
        package var size: Int
        package var modified: Int64
        package var variant: String

        package init(path: RawPath, size: Int, modified: Int64, variant: String) {
            self.path = path
            self.size = size
            self.modified = modified
            self.variant = variant
        }

        /// The file as it is now; nil if it cannot be looked at or is not a regular file (links
        /// are followed, as the folder scanner does).
        package init?(file path: RawPath, variant: String) {
            guard let status = path.status(), status.isRegular else { return nil }
            self.init(path: path, size: status.size, modified: status.modified, variant: variant)
        }

        package var bytes: [UInt8] {
            DiskCache.keyBytes(kind: "file", [path.bytes, DiskCache.field(Int64(size)), DiskCache.field(modified), Array(variant.utf8)])
        }
    }
}
