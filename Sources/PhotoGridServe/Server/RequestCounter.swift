import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// How many requests each path got: what tests and benchmarks check a client's traffic by
/// (did it fetch the manifest once? a rendition rather than the original?). A batch's items
/// count under their own paths as each is started, and not in `total`, which counts requests.
final class RequestCounter: Sendable {
    private let counts = Locked<(byPath: [String: Int], total: Int, openings: Int)>(([:], 0, 0))

    /// `path` as requested, still percent-encoded, without its query.
    func record(_ path: Substring) {
        counts.withLock { counts in
            counts.byPath[String(path), default: 0] += 1
            counts.total += 1
        }
    }

    /// An item of a batch, started.
    func recordItem(_ path: Substring) {
        counts.withLock { $0.byPath[String(path), default: 0] += 1 }
    }

    /// A batch that was an opening (`Batch.Opening`): a client's first visit.
    func recordOpening() {
        counts.withLock { $0.openings += 1 }
    }

    var openings: Int { counts.withLock { $0.openings } }

    func count(path: String) -> Int { counts.withLock { $0.byPath[path] ?? 0 } }

    /// Every path asked for so far, with how many times.
    var byPath: [String: Int] { counts.withLock { $0.byPath } }

    var total: Int { counts.withLock { $0.total } }
}
