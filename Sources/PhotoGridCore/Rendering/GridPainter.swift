/// Paints the grid area with escape sequences written after ncurses' update, and remembers what
/// is on screen so that a frame redraws only the tiles that changed.
///
/// ncurses knows nothing of these cells: its picture of the grid area stays blank, so it never
/// writes there except on a full repaint, after which `invalidate()` makes every tile redraw.
/// Each frame is wrapped in DECSC/DECRC so that ncurses' idea of the cursor and colours holds.
package struct GridPainter {
    struct Slot: Hashable { var row: Int; var column: Int }
    struct Drawn: Equatable { var index: Int; var content: TileContent.ContentID; var width: Int; var rows: Int; var badges: String }

    private var drawn: [Slot: Drawn] = [:]
    private var marker: FocusMarker?
    /// Section headers as drawn: (row, column, cells, bytes).
    private var drawnHeaders: [HeaderLine] = []
    struct HeaderLine: Equatable { var row: Int; var column: Int; var cells: Int; var bytes: [UInt8] }
    package let colors: HalfBlock.Colors
    /// In kitty mode, the pictures the terminal holds: tiles are placed by id, sent only once.
    let kitty: KittyScreen?

    package init(colors: HalfBlock.Colors, kitty: KittyScreen? = nil) { self.colors = colors; self.kitty = kitty }

    /// Forget what is on screen: after the screen was cleared.
    package mutating func invalidate() {
        drawn = [:]
        marker = nil
        drawnHeaders = []
    }

    /// The bytes that bring the screen from what was drawn to `tiles` with the focus marker
    /// `focus` and the section `headers` (text in the gap rows); empty when nothing changed.
    package mutating func paint(_ tiles: [PaintTile], focus: FocusMarker?, headers: [PaintOp] = []) -> [UInt8] {
        var ops: [PaintOp] = []
        var current: [Slot: Drawn] = [:]
        var markerDue = focus != marker
        // Headers that went are erased first: their row may hold a tile now, drawn below.
        let lines = headers.map { HeaderLine(row: $0.row, column: $0.column, cells: $0.cells, bytes: $0.bytes) }
        for old in drawnHeaders where !lines.contains(old) {
            ops.append(PaintOp(row: old.row, column: old.column, bytes: Array("\u{1B}[0m\u{1B}[\(old.cells)X".utf8)))
        }
        if markerDue, let old = marker {
            // The old frame goes first; a side it drew over a picture goes with the picture drawn again.
            ops += old.ops(colors: colors, erase: true)
            if old.coversPicture { drawn[Slot(row: old.tileRow, column: old.tileColumn)] = nil }
        }
        for tile in tiles {
            let slot = Slot(row: tile.row, column: tile.column)
            let now = Drawn(index: tile.index, content: tile.content.id, width: tile.width, rows: tile.rows, badges: tile.badges)
            current[slot] = now
            if let kitty, kitty.placeholders, let (request, picture) = tile.kittyPicture {
                // Through tmux: the picture sent once, its text written like a half-block tile's.
                let (sent, lineOps) = tile.placeholderOps(kitty, request: request, picture: picture)
                if !sent.isEmpty { ops.append(PaintOp(row: tile.row, column: tile.column, bytes: sent)) }
                if drawn[slot] != now || !sent.isEmpty {
                    ops += lineOps + tile.badgeOps(colors: colors)
                    if let focus, focus.coversPicture, focus.tileRow == tile.row, focus.tileColumn == tile.column { markerDue = true }
                }
            } else if let kitty, let (request, picture) = tile.kittyPicture {
                // Asked of every picture on screen, changed or not: the terminal's placements
                // follow the frame (nothing is written for a picture that stayed put).
                ops += tile.kittyOps(kitty, request: request, picture: picture, changed: drawn[slot] != now, colors: colors)
            } else if drawn[slot] != now {
                ops += tile.ops(colors: colors)
                // A picture drawn again under the frame covers the sides drawn over it.
                if let focus, focus.coversPicture, focus.tileRow == tile.row, focus.tileColumn == tile.column { markerDue = true }
            }
        }
        // Slots that held a tile and hold none now (the end of the photos scrolled up): erase (ECH).
        for (slot, old) in drawn where current[slot] == nil {
            for i in 0..<old.rows {
                ops.append(PaintOp(row: slot.row + i, column: slot.column, bytes: Array("\u{1B}[\(old.width)X".utf8)))
            }
        }
        drawn = current
        if markerDue {
            if let new = focus { ops += new.ops(colors: colors, erase: false) }
            // Where the frame's bottom side lies on the tile's own last row (the grid's bottom
            // edge), the badges there stay readable: drawn again over the side, which in kitty
            // leaves their cells.
            let framed = focus.flatMap { focus in tiles.first { $0.row == focus.tileRow && $0.column == focus.tileColumn } }
            let badgeCells = framed.map { focus?.bottomOnTile == true ? $0.badgeCells : 0 } ?? 0
            // In kitty the sides over pictures would be under them: they go as pictures above.
            if let kitty, !kitty.placeholders { ops += kitty.frameOver(focus?.sidesOverTile(leaving: badgeCells) ?? []) }
            if badgeCells > 0, let framed { ops += framed.badgeOps(colors: colors) }
            marker = focus
        }
        // Headers last: over the frame's top side where they share a row. Drawn again when they
        // change or the frame moved (its erasing blanks the row).
        if lines != drawnHeaders || (markerDue && !lines.isEmpty) {
            ops += headers
            drawnHeaders = lines
        }
        guard !ops.isEmpty else { return [] }
        // One buffer of the final size: a sixel frame is megabytes, copied once.
        var out: [UInt8] = []
        out.reserveCapacity(ops.reduce(16) { $0 + $1.bytes.count + 12 })
        out += Array("\u{1B}7".utf8)
        for op in ops {
            out += GridPainter.moveTo(row: op.row, column: op.column)
            out += op.bytes
        }
        out += Array("\u{1B}[0m\u{1B}8".utf8)
        return out
    }

    static func moveTo(row: Int, column: Int) -> [UInt8] { Array("\u{1B}[\(row + 1);\(column + 1)H".utf8) }
}

/// Bytes to write with the cursor at a cell of the grid area.
package struct PaintOp: Sendable {
    package var row: Int
    package var column: Int
    package var bytes: [UInt8]
    /// Cells the bytes cover on their row; zero for a sixel image, which covers a block.
    package var cells: Int = 0
}

extension PaintTile {
    func ops(colors: HalfBlock.Colors) -> [PaintOp] {
        var ops: [PaintOp]
        switch content {
        case .image(_, let tile) where tile.sixelParts != nil:
            ops = tile.sixelParts!.map { PaintOp(row: row + $0.row, column: column + $0.column, bytes: $0.bytes) }
        case .preview(_, let tile) where tile.sixelParts != nil:
            ops = tile.sixelParts!.map { PaintOp(row: row + $0.row, column: column + $0.column, bytes: $0.bytes) }
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

/// An amber frame around the focused photo, drawn as coloured spaces: any font has a space,
/// while the thinner block characters are missing from many terminal fonts (xterm's `10x20`
/// among them). Its sides go in the gap cells around the tile; where the grid's edge leaves no
/// gap (the left column, the top row, the right and bottom edges) that side is drawn over the
/// photo's outermost cells instead, so the frame has four sides everywhere. In fit mode it
/// frames the photo inside its square, not the square.
package struct FocusMarker: Equatable, Sendable {
    /// What is framed: the tile, or in fit mode the photo's part of it.
    package var row: Int, column: Int, width: Int, rows: Int
    /// The tile's slot and size: it must be drawn again when a side drawn over it goes.
    package var tileRow: Int, tileColumn: Int, tileWidth: Int, tileRows: Int
    /// The grid area's bounds: no line is drawn outside them.
    package var gridRows: Int, screenColumns: Int

    package init(tile: PaintTile, gridRows: Int, screenColumns: Int,
                photo: (column: Int, row: Int, width: Int, rows: Int)? = nil) {
        let area = photo ?? (0, 0, tile.width, tile.rows)
        row = tile.row + area.row; column = tile.column + area.column
        width = max(1, min(area.width, tile.width - area.column)); rows = max(1, min(area.rows, tile.rows - area.row))
        tileRow = tile.row; tileColumn = tile.column; tileWidth = tile.width; tileRows = tile.rows
        self.gridRows = gridRows; self.screenColumns = screenColumns
    }

    /// An amber that reads on dark and light backgrounds.
    static let accent = RGB(255, 196, 0)

    /// The frame's outer bounds: one cell outside the framed area where the grid has room, else
    /// its edge cells.
    var bounds: (top: Int, bottom: Int, left: Int, right: Int) {
        (row > 0 ? row - 1 : row, row + rows < gridRows ? row + rows : row + rows - 1,
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

    func ops(colors: HalfBlock.Colors, erase: Bool) -> [PaintOp] {
        let colour = erase ? "\u{1B}[0m" : "\u{1B}[0;\(HalfBlock.sgr(FocusMarker.accent, foreground: false, colors: colors))m"
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
