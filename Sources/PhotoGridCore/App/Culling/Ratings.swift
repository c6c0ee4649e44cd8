import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What the app knows of the photos' ratings (`XMPRating`: 1-5 stars, 0 none, -1 a reject):
/// those set here, those read for the filters (`RatingScan`), and those of the sidecars of the
/// photos on screen, read the first time they are shown (a look for a file or two a photo). A
/// photo's own XMP rating comes through its details (`PhotoInfo.rating`) where they were read.
final class Ratings {
    /// Set with the keys, or read by a whole scan: they win over anything read before.
    private var known: [PhotoSource: Int] = [:]
    /// Sidecars looked at: the rating found, or nil (no sidecar, or none in it).
    private var sidecars: [PhotoSource: Int?] = [:]

    /// A photo's rating, 0 when none is known. Reads its sidecar once.
    func rating(of photo: Photo, info: PhotoInfo?) -> Int {
        if let rating = known[photo.source] ?? info?.rating { return rating }
        guard let file = photo.file else { return 0 }
        if let read = sidecars[photo.source] { return read ?? 0 }
        let read = Sidecar.of(file).rating()
        sidecars[photo.source] = read
        return read ?? 0
    }

    /// Known without reading anything: for the filters, which go by a whole scan.
    func known(_ photo: Photo) -> Int? { known[photo.source] }
    var anyKnown: Bool { !known.isEmpty }

    /// The photos `filter` keeps, by the ratings a scan read (a photo it did not reach by its
    /// sidecar).
    func kept(_ photos: [Photo], by filter: RatingFilter) -> [Photo] {
        filter == .all ? photos : photos.filter { filter.keeps(known[$0.source] ?? rating(of: $0, info: nil)) }
    }

    func set(_ rating: Int, for photo: Photo) { known[photo.source] = rating }

    /// A scan's ratings, under those set since it started.
    func merge(scanned: [PhotoSource: Int], setSince: Set<PhotoSource>) {
        for (source, rating) in scanned where !setSince.contains(source) { known[source] = rating }
    }

    /// Ctrl-R: sidecars may have been changed by another program (darktable, a second
    /// photogrid); every rating is read again, those set here too (their sidecars hold them).
    func forgetAll() {
        known = [:]
        sidecars = [:]
    }

    /// How a rating reads on a tile (`4/5`, `×` for a reject) and on the status line.
    static func badge(_ rating: Int) -> String {
        rating < 0 ? "×" : rating > 0 ? "\(rating)/5" : ""
    }

    static func words(_ rating: Int) -> String {
        rating < 0 ? "rejected" : rating == 1 ? "1 star" : rating > 0 ? "\(rating) stars" : "no rating"
    }
}

/// Which photos the grid shows by their rating: `--min-rating N`, `--rejected`, and `f` while browsing.
package enum RatingFilter: Equatable, Sendable {
    case all
    /// At least this many stars (rejects and unrated photos hidden).
    case atLeast(Int)
    /// The rejects alone.
    case rejected

    func keeps(_ rating: Int) -> Bool {
        switch self {
        case .all: return true
        case .atLeast(let stars): return rating >= stars
        case .rejected: return rating < 0
        }
    }

    /// Said when no photo passes: "no photo has 4 stars or more", "no photo is rejected".
    var noneLeft: String {
        switch self {
        case .all: return "no photos"
        case .atLeast(let stars): return stars == 5 ? "no photo has 5 stars" : "no photo has \(stars) stars or more"
        case .rejected: return "no photo is rejected"
        }
    }

    /// What the status line says while it is on.
    var words: String? {
        switch self {
        case .all: return nil
        case .atLeast(let stars): return stars == 5 ? "5 stars only" : "\(stars)+ stars"
        case .rejected: return "rejects only"
        }
    }
}

/// Every photo's rating, read on a thread of its own for a filter: a photo's details
/// (`InfoReader`), which hold its sidecar's rating, else its own XMP's; a photo whose details are
/// not read (a video) by its sidecar alone. The grid goes on meanwhile; the status line says how
/// far the reading has got, and the filter applies when it is done.
package final class RatingScan: @unchecked Sendable {
    struct State {
        var ratings: [PhotoSource: Int] = [:]
        var done = 0
        var finished = false
        var cancelled = false
    }

    let total: Int
    private let state = Locked(State())

    package init(photos: [Photo], reader: InfoReader, onProgress: @escaping @Sendable () -> Void) {
        total = photos.count
        WorkerThreads.start { [self] in
            var last = SystemClock().now()
            var decoded: [Photo] = []
            for photo in photos {
                if photo.format.isDecoded { decoded.append(photo); continue }
                guard record(photo, photo.file.flatMap { Sidecar.of($0).rating() } ?? 0) else { return }
            }
            reader.read(decoded) { photo, info in
                let going = record(photo, info?.rating ?? 0)
                if SystemClock().now() - last >= 100 { last = SystemClock().now(); onProgress() }
                return going
            }
            state.withLock { $0.finished = true }
            onProgress()
        }
    }

    private func record(_ photo: Photo, _ rating: Int) -> Bool {
        state.withLock { state in
            state.ratings[photo.source] = rating
            state.done += 1
            return !state.cancelled
        }
    }

    var progress: (done: Int, finished: Bool) { state.withLock { ($0.done, $0.finished) } }
    var ratings: [PhotoSource: Int] { state.withLock { $0.ratings } }
    func cancel() { state.withLock { $0.cancelled = true } }
}
