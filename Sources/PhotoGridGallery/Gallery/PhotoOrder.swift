import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// How the grid orders a gallery's photos: `--sort` and the `s`/`r` keys.
package struct PhotoOrder: Sendable, Equatable {
    package enum Key: String, Sendable, CaseIterable {
        /// Natural name order, each folder's photos together, the top folder first.
        case name
        /// When the photo was taken (EXIF), else the file's modification time; oldest first.
        case date
        /// The file's modification time, oldest first.
        case mtime
        /// The file's size, smallest first.
        case size
    }

    package var key: Key
    package var reversed: Bool

    package init(_ key: Key = .name, reversed: Bool = false) {
        self.key = key
        self.reversed = reversed
    }

    /// The next key of the `s` key's cycle: name, date, mtime, size.
    package var nextKey: PhotoOrder {
        let all = Key.allCases
        return PhotoOrder(all[(all.firstIndex(of: key)! + 1) % all.count], reversed: reversed)
    }

    /// For the status line: "by name", "by size, reversed".
    package var description: String { "by \(key.rawValue)" + (reversed ? ", reversed" : "") }

    /// `photos` in this order. Ties (and photos without a time or size, which come last) keep
    /// their name order, so the result never depends on the order they came in. The date order
    /// takes each photo's capture date from `dates` (`CaptureDates`), its file's time without one.
    package func apply(_ photos: [Photo], dates: [PhotoSource: Int64?] = [:]) -> [Photo] {
        let byName = NaturalOrder.sorted(photos) { $0.relativePath.bytes }
        var result: [Photo]
        switch key {
        case .name: result = byName
        case .date: result = stableSorted(byName) { CaptureDate.sortKey($0, captured: dates[$0.source]) }
        case .mtime: result = stableSorted(byName) { $0.stamp?.modified ?? Int64.max }
        case .size: result = stableSorted(byName) { Int64($0.stamp?.size ?? ($0.fileSize > 0 ? $0.fileSize : Int.max)) }
        }
        return reversed ? result.reversed() : result
    }

    /// Spelt out step by step: written as one chain of closures over tuples, this took the
    /// type checker 8.6 s of every build (docs/decisions.md, "The test run's CPU").
    private func stableSorted(_ photos: [Photo], by value: (Photo) -> Int64) -> [Photo] {
        var keyed: [(key: Int64, offset: Int)] = []
        keyed.reserveCapacity(photos.count)
        for (offset, photo) in photos.enumerated() { keyed.append((value(photo), offset)) }
        keyed.sort { (a: (key: Int64, offset: Int), b: (key: Int64, offset: Int)) -> Bool in
            a.key != b.key ? a.key < b.key : a.offset < b.offset
        }
        return keyed.map { photos[$0.offset] }
    }
}
