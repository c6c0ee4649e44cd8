import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// An amber frame around the focused photo, drawn as coloured spaces: any font has a space,
/// while the thinner block characters are missing from many terminal fonts (xterm's `10x20`
/// among them). Its sides go in the gap cells around the tile; where the grid's edge leaves no
/// gap (the left column, the top row, the right and bottom edges) that side is drawn over the
/// photo's outermost cells instead, so the frame has four sides everywhere. A gap row that holds
/// a section's header is no room for a side either: the side goes over the photo, and the header
/// reads whole. In fit mode it frames the photo inside its square, not the square.
package struct FocusMarker: Equatable, Sendable {
    /// What is framed: the tile, or in fit mode the photo's part of it.
    package var row: Int, column: Int, width: Int, rows: Int
    /// The tile's slot and size: it must be drawn again when a side drawn over it goes.
    package var tileRow: Int, tileColumn: Int, tileWidth: Int, tileRows: Int
    /// The grid area's bounds: no line is drawn outside them.
    package var gridRows: Int, screenColumns: Int
    /// Whether the gap rows above and below hold a section's header (no side goes there).
    package var headerAbove = false, headerBelow = false

    package init(tile: PaintTile, gridRows: Int, screenColumns: Int,
                photo: (column: Int, row: Int, width: Int, rows: Int)? = nil, headerRows: Set<Int> = []) {
        let area = photo ?? (0, 0, tile.width, tile.rows)
        row = tile.row + area.row; column = tile.column + area.column
        width = max(1, min(area.width, tile.width - area.column)); rows = max(1, min(area.rows, tile.rows - area.row))
        tileRow = tile.row; tileColumn = tile.column; tileWidth = tile.width; tileRows = tile.rows
        self.gridRows = gridRows; self.screenColumns = screenColumns
        headerAbove = headerRows.contains(row - 1)
        headerBelow = headerRows.contains(row + rows)
    }

    /// An amber that reads on dark and light backgrounds.
    package static let accent = RGB(255, 196, 0)

    /// The frame's outer bounds: one cell outside the framed area where the grid has room, else
    /// its edge cells.
    var bounds: (top: Int, bottom: Int, left: Int, right: Int) {
        (row > 0 && !headerAbove ? row - 1 : row, row + rows < gridRows && !headerBelow ? row + rows : row + rows - 1,
         column > 0 ? column - 1 : column, column + width < screenColumns ? column + width : column + width - 1)
    }

    /// Whether a side is drawn inside the tile (over the picture, or in fit mode over its
    /// letterbox), which must then be drawn again when the frame goes.
    var coversPicture: Bool {
        let b = bounds
        return b.top >= tileRow || b.bottom < tileRow + tileRows || b.left >= tileColumn || b.right < tileColumn + tileWidth
    }

    /// Whether the bottom side lies on the tile's own last row (no gap row below it).
    var bottomOnTile: Bool { bounds.bottom == tileRow + tileRows - 1 }

    /// The sides over the tile, the bottom one without the last `badgeCells` cells of the tile's
    /// last row where it lies there.
    func sidesOverTile(leaving badgeCells: Int) -> [(row: Int, column: Int, columns: Int, rows: Int)] {
        guard badgeCells > 0, bottomOnTile else { return sidesOverTile }
        let badgeStart = tileColumn + tileWidth - badgeCells
        return sidesOverTile.flatMap { side -> [(row: Int, column: Int, columns: Int, rows: Int)] in
            guard side.rows == 1, side.row == bounds.bottom, side.column < badgeStart else { return [side] }
            var parts = [(side.row, side.column, badgeStart - side.column, 1)]
            let end = side.column + side.columns
            if end > tileColumn + tileWidth { parts.append((side.row, tileColumn + tileWidth, end - tileColumn - tileWidth, 1)) }
            return parts
        }
    }

    /// The sides drawn inside the tile (over its picture), as cell rectangles.
    var sidesOverTile: [(row: Int, column: Int, columns: Int, rows: Int)] {
        let b = bounds
        var sides: [(row: Int, column: Int, columns: Int, rows: Int)] = []
        let inside = (tileRow..<(tileRow + tileRows), tileColumn..<(tileColumn + tileWidth))
        if inside.0.contains(b.top) { sides.append((b.top, b.left, b.right - b.left + 1, 1)) }
        if b.bottom > b.top, inside.0.contains(b.bottom) { sides.append((b.bottom, b.left, b.right - b.left + 1, 1)) }
        if b.bottom - b.top > 1 {
            if inside.1.contains(b.left) { sides.append((b.top + 1, b.left, 1, b.bottom - b.top - 1)) }
            if b.right > b.left, inside.1.contains(b.right) { sides.append((b.top + 1, b.right, 1, b.bottom - b.top - 1)) }
        }
        return sides
    }

    func ops(colors: HalfBlock.Colors, erase: Bool, blanking: Blanking = Blanking()) -> [PaintOp] {
        let colour = erase ? blanking.plain : "\u{1B}[0;\(HalfBlock.sgr(FocusMarker.accent, foreground: false, colors: colors))m"
        func op(_ r: Int, _ c: Int, _ count: Int) -> PaintOp {
            PaintOp(row: r, column: c, bytes: Array((colour + String(repeating: " ", count: count) + "\u{1B}[0m").utf8), cells: count)
        }
        let b = bounds
        guard b.bottom >= b.top, b.right >= b.left else { return [] }
        var ops = [op(b.top, b.left, b.right - b.left + 1)]
        if b.bottom > b.top { ops.append(op(b.bottom, b.left, b.right - b.left + 1)) }
        for r in (b.top + 1)..<max(b.top + 1, b.bottom) {
            ops.append(op(r, b.left, 1))
            if b.right > b.left { ops.append(op(r, b.right, 1)) }
        }
        return ops
    }
}
