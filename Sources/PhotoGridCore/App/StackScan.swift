import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem

/// Bursts looked for on a thread of their own once the capture dates are known (`Bursts`): only
/// the photos taken within a few seconds of another are decoded, small (an EXIF thumbnail will
/// do), and looked at (`PhotoLook`). The grid goes on meanwhile and shows the stacks when done.
package final class StackScan: @unchecked Sendable {
    private struct State {
        var groups: [[PhotoSource]]?
        var cancelled = false
    }
    private let state = Locked(State())

    /// Starts looking; `onDone` is called on the scan's thread when the groups are known.
    package init(photos: [Photo], dates: [PhotoSource: Int64?], decoder: PhotoDecoder, onDone: @escaping @Sendable () -> Void) {
        WorkerThreads.start { [self] in
            let groups = StackScan.groups(photos, dates: dates, decoder: decoder) { self.state.withLock { $0.cancelled } }
            state.withLock { $0.groups = groups }
            onDone()
        }
    }

    /// The groups found, each in the list's order; nil until done.
    package var groups: [[PhotoSource]]? { state.withLock { $0.groups } }

    package func cancel() { state.withLock { $0.cancelled = true } }

    /// The stacks among `photos`, read now on this thread (`--duplicates`, tests).
    package static func groups(_ photos: [Photo], dates: [PhotoSource: Int64?], decoder: PhotoDecoder,
                               cancelled: () -> Bool = { false }) -> [[PhotoSource]] {
        let times = photos.map { dates[$0.source] ?? nil }
        var looks = [PhotoLook?](repeating: nil, count: photos.count)
        for index in Bursts.candidates(times) {
            if cancelled() { return [] }
            looks[index] = look(photos[index], decoder: decoder)
        }
        return Bursts.groups(dates: times, looks: looks).map { $0.map { photos[$0].source } }
    }

    /// A photo's look, from an image of it 32 pixels or more on its short side; nil for one
    /// that does not decode (a video, a damaged file).
    package static func look(_ photo: Photo, decoder: PhotoDecoder) -> PhotoLook? {
        guard photo.file != nil, photo.format.isDecoded, let image = try? decoder.image(of: photo, covering: 32, atMost: 1024) else { return nil }
        return PhotoLook(image.image)
    }
}
