import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem

/// The capture dates of a list of photos, read on a thread of their own for the date order:
/// from the disk cache's record where a photo has not changed, else from what its gallery says
/// (`PhotoLoading.knownInfo`), else from the photo's own header (`PhotoDecoding.info`: EXIF's
/// DateTimeOriginal), a few of those under way at a time when the loader brings them from far.
/// The grid goes on meanwhile; the status line says how far the reading has got, and the new
/// order comes when it is done.
package final class CaptureDates: @unchecked Sendable {
    struct State {
        var dates: [PhotoSource: Int64?] = [:]
        var done = 0
        var finished = false
        var cancelled = false
    }

    package let total: Int
    private let state = Locked(State())

    /// Starts reading. `onProgress` is called (on the reading thread) every so often and at the end.
    package init(photos: [Photo], reader: InfoReader, store: CaptureDateStore?, onProgress: @escaping @Sendable () -> Void) {
        total = photos.count
        WorkerThreads.start { [self] in
            read(photos, reader: reader, store: store, onProgress: onProgress)
        }
    }

    /// Reads at once, on this thread: `--print`, which has nothing to show meanwhile.
    package init(readingNow photos: [Photo], reader: InfoReader, store: CaptureDateStore?) {
        total = photos.count
        read(photos, reader: reader, store: store, onProgress: {})
    }

    package var progress: (done: Int, finished: Bool) { state.withLock { ($0.done, $0.finished) } }
    /// Each photo's capture date, nil where it has none; complete once `finished`.
    package var dates: [PhotoSource: Int64?] { state.withLock { $0.dates } }

    /// Stops the reading (another order was chosen); what was read is not stored.
    package func cancel() { state.withLock { $0.cancelled = true } }

    private func read(_ photos: [Photo], reader: InfoReader, store: CaptureDateStore?, onProgress: @escaping @Sendable () -> Void) {
        let known = store?.load() ?? [:]
        var read: [(path: RawPath, stamp: FileStamp, date: Int64?)] = []
        var anyNew = false
        var lastReport = SystemClock().now()
        var done = 0
        let record = { (photo: Photo, date: Int64?) -> Bool in
            if let stamp = photo.stamp, let file = photo.file { read.append((file, stamp, date)) }
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
        for photo in photos {
            if let stamp = photo.stamp, let file = photo.file, let entry = known[file], entry.stamp == stamp {
                guard record(photo, entry.date) else { return }
            } else if !photo.format.isDecoded {
                guard record(photo, nil) else { return }
            } else {
                unknown.append(photo)
            }
        }
        anyNew = !unknown.isEmpty
        var going = true
        reader.read(unknown) { photo, info in
            going = going && record(photo, CaptureDate.parse(info?.dateTaken))
            return going
        }
        guard going else { return }
        if anyNew && !read.isEmpty { store?.save(read) }
        state.withLock { $0.finished = true }
        onProgress()
    }
}
