/// Paints the grid area with escape sequences written after ncurses' update, and remembers what
/// is on screen so that a frame redraws only the tiles that changed.
///
/// ncurses knows nothing of these cells: its picture of the grid area stays blank, so it never
/// writes there except on a full repaint, after which `invalidate()` makes every tile redraw.
/// Each frame is wrapped in DECSC/DECRC so that ncurses' idea of the cursor and colours holds.
public struct GridPainter {
    struct Slot: Hashable { var row: Int; var column: Int }
    struct Drawn: Equatable { var index: Int; var content: TileContent.ContentID; var width: Int; var rows: Int; var badges: String }

    private var drawn: [Slot: Drawn] = [:]
    private var marker: FocusMarker?
    public let colors: HalfBlock.Colors
    /// In kitty mode, the pictures the terminal holds: tiles are placed by id, sent only once.
    let kitty: KittyScreen?

    public init(colors: HalfBlock.Colors, kitty: KittyScreen? = nil) { self.colors = colors; self.kitty = kitty }

    /// Forget what is on screen: after the screen was cleared.
    public mutating func invalidate() {
        drawn = [:]
        marker = nil
    }

    /// The bytes that bring the screen from what was drawn to `tiles` with the focus marker
    /// `focus`; empty when nothing changed.
    public mutating func paint(_ tiles: [PaintTile], focus: FocusMarker?) -> [UInt8] {
        var ops: [PaintOp] = []
        var current: [Slot: Drawn] = [:]
        for tile in tiles {
            let slot = Slot(row: tile.row, column: tile.column)
            let now = Drawn(index: tile.index, content: tile.content.id, width: tile.width, rows: tile.rows, badges: tile.badges)
            current[slot] = now
            if let kitty, let (request, picture) = tile.kittyPicture {
                // Asked of every picture on screen, changed or not: the terminal's placements
                // follow the frame (nothing is written for a picture that stayed put).
                ops += tile.kittyOps(kitty, request: request, picture: picture, changed: drawn[slot] != now, colors: colors)
            } else if drawn[slot] != now {
                ops += tile.ops(colors: colors)
            }
        }
        // Slots that held a tile and hold none now (the end of the photos scrolled up): erase (ECH).
        for (slot, old) in drawn where current[slot] == nil {
            for i in 0..<old.rows {
                ops.append(PaintOp(row: slot.row + i, column: slot.column, bytes: Array("\u{1B}[\(old.width)X".utf8)))
            }
        }
        drawn = current
        if focus != marker {
            if let old = marker { ops += old.ops(colors: colors, erase: true) }
            if let new = focus { ops += new.ops(colors: colors, erase: false) }
            marker = focus
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
public struct PaintOp: Sendable {
    public var row: Int
    public var column: Int
    public var bytes: [UInt8]
    /// Cells the bytes cover on their row; zero for a sixel image, which covers a block.
    public var cells: Int = 0
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
        let bytes = kitty.show(request, picture, row: row, column: column, columns: width, rows: rows, sourceHeight: cut)
        if !bytes.isEmpty { ops.append(PaintOp(row: row, column: column, bytes: bytes)) }
        return changed ? ops + badgeOps(colors: colors) : ops
    }

    /// Small marks over the picture's last cells, drawn after it.
    func badgeOps(colors: HalfBlock.Colors) -> [PaintOp] {
        var ops: [PaintOp] = []
        if !badges.isEmpty, rows > 0, width > badges.count + 2 {
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

/// An amber frame in the gap cells around the focused tile, drawn as coloured spaces: any font
/// has a space, while the thinner block characters are missing from many terminal fonts
/// (xterm's `10x20` among them).
public struct FocusMarker: Equatable, Sendable {
    public var row: Int, column: Int, width: Int, rows: Int
    /// The grid area's bounds: no line is drawn outside them.
    public var gridRows: Int, screenColumns: Int

    public init(tile: PaintTile, gridRows: Int, screenColumns: Int) {
        row = tile.row; column = tile.column; width = tile.width; rows = tile.rows
        self.gridRows = gridRows; self.screenColumns = screenColumns
    }

    /// An amber that reads on dark and light backgrounds.
    static let accent = RGB(255, 196, 0)

    func ops(colors: HalfBlock.Colors, erase: Bool) -> [PaintOp] {
        let colour = erase ? "\u{1B}[0m" : "\u{1B}[0;\(HalfBlock.sgr(FocusMarker.accent, foreground: false, colors: colors))m"
        func op(_ r: Int, _ c: Int, _ count: Int) -> PaintOp {
            PaintOp(row: r, column: c, bytes: Array((colour + String(repeating: " ", count: count) + "\u{1B}[0m").utf8), cells: count)
        }
        // The frame's corners are drawn too where there is room, so that it reads as a frame.
        let left = max(0, column - 1), right = min(screenColumns, column + width + 1)
        var ops: [PaintOp] = []
        if row > 0 { ops.append(op(row - 1, left, right - left)) }
        if row + rows < gridRows { ops.append(op(row + rows, left, right - left)) }
        for i in 0..<rows {
            if column > 0 { ops.append(op(row + i, column - 1, 1)) }
            if column + width < screenColumns { ops.append(op(row + i, column + width, 1)) }
        }
        return ops
    }
}
