import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Paints the grid area with escape sequences written after ncurses' update, and remembers what
/// is on screen so that a frame redraws only the tiles that changed.
///
/// ncurses knows nothing of these cells: its picture of the grid area stays blank, so it never
/// writes there except on a full repaint, after which `invalidate()` makes every tile redraw.
/// Each frame is wrapped in DECSC/DECRC so that ncurses' idea of the cursor and colours holds.
///
/// What is on screen (`drawn`) is only ever changed by what this painter writes: a tile stays
/// there until its cells are erased or drawn over, whatever else moves. A frame goes in this
/// order, so that a terminal that shows a write as it arrives never shows a picture the layout
/// does not put there, not even for a moment:
/// 1. every cell that showed something the new frame does not keep is made plain (`Blanking`):
///    tiles gone or moved, tiles that change (a picture drawn over another from the cursor would
///    show both while it arrives), headers gone, the old focus frame;
/// 2. the focused tile, then the others;
/// 3. the focus frame, then the headers.
/// Where the terminal takes synchronized output the event loop wraps the frame in it, and the
/// terminal shows it whole.
package struct GridPainter {
    struct Slot: Hashable { var row: Int; var column: Int }
    struct Drawn: Equatable {
        var photo: PhotoID; var content: TileContent.ContentID; var width: Int; var rows: Int; var badges: String
        /// A picture drawn from the cursor (sixel, iTerm2): another drawn over it shows both while it arrives.
        var fromCursor: Bool
    }

    private var drawn: [Slot: Drawn] = [:]
    /// Tiles on screen whose cells something else wrote over (the frame's sides): drawn again.
    private var damaged: Set<Slot> = []
    private var marker: FocusMarker?
    /// Section headers as drawn.
    private var drawnHeaders: [HeaderLine] = []
    /// How the terminal's protocol draws tiles, and what it holds.
    package let canvas: any Canvas
    /// The screen's width in cells: nothing is written past it.
    package var screenColumns = Int.max
    var colors: HalfBlock.Colors { canvas.format.textColors }
    var blanking: Blanking { canvas.blanking }

    package init(canvas: any Canvas) { self.canvas = canvas }

    /// Forget what is on screen: after the screen was cleared.
    package mutating func invalidate() {
        drawn = [:]
        damaged = []
        marker = nil
        drawnHeaders = []
    }

    /// Whether `tile` is on screen as it is now: painting it would write nothing new.
    package func shows(_ tile: PaintTile) -> Bool {
        drawn[Slot(row: tile.row, column: tile.column)] == Drawn(photo: tile.photo, content: tile.content.id, width: tile.width,
                                                                  rows: tile.rows, badges: tile.badges, fromCursor: tile.drawsFromCursor)
    }

    /// The bytes that bring the screen from what was drawn to `tiles` with the focus marker
    /// `focus` and the section `headers` (text in the gap rows); empty when nothing changed.
    package mutating func paint(_ tiles: [PaintTile], focus: FocusMarker?, headers: [HeaderLine] = []) -> [UInt8] {
        var erase: [PaintOp] = [], draw: [PaintOp] = []
        var current: [Slot: Drawn] = [:]
        for tile in tiles {
            current[Slot(row: tile.row, column: tile.column)] = Drawn(photo: tile.photo, content: tile.content.id, width: tile.width,
                                                                     rows: tile.rows, badges: tile.badges, fromCursor: tile.drawsFromCursor)
        }
        // 1. What goes: the old frame (a side it drew over a picture leaves that tile to draw again).
        let frameMoved = focus != marker
        if frameMoved, let old = marker {
            erase += old.ops(colors: colors, erase: true, blanking: blanking)
            if old.coversPicture { damaged.insert(Slot(row: old.tileRow, column: old.tileColumn)) }
        }
        for old in drawnHeaders where !headers.contains(old) {
            erase.append(PaintOp(row: old.row, column: old.column, bytes: blanking.erase(old.cells)))
        }
        // Tiles gone or moved; a picture drawn from the cursor where another photo goes. Anything
        // else is covered by what takes its place: lines of cells, pictures the canvas places by
        // id (moved or taken off by it), the same photo's sharper picture.
        for (slot, old) in drawn where current[slot] != old {
            let new = current[slot]
            guard new == nil || new?.width != old.width || new?.rows != old.rows || (old.fromCursor && new?.photo != old.photo) else { continue }
            for i in 0..<old.rows { erase.append(PaintOp(row: slot.row + i, column: slot.column, bytes: blanking.erase(old.width))) }
        }
        // 2. The tiles that changed, the focused one first.
        let focused = focusIndex(tiles, focus)
        let ordered = tiles.filter { $0.photo == focused } + tiles.filter { $0.photo != focused }
        var drewTile = false
        for tile in ordered {
            let slot = Slot(row: tile.row, column: tile.column)
            let changed = drawn[slot] != current[slot] || damaged.contains(slot)
            let ops = canvas.tileOps(tile, changed: changed, screenColumns: screenColumns)
            if !ops.isEmpty { draw += ops; drewTile = drewTile || changed }
        }
        drawn = current
        damaged = []
        // 3. The frame, whenever anything under or beside it was drawn (a terminal may erase
        // next to a picture it draws: Konsole takes the text of the column right of it), then
        // the headers, over the frame's top side where they share a row.
        var after: [PaintOp] = []
        if frameMoved || drewTile || !erase.isEmpty {
            after += focus?.ops(colors: colors, erase: false) ?? []
            marker = focus
        }
        // Where text cannot show over a picture, the canvas draws the sides over pictures its
        // own way, the panel left out (asked every frame: the panel may have opened or closed).
        after += canvas.frameOver((focus?.sidesOverTile(leaving: badgeCells(tiles, focus)) ?? []).map {
            CellRect(row: $0.row, column: $0.column, columns: $0.columns, rows: $0.rows)
        })
        // Where the frame's bottom side lies on the tile's own last row (the grid's bottom edge),
        // the badges there again over it (where the canvas draws sides its own way, those cells
        // stay text).
        if !after.isEmpty, let focus, focus.bottomOnTile,
           let framed = tiles.first(where: { $0.row == focus.tileRow && $0.column == focus.tileColumn }), framed.badgeCells > 0 {
            after += framed.badgeOps(colors: colors)
        }
        if headers != drawnHeaders || !after.isEmpty || !erase.isEmpty {
            after += headers.map { PaintOp(row: $0.row, column: $0.column, bytes: blanking.text($0.text, bold: true), cells: $0.cells) }
            drawnHeaders = headers
        }
        return GridPainter.write(erase + draw + after)
    }

    private func focusIndex(_ tiles: [PaintTile], _ focus: FocusMarker?) -> PhotoID? {
        guard let focus else { return nil }
        return tiles.first { $0.row == focus.tileRow && $0.column == focus.tileColumn }?.photo
    }

    private func badgeCells(_ tiles: [PaintTile], _ focus: FocusMarker?) -> Int {
        guard let focus, focus.bottomOnTile else { return 0 }
        return tiles.first { $0.row == focus.tileRow && $0.column == focus.tileColumn }?.badgeCells ?? 0
    }

    /// One buffer of the final size (a sixel frame is megabytes, copied once), the cursor saved
    /// and given back round it.
    static func write(_ ops: [PaintOp]) -> [UInt8] {
        guard !ops.isEmpty else { return [] }
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

    package static func moveTo(row: Int, column: Int) -> [UInt8] { Array("\u{1B}[\(row + 1);\(column + 1)H".utf8) }
}

/// A section's header in a gap row: its name from `column`, `cells` wide.
package struct HeaderLine: Equatable, Sendable {
    package var row: Int, column: Int, cells: Int
    package var text: String

    package init(row: Int, column: Int, cells: Int, text: String) {
        self.row = row; self.column = column; self.cells = cells; self.text = text
    }
}
