import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Half-blocks: tiles are lines of coloured cells, written like any text; a new line covers the
/// old one whole, and the terminal holds nothing else.
package final class HalfBlockCanvas: Canvas {
    package let format: any TileFormat
    package var blanking = Blanking()
    package var panel: CellRect?

    package init(format: any TileFormat) { self.format = format }

    package func tileOps(_ tile: PaintTile, changed: Bool, screenColumns: Int) -> [PaintOp] {
        changed ? tile.ops(colors: format.textColors) : []
    }

    package func printPicture(_ tile: EncodedTile, request: TileRequest, columns: Int, rows: Int) -> [UInt8] {
        guard case .cells(let lines) = tile else { return [] }
        return lines.flatMap { $0 + [UInt8(ascii: "\n")] }
    }
}
