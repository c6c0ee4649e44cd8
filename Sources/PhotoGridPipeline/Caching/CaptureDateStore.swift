import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// A gallery's capture dates in the disk cache, one record for the whole gallery: each photo's
/// path, size, mtime and date (or none). A photo whose size or mtime changed since is read again;
/// a second date sort of a large folder reads nothing. One record rather than one entry a photo:
/// 100,000 entries of a few bytes would each take a file and a disk block.
package struct CaptureDateStore: Sendable {
    package let cache: DiskCache
    let key: Key

    /// The record of one gallery, by the folder's path.
    package struct Key: DiskCacheKey {
        let gallery: RawPath
        package var bytes: [UInt8] { DiskCache.keyBytes(kind: "capture-dates-1", [gallery.bytes]) }
    }

    package init(cache: DiskCache, gallery: RawPath) {
        self.cache = cache
        key = Key(gallery: gallery)
    }

    /// What the record knows: for each photo's path, the stamp it was read at and its date.
    package func load() -> [RawPath: (stamp: FileStamp, date: Int64?)] {
        guard let payload = cache.read(key) else { return [:] }
        var result: [RawPath: (stamp: FileStamp, date: Int64?)] = [:]
        var at = 0
        func integer(_ bytes: Int) -> Int64? {
            guard at + bytes <= payload.count else { return nil }
            var value: UInt64 = 0
            for i in 0..<bytes { value |= UInt64(payload[at + i]) << (8 * UInt64(i)) }
            at += bytes
            return Int64(bitPattern: value)
        }
        while at < payload.count {
            guard let length = integer(4), length >= 0, at + Int(length) <= payload.count else { return [:] }
            let path = RawPath(Array(payload[at..<(at + Int(length))]))
            at += Int(length)
            guard let size = integer(8), let modified = integer(8), let flag = integer(1), let date = integer(8) else { return [:] }
            result[path] = (FileStamp(size: Int(size), modified: modified), flag == 1 ? date : nil)
        }
        return result
    }

    package func save(_ dates: [(path: RawPath, stamp: FileStamp, date: Int64?)]) {
        var payload: [UInt8] = []
        func append(_ value: Int64, _ bytes: Int) {
            let bits = UInt64(bitPattern: value)
            for i in 0..<bytes { payload.append(UInt8(truncatingIfNeeded: bits >> (8 * UInt64(i)))) }
        }
        for entry in dates {
            append(Int64(entry.path.bytes.count), 4)
            payload += entry.path.bytes
            append(Int64(entry.stamp.size), 8)
            append(entry.stamp.modified, 8)
            append(entry.date == nil ? 0 : 1, 1)
            append(entry.date ?? 0, 8)
        }
        cache.write(key, payload)
    }
}
