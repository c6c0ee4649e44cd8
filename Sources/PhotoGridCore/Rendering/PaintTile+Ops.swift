/// Bytes to write with the cursor at a cell of the grid area.
package struct PaintOp: Sendable {
    package var row: Int
    package var column: Int
    package var bytes: [UInt8]
    /// Cells the bytes cover on their row; zero for a sixel image, which covers a block.
    package var cells: Int = 0
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
        case .image(_, .kitty(let picture)), .preview(_, .kitty(let picture)):
            // Sent and shown at once, kept nowhere: `--print` (the grid places by id, `kittyOps`).
            ops = [PaintOp(row: row, column: column, bytes: Kitty.display(picture, columns: width, rows: rows))]
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

    /// A kitty picture in the grid: the cells under it erased to the default background when
    /// the slot showed something else (a placeholder's colours would cover it), then placed by
    /// id, its top part only where the screen's edge cuts it, then the badges over it.
    func kittyOps(_ kitty: KittyScreen, request: TileRequest, picture: KittyPicture, changed: Bool, colors: HalfBlock.Colors) -> [PaintOp] {
        var ops: [PaintOp] = []
        if changed {
            ops = (0..<rows).map { PaintOp(row: row + $0, column: column, bytes: Array("\u{1B}[0m\u{1B}[\(width)X".utf8)) }
        }
        let cut = rows < fullRows ? picture.height * rows / max(1, fullRows) : nil
        let bytes = kitty.show(request, picture, row: row, column: column, columns: width, rows: rows, sourceHeight: cut,
                               uncovered: badgeCells)
        if !bytes.isEmpty { ops.append(PaintOp(row: row, column: column, bytes: bytes)) }
        return changed ? ops + badgeOps(colors: colors) : ops
    }

    /// A kitty picture through tmux (`KittyScreen.placeholders`): what sends it to the terminal
    /// if it does not hold it yet, and the placeholder text of its rows on screen.
    func placeholderOps(_ kitty: KittyScreen, request: TileRequest, picture: KittyPicture) -> (sent: [UInt8], lines: [PaintOp]) {
        let (sent, lines) = kitty.placeholderTile(request, picture, columns: width, rows: fullRows, shownRows: rows)
        return (sent, lines.enumerated().map { PaintOp(row: row + $0.offset, column: column, bytes: $0.element, cells: width) })
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
