import PhotoGridCatalog
import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem

/// The capture dates of a list of photos, read on a thread of their own for the date order:
/// from the catalog where a photo has not changed since it was read, else from what its gallery says
/// (`PhotoLoading.knownInfo`), else from the photo's own header (`PhotoDecoding.info`: EXIF's
/// DateTimeOriginal), a few of those under way at a time when the loader brings them from far.
/// The grid goes on meanwhile; the status line says how far the reading has got, and the new
/// order comes when it is done. What is read goes into the catalog whole (camera, exposure,
/// rating beside the date), since the header is read anyway.
package final class CaptureDates: @unchecked Sendable {
    struct State {
        var dates: [PhotoSource: Int64?] = [:]
        /// The ratings the catalog or the headers gave, where not 0: few, so kept by path.
        var ratings: [PhotoSource: Int] = [:]
        var done = 0
        var finished = false
        var cancelled = false
        var notices: [String] = []
    }

    package let total: Int
    private let state = Locked(State())

    /// Starts reading. `onProgress` is called (on the reading thread) every so often and at the end.
    package init(photos: [Photo], reader: InfoReader, catalog: GalleryCatalog?, onProgress: @escaping @Sendable () -> Void) {
        total = photos.count
        WorkerThreads.start { [self] in
            read(photos, reader: reader, catalog: catalog, onProgress: onProgress)
        }
    }

    /// Reads at once, on this thread: `--print`, which has nothing to show meanwhile.
    package init(readingNow photos: [Photo], reader: InfoReader, catalog: GalleryCatalog?) {
        total = photos.count
        read(photos, reader: reader, catalog: catalog, onProgress: {})
    }

    package var progress: (done: Int, finished: Bool) { state.withLock { ($0.done, $0.finished) } }
    /// Each photo's capture date, nil where it has none; complete once `finished`.
    package var dates: [PhotoSource: Int64?] { state.withLock { $0.dates } }
    /// The ratings read on the way (not 0), for the time cards' key photos (`TimeCards`).
    package var ratings: [PhotoSource: Int] { state.withLock { $0.ratings } }

    /// What the catalog had to say while the dates were read (found damaged and made again, not
    /// written): for the status line, once `finished`.
    package var notices: [String] { state.withLock { $0.notices } }

    /// Stops the reading (another order was chosen); what was read is not stored.
    package func cancel() { state.withLock { $0.cancelled = true } }

    private func read(_ photos: [Photo], reader: InfoReader, catalog: GalleryCatalog?, onProgress: @escaping @Sendable () -> Void) {
        // What the catalog knows, row by row: a photo unchanged since is not read again. Only
        // the dates are kept (the rest stays in the catalog, for the filter to ask).
        var known: [Int64?] = Array(repeating: nil, count: photos.count)
        var isKnown = [Bool](repeating: false, count: photos.count)
        var rated: [PhotoSource: Int] = [:]
        catalog?.rows(of: photos) { index, entry in
            known[index] = entry.taken
            isKnown[index] = true
            if let rating = entry.rating, rating != 0 { rated[photos[index].source] = rating }
        }
        // Kept a few thousand at a time, so that a first reading of a large library holds no more.
        var read: [(path: RawPath, entry: CatalogEntry)] = []
        func keep(_ path: RawPath, _ entry: CatalogEntry) {
            read.append((path, entry))
            if read.count >= 4096 {
                catalog?.record(read)
                read.removeAll(keepingCapacity: true)
            }
        }
        var lastReport = SystemClock().now()
        var done = 0
        let record = { (photo: Photo, date: Int64?) -> Bool in
            done += 1
            let cancelled = self.state.withLock { state -> Bool in
                state.dates[photo.source] = .some(date)
                state.done = done
                return state.cancelled
            }
            if SystemClock().now() - lastReport >= 100 {
                lastReport = SystemClock().now()
                onProgress()
            }
            return !cancelled
        }
        var unknown: [Photo] = []
        for (index, photo) in photos.enumerated() {
            if isKnown[index] {
                guard record(photo, known[index]) else { return }
            } else if !photo.format.isDecoded {
                if photo.stamp != nil, photo.file != nil { keep(photo.relativePath, CatalogEntry(stamp: Self.stamp(photo))) }
                guard record(photo, nil) else { return }
            } else {
                unknown.append(photo)
            }
        }
        known = []
        isKnown = []
        var going = true
        reader.read(unknown) { photo, info in
            let entry = CatalogEntry(stamp: Self.stamp(photo), taken: CaptureDate.parse(info?.dateTaken), info: info)
            if photo.stamp != nil, photo.file != nil { keep(photo.relativePath, entry) }
            if let rating = entry.rating, rating != 0 { rated[photo.source] = rating }
            going = going && record(photo, entry.taken)
            return going
        }
        guard going else { return }
        catalog?.record(read)
        let notices = catalog?.catalog.takeNotices() ?? []
        state.withLock {
            $0.notices = notices
            $0.ratings = rated
            $0.finished = true
        }
        onProgress()
    }

    /// A photo's stamp, or for one that has none (a remote photo) its size alone.
    static func stamp(_ photo: Photo) -> FileStamp { photo.stamp ?? FileStamp(size: photo.fileSize, modified: 0) }
}
