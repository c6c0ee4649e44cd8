import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import Synchronization

/// Renditions on request: answered from the disk cache when made before, else made through the
/// work gate; several requests for one rendition at once share one making.
///
/// The ETag is known before anything is decoded, from the file's identity and the rendition's
/// size, so a client revalidating gets its 304 for the price of an `open` and an `fstat`.
final class RenditionStore: Sendable {
    /// What a request for a rendition comes to.
    enum Outcome: Sendable {
        case notModified(etag: String)
        case image([UInt8], etag: String)
    }

    let sizes: Set<Int>
    private let root: RawPath
    private let cache: DiskCache?
    private let gate: WorkGate
    /// One entry per rendition being made: the shared result, and how many requests wait on it.
    private let inFlight = SharedJobs<DiskCache.FileKey, Pending<Result<[UInt8], any Error>>>()

    /// Renditions made (decoded and encoded), not read from the cache: what tests count.
    let encodes = Atomic<Int>(0)
    /// Requests answered from the disk cache.
    let cacheHits = Atomic<Int>(0)
    /// For tests: runs on the making thread just before a rendition is made, so that a test can hold
    /// the making until the requests it wants to see coalesce have arrived.
    let beforeMaking = Locked<(@Sendable () -> Void)?>(nil)

    init(sizes: [Int], root: RawPath, cache: DiskCache?, gate: WorkGate) {
        self.sizes = Set(sizes)
        self.root = root
        self.cache = cache
        self.gate = gate
    }

    /// Requests now waiting on a rendition that is being made, over all renditions.
    var subscribers: Int { inFlight.askers }

    /// The rendition of `entry` with long side `size`, or "not modified" when `ifNoneMatch`
    /// names its current tag. Throws `ConfinedFile.Failure` or `DecodeError`.
    func rendition(of entry: GalleryIndex.Entry, size: Int, ifNoneMatch: String?) throws -> Outcome {
        let file = try ConfinedFile(entry.file, inside: root)
        let key = DiskCache.FileKey(path: entry.file, size: file.size, modified: file.modified, variant: "r\(size)")
        let etag = RenditionStore.etag(key, inode: file.inode)
        if let ifNoneMatch, Validators.noneMatch(ifNoneMatch, matches: etag) {
            return .notModified(etag: etag)
        }
        return .image(try shared(key) { try self.produce(key, from: file, longSide: size) }, etag: etag)
    }

    /// The cached rendition, or a new one made and cached. Runs inside the gate.
    private func produce(_ key: DiskCache.FileKey, from file: ConfinedFile, longSide: Int) throws -> [UInt8] {
        if let cached = cache?.read(key) {
            cacheHits.add(1, ordering: .relaxed)
            return cached
        }
        beforeMaking.withLock { $0 }?()
        let data = try file.readAll()
        let bytes = try Rendition.make(from: data, longSide: longSide)
        encodes.add(1, ordering: .relaxed)
        cache?.write(key, bytes)
        return bytes
    }

    /// Runs `work` through the gate unless the same key is already running; then waits for that
    /// run. The entry leaves the table before its result is handed out, and after the cache
    /// write: a request that comes later finds the rendition in the cache, not a finished entry.
    private func shared(_ key: DiskCache.FileKey, _ work: () throws -> [UInt8]) throws -> [UInt8] {
        let (job, leads) = inFlight.join(key) { Pending<Result<[UInt8], any Error>>() }
        if leads {
            let result = Result { try gate.run(work) }
            inFlight.finish(key)
            job.fulfil(result)
        }
        return try job.wait().get()
    }

    /// Changes whenever the file (path, inode, size, mtime) or the rendition's making does.
    static func etag(_ key: DiskCache.FileKey, inode: UInt64) -> String {
        var hash = Hash128()
        hash.combine(field: key.path.bytes)
        hash.combine(inode)
        hash.combine(UInt64(key.size))
        hash.combine(UInt64(bitPattern: key.modified))
        hash.combine(field: Array(key.variant.utf8))
        hash.combine(UInt64(Rendition.quality))
        hash.combine(Rendition.formatVersion)
        return Validators.etag(kind: key.variant, hash: hash.value64)
    }
}
