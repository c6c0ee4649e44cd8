import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Pictures drawn from the cursor and overwritten like text: sixel and iTerm2's inline images.
/// The terminal keeps nothing of them but what is on screen, so a picture stays until its cells
/// are erased or drawn over; the painter erases before another photo's picture goes there.
package final class CursorCanvas: Canvas {
    package let format: any TileFormat
    package var blanking = Blanking()
    package var panel: CellRect?

    package init(format: any TileFormat) { self.format = format }

    package func tileOps(_ tile: PaintTile, changed: Bool, screenColumns: Int) -> [PaintOp] {
        guard changed else { return [] }
        // Konsole resets the text of the column right of a picture it draws (`Screen::eraseBlock`),
        // which would show what lies under that column: it is made plain again after each piece.
        let right = tile.column + tile.width
        guard blanking.hides, tile.drawsFromCursor, right < screenColumns else { return tile.ops(colors: format.textColors) }
        return tile.ops(colors: format.textColors,
                        afterEachPiece: (0..<tile.rows).map { PaintOp(row: tile.row + $0, column: right, bytes: blanking.erase(1)) })
    }

    package func printPicture(_ tile: EncodedTile, request: TileRequest, columns: Int, rows: Int) -> [UInt8] {
        (tile.sixelParts ?? []).flatMap(\.bytes) + Array("\n".utf8)
    }
}
