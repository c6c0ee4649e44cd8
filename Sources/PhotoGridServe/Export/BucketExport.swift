import GalleryFormats
import PhotoGridDiskCache
import PhotoGridLoading
import PhotoGridModel
import PhotoGridSystem

/// `photogrid export DIR s3://BUCKET/PREFIX`: the export made in a folder of photogrid's cache
/// (incremental there, as any export), then that folder brought to the bucket: each file whose
/// key is missing, or whose size or ETag differs from the object's (a single upload's ETag is its
/// MD5; one in parts, the MD5 of its parts' MD5s), is put with its type and cache header, the manifest last; then objects of the export's
/// own folders (renditions/, originals/) that the new manifest no longer names are deleted. A
/// second run over an unchanged folder lists the prefix and uploads nothing.
package struct BucketExport {
    package struct Summary: Sendable {
        package var uploaded = 0
        package var unchanged = 0
        package var removed = 0
        package var requests = 0
    }

    let client: BucketClient
    /// The export's folder in the cache.
    let staging: RawPath
    let target: String

    /// Where an export to `target` is kept in the cache (no secret: an s3:// URL holds no login).
    package static func stagingFolder(for target: String, environment: [String: String]) -> String? {
        DiskCache.defaultDirectory(environment: environment).map { $0 + "/exports/" + Digest.hex(Digest.sha256(Array(target.utf8))).prefix(32) }
    }

    package init(client: BucketClient, staging: String, target: String) {
        (self.client, self.staging, self.target) = (client, RawPath(staging), target)
    }

    /// What the prefix holds now, asked before anything is made, so that a wrong bucket or key
    /// fails at once. As a folder: the prefix must be empty or an earlier export, since objects
    /// of the export's folders that it no longer names are deleted.
    package func existing() throws(FetchError) -> [String: BucketAnswer.Object] {
        let remote = try client.objects(under: client.location.prefix)
        if !remote.isEmpty, remote[client.location.prefix + GalleryExport.manifestName] == nil {
            throw .unusable("\(target) holds objects and no photogrid export (no manifest.json): choose an empty prefix")
        }
        return remote
    }

    /// Brings the bucket, holding `remote` (`existing()`), to the staged export.
    /// `progress(done, total)` as files go up.
    package func run(over remote: [String: BucketAnswer.Object], progress: @escaping @Sendable (Int, Int) -> Void = { _, _ in }) throws(FetchError) -> Summary {
        let prefix = client.location.prefix
        let manifestKey = prefix + GalleryExport.manifestName
        let files = BucketExport.files(under: staging)
        var summary = Summary()
        var wanted: [(key: String, path: RawPath, size: Int)] = []
        for file in files {
            let key = prefix + file.relative
            if let object = remote[key], object.size == file.size, object.etag.lowercased() == Digest.etag(ofFile: file.path, partSize: BucketClient.partSize) {
                summary.unchanged += 1
            } else {
                wanted.append((key, file.path, file.size))
            }
        }
        // The manifest goes last: until it is in place, the bucket serves the previous export whole.
        wanted.sort { ($0.key == manifestKey ? 1 : 0, $0.key) < ($1.key == manifestKey ? 1 : 0, $1.key) }
        let others = wanted.filter { $0.key != manifestKey }
        let total = wanted.count
        let failure = Locked<FetchError?>(nil)
        let done = Locked(0)
        JoinableThread.forEach(others.count, threads: 4) { i in
            guard failure.withLock({ $0 == nil }) else { return }
            let file = others[i]
            do throws(FetchError) {
                try client.upload(file.path, size: file.size, as: file.key, type: BucketExport.contentType(of: file.key),
                                  cacheControl: "public, max-age=3600")
                progress(done.withLock { $0 += 1; return $0 }, total)
            } catch {
                failure.withLock { $0 = $0 ?? error }
            }
        }
        if let error = failure.withLock({ $0 }) { throw error }
        if let manifest = wanted.first(where: { $0.key == manifestKey }) {
            // Asked for before each visit: it names the renditions of the moment.
            try client.upload(manifest.path, size: manifest.size, as: manifest.key, type: "application/json", cacheControl: "no-cache")
            progress(wanted.count, wanted.count)
        }
        summary.uploaded = wanted.count
        let kept = Set(files.map { prefix + $0.relative })
        for key in remote.keys.sorted() where !kept.contains(key) {
            let below = key.dropFirst(prefix.count)
            guard below.hasPrefix("renditions/") || below.hasPrefix("originals/") else { continue }
            try client.delete(key)
            summary.removed += 1
        }
        summary.requests = client.requests
        return summary
    }

    /// The staged export's files, by their paths below it; hidden ones (half-written) left out.
    static func files(under root: RawPath) -> [(relative: String, path: RawPath, size: Int)] {
        var found: [(relative: String, path: RawPath, size: Int)] = []
        var folders: [(RawPath, String)] = [(root, "")]
        while let (folder, relative) = folders.popLast() {
            for (name, status) in DirectoryEntry.statuses(in: folder) where name.first != UInt8(ascii: ".") {
                let text = relative + String(decoding: name, as: UTF8.self)
                if status.isDirectory { folders.append((folder.appending(name), text + "/")) }
                if status.isRegular { found.append((text, folder.appending(name), status.size)) }
            }
        }
        return found.sorted { $0.relative < $1.relative }
    }

    /// What a browser or a CDN is told a file is.
    static func contentType(of key: String) -> String {
        let types = ["jpg": "image/jpeg", "jpeg": "image/jpeg", "json": "application/json", "png": "image/png", "webp": "image/webp",
                     "gif": "image/gif", "heic": "image/heic", "heif": "image/heif", "avif": "image/avif", "tif": "image/tiff",
                     "tiff": "image/tiff", "jxl": "image/jxl", "mp4": "video/mp4", "mov": "video/quicktime", "webm": "video/webm"]
        return types[RawPath(key).lowercasedExtension] ?? "application/octet-stream"
    }
}
