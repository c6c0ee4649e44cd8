import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Kitty's pictures in the grid's tiles: placed by id (`KittyCanvas`), or through tmux as
/// Unicode placeholders (`KittyTmuxCanvas`).
extension TileContent {
    /// The kitty picture shown, if one is.
    var kittyPicture: (TileRequest, KittyPicture)? {
        switch self {
        case .image(let request, .kitty(let picture)), .preview(let request, .kitty(let picture)): return (request, picture)
        default: return nil
        }
    }
}

extension PaintTile {
    /// The kitty picture the tile shows, if it shows one.
    var kittyPicture: (TileRequest, KittyPicture)? { content.kittyPicture }

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

    /// Sent and shown at once, kept nowhere: `--print` (the grid places by id, `kittyOps`).
    func printedOps(colors: HalfBlock.Colors) -> [PaintOp] {
        guard let (_, picture) = kittyPicture else { return ops(colors: colors) }
        return [PaintOp(row: row, column: column, bytes: Kitty.display(picture, columns: width, rows: rows))] + badgeOps(colors: colors)
    }
}
