import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Paints the zoom view: one image (or a placeholder line) at a cell position, with the rest of
/// the view cleared around it. Like `GridPainter` it writes after ncurses' update, remembers what
/// it drew, and writes nothing when nothing changed.
package struct ViewPainter {
    struct Drawn: Equatable {
        var content: TileContent.ContentID
        var column: Int, row: Int, columns: Int, rows: Int
        /// The placeholder's words: "loading" names the photo, so stepping from one photo still
        /// loading to the next must write them again.
        var message = ""
    }

    private var drawn: Drawn?
    /// How the terminal's protocol draws the picture (shared with the grid's painter).
    package let canvas: any Canvas
    var blanking: Blanking { canvas.blanking }

    package init(canvas: any Canvas) { self.canvas = canvas }

    package mutating func invalidate() { drawn = nil }

    /// The view shows `content` at (`column`, `row`), `columns` x `rows` cells, in an area of
    /// `areaColumns` x `areaRows`; `message` is shown centred when there is no picture yet.
    package mutating func paint(_ shown: TileContent, column: Int, row: Int, columns: Int, rows: Int,
                               areaColumns: Int, areaRows: Int, message: String) -> [UInt8] {
        var now = Drawn(content: shown.id, column: column, row: row, columns: columns, rows: rows)
        if case .loading = shown { now.message = message }
        let content: TileContent, sent: [UInt8]
        switch canvas.viewPicture(shown, cells: CellRect(row: row, column: column, columns: columns, rows: rows)) {
        case .placed(let place):
            return paintPlaced(place, redraw: now != drawn, now: now, areaColumns: areaColumns, areaRows: areaRows)
        case .drawn(let drawnContent, let sentFirst):
            (content, sent) = (drawnContent, sentFirst)
        }
        guard now != drawn || !sent.isEmpty else { return [] }
        var out = sent + Array("\u{1B}7".utf8)
        // Clear what the new picture will not cover; the picture is drawn over the rest. Without
        // a picture (a message) everything goes, or the last picture would show around it; and
        // before another photo's picture too, or the last one would show while it arrives.
        let hasPicture: Bool
        switch content {
        case .image, .preview: hasPicture = true
        case .failed, .loading: hasPicture = false
        }
        let anotherPhoto = drawn.map { ViewPainter.photo($0.content) != ViewPainter.photo(now.content) } ?? false
        for y in 0..<areaRows {
            out += GridPainter.moveTo(row: y, column: 0)
            if !hasPicture || anotherPhoto || y < row || y >= row + rows {
                out += blanking.erase(areaColumns)
            } else {
                if column > 0 { out += blanking.erase(column) }
                let right = column + columns
                if right - 1 < areaColumns {
                    // The last cell may be only partly covered by a sixel image: clear it too.
                    out += GridPainter.moveTo(row: y, column: max(0, right - 1)) + blanking.erase(areaColumns - right + 1)
                }
            }
        }
        switch content {
        case .image(_, let tile), .preview(_, let tile):
            if case .cells(let lines) = tile {
                for (i, line) in lines.prefix(rows).enumerated() { out += GridPainter.moveTo(row: row + i, column: column) + line }
            } else {
                // Konsole resets the text of the column right of a picture (see `GridPainter`):
                // made plain again after each piece.
                var after: [UInt8] = []
                if blanking.hides, column + columns < areaColumns {
                    for y in row..<min(areaRows, row + rows) { after += GridPainter.moveTo(row: y, column: column + columns) + blanking.erase(1) }
                }
                for band in PaintTile.rightToLeft(tile.sixelParts ?? []) {
                    out += GridPainter.moveTo(row: row + band.row, column: column + band.column) + band.bytes + after
                }
            }
        case .failed(let reason):
            out += centred(reason, areaColumns: areaColumns, areaRows: areaRows)
        case .loading:
            out += centred(message, areaColumns: areaColumns, areaRows: areaRows)
        }
        drawn = now
        return out + Array("\u{1B}[0m\u{1B}8".utf8)
    }

    /// The photo a content shows a picture of, if any.
    static func photo(_ content: TileContent.ContentID) -> PhotoID? {
        if case .image(let request) = content { return request.photo }
        return nil
    }

    /// A picture the canvas placed itself: the view's cells erased to the default background when
    /// the view changed (a picture is drawn under cells that have colours), then its bytes, which
    /// the canvas gives every frame so that the terminal's placements follow the view.
    private mutating func paintPlaced(_ place: [UInt8], redraw: Bool, now: Drawn, areaColumns: Int, areaRows: Int) -> [UInt8] {
        var out: [UInt8] = []
        if redraw {
            out += Array("\u{1B}7\u{1B}[0m".utf8)
            for y in 0..<areaRows { out += GridPainter.moveTo(row: y, column: 0) + Array("\u{1B}[\(areaColumns)X".utf8) }
        }
        if !place.isEmpty {
            if !redraw { out += Array("\u{1B}7".utf8) }
            out += GridPainter.moveTo(row: now.row, column: now.column) + place
        }
        drawn = now
        return out.isEmpty ? [] : out + Array("\u{1B}[0m\u{1B}8".utf8)
    }

    private func centred(_ text: String, areaColumns: Int, areaRows: Int) -> [UInt8] {
        let shown = TerminalText.clip(text, to: areaColumns)
        let column = max(0, (areaColumns - TerminalText.width(shown)) / 2)
        return GridPainter.moveTo(row: areaRows / 2, column: column) + blanking.text(shown)
    }
}
