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
/// so it is not done in `GalleryServer.init`: `start()` begins it on threads of its own, in
/// slices through the work gate, and requests that come before it is done wait for that one
/// build.
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
    private let gate: WorkGate
    private let workers: Int
    private let built = Pending<Document>()
    private let builder = Locked<(started: Bool, thread: JoinableThread?)>((false, nil))

    init(index: GalleryIndex, sizes: [Int], gate: WorkGate, workers: Int) {
        self.index = index
        self.sizes = sizes
        self.gate = gate
        self.workers = workers
    }

    /// Begins the build, once.
    func start() {
        builder.withLock { builder in
            guard !builder.started else { return }
            builder.started = true
            builder.thread = JoinableThread { self.built.fulfil(self.makeDocument()) }
            // No thread to spare: the first request builds it instead.
            if builder.thread == nil { builder.started = false }
        }
    }

    /// The manifest, waiting for its build (started now if it was not).
    func document() -> Document {
        start()
        if builder.withLock({ $0.thread == nil }) {
            built.fulfil(makeDocument())
        }
        return built.wait()
    }

    /// Waits for a build under way: `stop` leaves no thread reading the folder behind it.
    func waitForBuild() {
        builder.withLock { $0.thread }?.join()
    }

    private func makeDocument() -> Document {
        let start = SystemClock().seconds()
        let entries = index.entries, root = index.root
        // A few slices per worker rather than one, so that a slice of slow files (cold disk,
        // large XMP) does not leave the other workers idle at the end.
        let sliceCount = max(1, min(entries.count, workers * 4))
        let slices = (0..<sliceCount).map { slice in
            (entries.count * slice / sliceCount)..<(entries.count * (slice + 1) / sliceCount)
        }
        let parts = Locked([[Manifest.Details]](repeating: [], count: sliceCount))
        let gate = self.gate
        JoinableThread.forEach(sliceCount, threads: workers) { slice in
            let details = gate.run { slices[slice].map { Manifest.details(of: entries[$0], root: root) } }
            parts.withLock { $0[slice] = details }
        }
        let details = parts.withLock { $0 }.flatMap { $0 }
        let bytes = Manifest.document(index, details: details, sizes: sizes)
        var hash = Hash128()
        hash.combine(field: bytes)
        return Document(bytes: bytes, etag: Validators.etag(kind: "m", hash: hash.value64),
                        buildSeconds: SystemClock().seconds() - start, shapes: details.map { ($0.width, $0.height) },
                        sizes: Array(Set(sizes)).sorted())
    }
}
