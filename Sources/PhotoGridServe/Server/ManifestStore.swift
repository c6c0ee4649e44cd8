import NIOCore
import NIOPosix
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The served manifest, made once and then kept: the folder was scanned at start-up, and the
/// manifest describes that scan for as long as the server runs.
///
/// Making it reads the head of every photo, which for 10,000 photos takes a noticeable moment,
/// so it is not done in `GalleryServer.init`: `start()` begins it on the worker pool, split in
/// one slice per worker, and requests that come before it is done wait for that one build.
final class ManifestStore: Sendable {
    /// The document, its tag, and what it took to make.
    struct Document: Sendable {
        let bytes: [UInt8]
        let etag: String
        let buildSeconds: Double
        /// Each photo's width and height as the document gives them, in its order, and the
        /// template's sizes, smallest first: what an opening batch chooses its renditions by.
        var shapes: [(width: Int?, height: Int?)] = []
        var sizes: [Int] = []
    }

    private let index: GalleryIndex
    private let sizes: [Int]
    private let pool: NIOThreadPool
    private let workers: Int
    private let build = Locked<EventLoopFuture<Document>?>(nil)

    init(index: GalleryIndex, sizes: [Int], pool: NIOThreadPool, workers: Int) {
        self.index = index
        self.sizes = sizes
        self.pool = pool
        self.workers = workers
    }

    /// The manifest, on `loop`; the first call starts the build that all later calls share.
    func document(on loop: EventLoop) -> EventLoopFuture<Document> {
        let future = build.withLock { build in
            if let build { return build }
            let started = makeDocument(on: loop)
            build = started
            return started
        }
        return future.hop(to: loop)
    }

    private func makeDocument(on loop: EventLoop) -> EventLoopFuture<Document> {
        let start = SystemClock().seconds()
        let entries = index.entries, root = index.root
        let index = self.index, sizes = self.sizes, pool = self.pool
        // A few slices per worker rather than one, so that a slice of slow files (cold disk,
        // large XMP) does not leave the other workers idle at the end.
        let sliceCount = max(1, min(entries.count, workers * 4))
        let slices = (0..<sliceCount).map { slice in
            (entries.count * slice / sliceCount)..<(entries.count * (slice + 1) / sliceCount)
        }
        let reads = slices.map { range in
            pool.runIfActive(eventLoop: loop) { range.map { Manifest.details(of: entries[$0], root: root) } }
        }
        return EventLoopFuture.whenAllSucceed(reads, on: loop).flatMap { parts in
            pool.runIfActive(eventLoop: loop) {
                let details = parts.flatMap { $0 }
                let bytes = Manifest.document(index, details: details, sizes: sizes)
                var hash = Hash128()
                hash.combine(field: bytes)
                return Document(bytes: bytes, etag: Validators.etag(kind: "m", hash: hash.value64),
                                buildSeconds: SystemClock().seconds() - start, shapes: details.map { ($0.width, $0.height) },
                                sizes: Array(Set(sizes)).sorted())
            }
        }
    }
}
