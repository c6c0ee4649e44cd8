import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Bytes to write with the cursor at a cell of the grid area.
package struct PaintOp: Sendable {
    package var row: Int
    package var column: Int
    package var bytes: [UInt8]
    /// Cells the bytes cover on their row; zero for a sixel image, which covers a block.
    package var cells: Int = 0

    package init(row: Int, column: Int, bytes: [UInt8], cells: Int = 0) {
        self.row = row; self.column = column; self.bytes = bytes; self.cells = cells
    }
}

extension PaintTile {
    /// The tile's ops; `afterEachPiece` goes after each piece of a picture drawn from the cursor.
    func ops(colors: HalfBlock.Colors, afterEachPiece: [PaintOp] = []) -> [PaintOp] {
        var ops: [PaintOp]
        switch content {
        case .image(_, let tile) where tile.sixelParts != nil, .preview(_, let tile) where tile.sixelParts != nil:
            ops = PaintTile.rightToLeft(tile.sixelParts!).flatMap {
                [PaintOp(row: row + $0.row, column: column + $0.column, bytes: $0.bytes)] + afterEachPiece
            }
        default:
            ops = cellLines(colors: colors).enumerated().map {
                PaintOp(row: row + $0.offset, column: column, bytes: $0.element, cells: width)
            }
        }
        return ops + badgeOps(colors: colors)
    }

    /// Pieces side by side drawn from the right: Konsole erases the text of one column more than
    /// a picture covers (`Screen::eraseBlock`), which would uncover, for a moment, what lies under
    /// the next piece's first column; drawn from the right, that column already shows the new one.
    static func rightToLeft(_ parts: [SixelBand]) -> [SixelBand] {
        parts.sorted { ($0.row, -$0.column) < ($1.row, -$1.column) }
    }

    /// The cells the badges take at the right of the last row (0: none shown).
    var badgeCells: Int { !badges.isEmpty && rows > 0 && width > badges.count + 2 ? badges.count + 2 : 0 }

    /// Small marks over the picture's last cells, drawn after it.
    func badgeOps(colors: HalfBlock.Colors) -> [PaintOp] {
        var ops: [PaintOp] = []
        if badgeCells > 0 {
            // Drawn over the picture's last cells, after it.
            let bg = HalfBlock.sgr(RGB(20, 20, 22), foreground: false, colors: colors)
            let fg = HalfBlock.sgr(RGB(255, 255, 255), foreground: true, colors: colors)
            let text = " " + badges + " "
            ops.append(PaintOp(row: row + rows - 1, column: column + width - text.count,
                               bytes: Array("\u{1B}[0;\(bg);\(fg)m\(text)\u{1B}[0m".utf8), cells: text.count))
        }
        return ops
    }
}
