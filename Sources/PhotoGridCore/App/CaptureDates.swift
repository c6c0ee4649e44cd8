import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem

/// The capture dates of a list of photos, read on a thread of their own for the date order:
/// from the disk cache's record where a photo has not changed, else from the photo's own header
/// (`PhotoDecoding.info`: EXIF's DateTimeOriginal). The grid goes on meanwhile; the status line
/// says how far the reading has got, and the new order comes when it is done.
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
    package init(photos: [Photo], decoder: PhotoDecoding, store: CaptureDateStore?, onProgress: @escaping @Sendable () -> Void) {
        total = photos.count
        WorkerThreads.start { [self] in
            read(photos, decoder: decoder, store: store, onProgress: onProgress)
        }
    }

    /// Reads at once, on this thread: `--print`, which has nothing to show meanwhile.
    package init(readingNow photos: [Photo], decoder: PhotoDecoding, store: CaptureDateStore?) {
        total = photos.count
        read(photos, decoder: decoder, store: store, onProgress: {})
    }

    package var progress: (done: Int, finished: Bool) { state.withLock { ($0.done, $0.finished) } }
    /// Each photo's capture date, nil where it has none; complete once `finished`.
    package var dates: [PhotoSource: Int64?] { state.withLock { $0.dates } }

    /// Stops the reading (another order was chosen); what was read is not stored.
    package func cancel() { state.withLock { $0.cancelled = true } }

    private func read(_ photos: [Photo], decoder: PhotoDecoding, store: CaptureDateStore?, onProgress: @Sendable () -> Void) {
        let known = store?.load() ?? [:]
        var read: [(path: RawPath, stamp: FileStamp, date: Int64?)] = []
        var anyNew = false
        var lastReport = TTY.now()
        for (offset, photo) in photos.enumerated() {
            let date: Int64?
            if let stamp = photo.stamp, let file = photo.file, let entry = known[file], entry.stamp == stamp {
                date = entry.date
            } else {
                anyNew = true
                date = photo.format.isDecoded ? CaptureDate.parse(decoder.info(of: photo)?.dateTaken) : nil
            }
            if let stamp = photo.stamp, let file = photo.file { read.append((file, stamp, date)) }
            let cancelled = state.withLock { state -> Bool in
                state.dates[photo.source] = .some(date)
                state.done = offset + 1
                return state.cancelled
            }
            if cancelled { return }
            if TTY.now() - lastReport >= 100 {
                lastReport = TTY.now()
                onProgress()
            }
        }
        if anyNew && !read.isEmpty { store?.save(read) }
        state.withLock { $0.finished = true }
        onProgress()
    }
}
