import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Which tile row and column each photo is in. Without sections photo `i` is at row
/// `i / columns`; with them each group starts a row of its own, as in the phone apps' grids, and
/// the last row of a group may be short. Groups are found by binary search, so a 100,000-photo
/// gallery with thousands of days costs a few comparisons a lookup.
extension GridLayout {
    /// The starts (0 first, increasing, below `photos`), the rows before each group, and all rows.
    static func groupRows(_ starts: [Int], photos: Int, columns: Int) -> ([Int], [Int], Int) {
        let starts = starts.first == 0 ? starts.filter { $0 < photos } : []
        guard !starts.isEmpty else { return ([], [], 0) }
        var before: [Int] = [], rows = 0
        for (g, start) in starts.enumerated() {
            before.append(rows)
            let end = g + 1 < starts.count ? starts[g + 1] : photos
            rows += (end - start + columns - 1) / columns
        }
        return (starts, before, rows)
    }

    /// The group photo `index` is in.
    private func group(of index: Int) -> Int { GridLayout.lastAtMost(index, in: groupStarts) }

    /// The group tile row `row` is in.
    private func group(ofRow row: Int) -> Int { GridLayout.lastAtMost(row, in: rowsBefore) }

    /// The last position of increasing `values` (the first is at most `value`) whose value is at
    /// most `value`: a binary search.
    private static func lastAtMost(_ value: Int, in values: [Int]) -> Int {
        var low = 0, high = values.count - 1
        while low < high {
            let mid = (low + high + 1) / 2
            if values[mid] <= value { low = mid } else { high = mid - 1 }
        }
        return low
    }

    package func row(of index: Int) -> Int {
        guard !groupStarts.isEmpty else { return index / columns }
        let g = group(of: index)
        return rowsBefore[g] + (index - groupStarts[g]) / columns
    }

    package func column(of index: Int) -> Int {
        guard !groupStarts.isEmpty else { return index % columns }
        return (index - groupStarts[group(of: index)]) % columns
    }

    /// The first photo of tile row `row`; `photos` past the last row.
    package func firstIndex(inRow row: Int, photos: Int) -> Int {
        guard !groupStarts.isEmpty else { return min(photos, max(0, row) * columns) }
        guard row < groupedRows else { return photos }
        let g = group(ofRow: max(0, row))
        return min(photos, groupStarts[g] + (max(0, row) - rowsBefore[g]) * columns)
    }

    /// The photos of tile row `row`.
    package func indexes(inRow row: Int, photos: Int) -> Range<Int> {
        let first = firstIndex(inRow: row, photos: photos)
        return first..<max(first, min(firstIndex(inRow: row + 1, photos: photos), first + columns))
    }

    /// The photo at `column` of tile row `row` (clamped to the rows there are), or the row's last
    /// photo where the row is shorter: where up and down go.
    package func index(row: Int, column: Int, photos: Int) -> Int {
        guard photos > 0 else { return 0 }
        let row = max(0, min(rowCount(photos: photos) - 1, row))
        let inRow = indexes(inRow: row, photos: photos)
        guard !inRow.isEmpty else { return photos - 1 }
        return min(inRow.upperBound - 1, inRow.lowerBound + column)
    }
}
