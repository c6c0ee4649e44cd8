import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The geometry of the grid at one column count: where tiles go and how large they are.
///
/// Tiles are square in pixels (their cell height follows the cell's pixel aspect), fill the width
/// with one cell between them (the leftover cells widen the first tiles by one), and always fit
/// the screen: where a square as wide as the slot would be taller than the grid area (one
/// column on a wide terminal) the tile is as tall as the area and centred in its slot. A screen
/// too narrow for the columns asked for (a cell and a gap each) gets as many as fit.
package struct GridLayout: Hashable, Sendable {
    package static let columnRange = 1...6
    package static let gap = 1
    /// Rows below the grid: the status line.
    package static let statusRows = 1

    package let screen: ScreenMetrics
    package let columns: Int
    /// Rows above the tiles: 1 with sections, for the header of the group the screen starts in
    /// (every later group's header goes in the gap row above its first photo).
    package let top: Int
    /// The tiles' area: every row but the status line and `top`.
    package let viewportRows: Int
    /// Cell rows of every tile.
    package let tileRows: Int
    /// One frame per column, left to right.
    package let frames: [TileFrame]
    /// With sections, the photos that start a group, from 0 up: each starts a row of its own
    /// (`GridLayout+Rows`). Empty without sections: photo `i` is at row `i / columns`.
    package let groupStarts: [Int]
    /// Tile rows before each group, and in all (with `groupStarts`).
    let rowsBefore: [Int]
    let groupedRows: Int
    /// The photos the groups were made for.
    let groupedPhotos: Int

    /// `groupStarts` (with `sections`): the first photo of each group of `photos`, in order.
    /// `limit`: the most columns; the time zoom's months and years go past the grid's 6.
    /// `height`: tiles this many rows tall instead of square (the time cards, stretched to fill
    /// the screen), where the screen has them.
    package init(screen: ScreenMetrics, columns: Int, sections: Bool = false, groupStarts: [Int] = [], photos: Int = 0,
                 limit: Int = GridLayout.columnRange.upperBound, height: Int? = nil) {
        self.screen = screen
        self.columns = max(GridLayout.columnRange.lowerBound, min(GridLayout.maxColumns(for: screen, limit: limit), columns))
        (self.groupStarts, rowsBefore, groupedRows) = GridLayout.groupRows(sections ? groupStarts : [], photos: photos, columns: self.columns)
        groupedPhotos = photos
        // A screen of a row or two has no row to spare for a header.
        top = sections && screen.rows > 3 ? 1 : 0
        let viewport = max(1, screen.rows - GridLayout.statusRows - top)
        viewportRows = viewport
        let usable = max(self.columns, screen.columns - (self.columns - 1) * GridLayout.gap)
        let base = max(1, usable / self.columns)
        let squareRows = height.map { max(1, $0) } ?? max(1, Int((Double(base * screen.cellWidth) / Double(screen.cellHeight)).rounded()))
        var frames: [TileFrame] = []
        if squareRows <= viewport {
            tileRows = squareRows
            var x = 0
            let extra = max(0, usable - base * self.columns)
            for i in 0..<self.columns {
                let width = base + (i < extra ? 1 : 0)
                frames.append(TileFrame(column: x, width: width, height: squareRows))
                x += width + GridLayout.gap
            }
        } else {
            tileRows = viewport
            let width = max(1, min(base, Int((Double(viewport * screen.cellHeight) / Double(screen.cellWidth)).rounded())))
            let slot = (screen.columns - (self.columns - 1) * GridLayout.gap) / self.columns
            for i in 0..<self.columns {
                let slotStart = i * (slot + GridLayout.gap)
                frames.append(TileFrame(column: slotStart + max(0, (slot - width) / 2), width: width, height: viewport))
            }
        }
        self.frames = frames
    }

    /// The most columns whose tiles, a cell wide at least and a gap apart, fit across the screen.
    package static func maxColumns(for screen: ScreenMetrics, limit: Int = columnRange.upperBound) -> Int {
        max(columnRange.lowerBound, min(limit, (screen.columns + gap) / (1 + gap)))
    }

    /// Whether there is a row for section headers.
    package var sections: Bool { top > 0 }

    /// Every row above the status line: the tiles' area and the header row.
    package var areaRows: Int { top + viewportRows }

    /// Cell rows from one tile row to the next.
    package var rowPitch: Int { tileRows + GridLayout.gap }

    /// Tile rows that fit on screen whole (at least one).
    package var fullyVisibleRows: Int { max(1, (viewportRows + GridLayout.gap) / rowPitch) }

    package func rowCount(photos: Int) -> Int { groupStarts.isEmpty ? (photos + columns - 1) / columns : groupedRows }

    /// The largest first row that still fills the screen.
    package func maxTopRow(photos: Int) -> Int { max(0, rowCount(photos: photos) - fullyVisibleRows) }

    /// Tile `index` with the grid scrolled to `topRow`: its frame and screen row, and how many of
    /// its cell rows the bottom of the grid leaves visible (nil when it is off screen).
    package func placement(of index: Int, topRow: Int) -> (frame: TileFrame, row: Int, visibleRows: Int)? {
        let tileRow = row(of: index)
        guard tileRow >= topRow else { return nil }
        let y = (tileRow - topRow) * rowPitch
        guard y < viewportRows else { return nil }
        return (frames[column(of: index)], top + y, min(tileRows, viewportRows - y))
    }

    /// Indexes of the photos with any cell on screen.
    package func visibleIndexes(topRow: Int, photos: Int) -> Range<Int> {
        let rows = (viewportRows + rowPitch - 1) / rowPitch
        let start = firstIndex(inRow: max(0, topRow), photos: photos)
        return start..<max(start, firstIndex(inRow: max(0, topRow) + rows, photos: photos))
    }

    /// Pixel size of a tile in sixel mode.
    package func pixelSize(of frame: TileFrame) -> (width: Int, height: Int) {
        (frame.width * screen.cellWidth, frame.height * screen.cellHeight)
    }

    /// The fewest columns at which every photo fits on one screen; else 4.
    package static func startColumns(photos: Int, screen: ScreenMetrics) -> Int {
        for columns in columnRange {
            let layout = GridLayout(screen: screen, columns: columns)
            if layout.rowCount(photos: photos) <= layout.fullyVisibleRows { return columns }
        }
        return 4
    }
}
