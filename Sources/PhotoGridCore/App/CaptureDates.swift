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
        var entries: [PhotoSource: CatalogEntry] = [:]
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
    /// What is known of each photo (camera, exposure, labels...), for a filter; complete once
    /// `finished`. A photo whose header could not be read has an entry with its stamp alone.
    package var entries: [PhotoSource: CatalogEntry] { state.withLock { $0.entries } }

    /// What the catalog had to say while the dates were read (found damaged and made again, not
    /// written): for the status line, once `finished`.
    package var notices: [String] { state.withLock { $0.notices } }

    /// Stops the reading (another order was chosen); what was read is not stored.
    package func cancel() { state.withLock { $0.cancelled = true } }

    private func read(_ photos: [Photo], reader: InfoReader, catalog: GalleryCatalog?, onProgress: @escaping @Sendable () -> Void) {
        let known = catalog?.entries() ?? [:]
        var read: [(path: RawPath, entry: CatalogEntry)] = []
        var lastReport = SystemClock().now()
        var done = 0
        let record = { (photo: Photo, entry: CatalogEntry) -> Bool in
            done += 1
            let cancelled = self.state.withLock { state -> Bool in
                state.dates[photo.source] = .some(entry.taken)
                state.entries[photo.source] = entry
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
        for photo in photos {
            if let stamp = photo.stamp, let entry = known[photo.relativePath], entry.stamp == stamp {
                guard record(photo, entry) else { return }
            } else if !photo.format.isDecoded {
                let entry = CatalogEntry(stamp: Self.stamp(photo))
                if photo.stamp != nil, photo.file != nil { read.append((photo.relativePath, entry)) }
                guard record(photo, entry) else { return }
            } else {
                unknown.append(photo)
            }
        }
        var going = true
        reader.read(unknown) { photo, info in
            let entry = CatalogEntry(stamp: Self.stamp(photo), taken: CaptureDate.parse(info?.dateTaken), info: info)
            if photo.stamp != nil, photo.file != nil { read.append((photo.relativePath, entry)) }
            going = going && record(photo, entry)
            return going
        }
        guard going else { return }
        catalog?.record(read)
        let notices = catalog?.catalog.takeNotices() ?? []
        state.withLock {
            $0.notices = notices
            $0.finished = true
        }
        onProgress()
    }

    /// A photo's stamp, or for one that has none (a remote photo) its size alone.
    static func stamp(_ photo: Photo) -> FileStamp { photo.stamp ?? FileStamp(size: photo.fileSize, modified: 0) }
}
