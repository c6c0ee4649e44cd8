import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What photogrid has put in a kitty-protocol terminal: which tiles it holds (each sent once,
/// under an id) and where each is placed. Owned by the thread that writes to the terminal.
///
/// A frame calls `show` for every picture on screen, then `endFrame`: pictures already in the
/// terminal are placed again by id (nothing sent when nothing moved), pictures that left the
/// screen are taken off it and kept, and all of those are freed once the terminal holds more
/// than `budgetBytes` (kitty keeps a quota per screen and evicts silently past it, 320 MB by
/// default: a freed picture is sent again if it comes back, an evicted one would be a blank tile).
///
/// Nothing is freed one picture at a time: kitty up to 0.26 frees every picture without a
/// placement on any uppercase delete (`filter_refs` in its graphics.c), so freeing one preview
/// freed the hidden tiles of the page before and paging back showed black rows. A tile takes
/// over its preview's id instead (sent under it, which replaces the preview's pixels), and past
/// the budget every hidden picture is freed at once.
///
/// Through tmux (`placeholders`) nothing is placed at a position: each picture gets a virtual
/// placement once, and the painters write its placeholder text (`placeholderTile`) as they write
/// half-block tiles; tmux keeps that text and the terminal draws the pictures in it.
package final class KittyScreen {
    struct Placement: Equatable {
        var row: Int, column: Int, columns: Int, rows: Int, sourceWidth: Int?, sourceHeight: Int?
        /// Cells at the right of the last row the picture leaves uncovered, for badges.
        var uncovered = 0
    }
    /// A piece of a picture placed over cells: the cells, and the part of the picture shown
    /// there (nil: all of it).
    package struct Part: Equatable {
        var cells: CellRect
        var source: (x: Int, y: Int, width: Int, height: Int)?
        package static func == (a: Part, b: Part) -> Bool {
            a.cells == b.cells && a.source?.x == b.source?.x && a.source?.y == b.source?.y
                && a.source?.width == b.source?.width && a.source?.height == b.source?.height
        }
    }
    struct Entry {
        var id: UInt32
        var serial: UInt64
        /// What the terminal holds for it: four bytes a pixel.
        var bytes: Int
        /// Through tmux, its virtual placement.
        var placement: Placement?
        /// Its pieces on screen, placements 1, 2... (empty: not on screen).
        var parts: [Part] = []
    }

    private var entries: [TileRequest: Entry] = [:]
    private var shown: Set<TileRequest> = []
    private var nextID: UInt32 = 1
    private var heldBytes = 0
    package let budgetBytes: Int
    /// Picture bytes written so far (payloads), for tests and benchmarks.
    package private(set) var sentBytes = 0

    /// The cells of the panel open over the view (help, details): text cannot cover a picture,
    /// so pictures give way, each shown in the pieces the panel leaves (`CellRect.subtracting`).
    package var panel: CellRect?

    /// The focus frame's sides that lie over pictures, where text cannot show: a one-pixel
    /// amber picture (sent once, `frameID`) placed over each side's cells, above the tiles.
    private var frameID: UInt32?
    private var frameSides: [Placement] = []

    /// Pictures drawn as Unicode placeholders, every command through tmux's passthrough.
    package let placeholders: Bool
    /// Through tmux, while photogrid's pane is not on screen: nothing is sent (tmux would drop
    /// it), and a tile whose picture the terminal lacks gets no text; `withheld` says one did.
    package var holdPictures = false
    package var withheld = false

    package init(budgetBytes: Int = 160 << 20, placeholders: Bool = false) {
        self.budgetBytes = budgetBytes
        self.placeholders = placeholders
        // Ids are one namespace for the whole terminal window, which every tmux pane shown in
        // it shares: another photogrid in the next pane starts elsewhere among the 65,280.
        if placeholders { nextID = UInt32.random(in: 0..<UInt32(KittyPlaceholders.idCount)) }
    }

    /// Through tmux: the bytes that make sure the terminal holds `picture` (the tile `key`) with
    /// a virtual placement of `columns` x `rows` cells (sent only when it does not), and the
    /// placeholder text of its top `shownRows` rows, a line each, for the painter to write.
    package func placeholderTile(_ key: TileRequest, _ picture: KittyPicture, columns: Int, rows: Int,
                                shownRows: Int) -> (sent: [UInt8], lines: [[UInt8]]) {
        // The preview's text then shows the tile as soon as it is sent.
        takeOverPreview(of: key, keepingPlace: false)
        let size = Placement(row: 0, column: 0, columns: columns, rows: rows, sourceWidth: nil, sourceHeight: nil)
        if holdPictures, entries[key]?.serial != picture.serial || entries[key]?.placement != size {
            withheld = true
            return ([], [])
        }
        // Sent with its placement (`Kitty.transmitPlaced`), which replaces the one before.
        var (entry, sent) = held(key, picture, placement: size) { Kitty.transmitPlaced(picture, id: $0, columns: columns, rows: rows) }
        if entry.placement != size {
            sent += KittyPlaceholders.place(id: entry.id, columns: columns, rows: rows)
            entry.placement = size
        }
        entries[key] = entry
        shown.insert(key)
        let lines = (0..<max(0, min(shownRows, rows))).map { KittyPlaceholders.line(id: entry.id, row: $0, columns: columns) }
        return (sent, lines)
    }

    /// The bytes that put the frame's sides over pictures at `sides` (cells), taking off those
    /// placed before that are not among them; what the panel covers left out.
    func frameOver(_ sides: [(row: Int, column: Int, columns: Int, rows: Int)]) -> [PaintOp] {
        let wanted = sides.flatMap { side in
            CellRect(row: side.row, column: side.column, columns: side.columns, rows: side.rows).subtracting(panel.map { [$0] } ?? [])
        }.map { Placement(row: $0.row, column: $0.column, columns: $0.columns, rows: $0.rows, sourceWidth: nil, sourceHeight: nil) }
        guard wanted != frameSides else { return [] }
        var ops: [PaintOp] = []
        let id: UInt32
        if let known = frameID { id = known } else {
            id = takeID()
            frameID = id
            let amber = Kitty.picture(RGBImage(width: 1, height: 1, fill: FocusMarker.accent))
            ops.append(PaintOp(row: 0, column: 0, bytes: Kitty.transmit(amber, id: id)))
        }
        for placement in wanted.count..<max(wanted.count, frameSides.count) {
            ops.append(PaintOp(row: 0, column: 0, bytes: Kitty.hide(id: id, placement: placement + 2)))
        }
        for (i, side) in wanted.enumerated() where i >= frameSides.count || frameSides[i] != side {
            ops.append(PaintOp(row: side.row, column: side.column,
                               bytes: Kitty.placeAbove(id: id, placement: i + 2, columns: side.columns, rows: side.rows)))
        }
        frameSides = wanted
        return ops
    }

    /// The bytes that show `picture` (the tile `key`) over `columns` x `rows` cells from (`row`,
    /// `column`), cut to its top `sourceHeight` pixel rows when given (the screen's edge cuts the
    /// tile), in the pieces that the panel and the last `uncovered` cells of the last row (the
    /// badges, which stay text) leave; each piece a placement, showing its own part of the
    /// picture. Sends the picture first when the terminal does not hold it. Each piece moves the
    /// cursor to its own cell: the cursor is saved once round the whole frame by the painter (for
    /// ncurses, which goes on from where it left it), and there is one save slot.
    package func show(_ key: TileRequest, _ picture: KittyPicture, row: Int, column: Int, columns: Int, rows: Int,
                     sourceHeight: Int? = nil, uncovered: Int = 0) -> [UInt8] {
        let tile = CellRect(row: row, column: column, columns: columns, rows: rows)
        var holes = panel.map { [$0] } ?? []
        if uncovered > 0, uncovered < columns, rows > 0 {
            holes.append(CellRect(row: row + rows - 1, column: column + columns - uncovered, columns: uncovered, rows: 1))
        }
        let height = min(picture.height, sourceHeight ?? picture.height)
        let parts = tile.subtracting(holes).map { cells -> Part in
            guard cells != tile || height < picture.height else { return Part(cells: cells, source: nil) }
            let x = picture.width * (cells.column - column) / columns, y = height * (cells.row - row) / rows
            let right = picture.width * (cells.column + cells.columns - column) / columns
            let bottom = height * (cells.row + cells.rows - row) / rows
            return Part(cells: cells, source: (x, y, max(1, right - x), max(1, bottom - y)))
        }
        // Wholly under the panel: not shown this frame (taken off at `endFrame`).
        guard !parts.isEmpty else { return [] }
        takeOverPreview(of: key, keepingPlace: true)
        var (entry, out) = held(key, picture, placement: nil) { Kitty.transmit(picture, id: $0) }
        if entry.parts != parts {
            for number in parts.count..<max(parts.count, entry.parts.count) { out += Kitty.hide(id: entry.id, placement: number + 1) }
            for (i, part) in parts.enumerated() where i >= entry.parts.count || entry.parts[i] != part {
                out += GridPainter.moveTo(row: part.cells.row, column: part.cells.column)
                    + Kitty.place(id: entry.id, columns: part.cells.columns, rows: part.cells.rows, source: part.source, placement: i + 1)
            }
            entry.parts = parts
        }
        entries[key] = entry
        shown.insert(key)
        return out
    }

    /// Whether the terminal holds `picture` as the tile `key` (sent before, not freed since).
    package func holds(_ key: TileRequest, _ picture: KittyPicture) -> Bool { entries[key]?.serial == picture.serial }

    /// A final tile not known yet takes over its preview's entry (its id, and its place when
    /// `keepingPlace`): it is sent under that id, which replaces the preview's pixels.
    private func takeOverPreview(of key: TileRequest, keepingPlace: Bool) {
        guard entries[key] == nil, !key.isPreview, let preview = entries.removeValue(forKey: key.preview) else { return }
        entries[key] = Entry(id: preview.id, serial: 0, bytes: preview.bytes, placement: keepingPlace ? preview.placement : nil,
                             parts: keepingPlace ? preview.parts : [])
    }

    /// The entry of `picture` as the terminal will hold it: the one it holds, or a new one
    /// (under the tile's id, else a new id) with the bytes `send` makes to send it.
    private func held(_ key: TileRequest, _ picture: KittyPicture, placement: Placement?,
                      send: (UInt32) -> [UInt8]) -> (entry: Entry, sent: [UInt8]) {
        if let known = entries[key], known.serial == picture.serial { return (known, []) }
        let entry = Entry(id: entries[key]?.id ?? takeID(), serial: picture.serial, bytes: picture.width * picture.height * 4,
                          placement: placement)
        heldBytes += entry.bytes - (entries[key]?.bytes ?? 0)
        sentBytes += picture.payload.count
        return (entry, send(entry.id))
    }

    /// Ends a frame: what was on screen and is not now is taken off, and past the budget every
    /// picture not on screen is freed.
    package func endFrame() -> [UInt8] {
        var out: [UInt8] = []
        // A virtual placement is no place on screen: the painters' text goes, it stays.
        for (key, entry) in entries where !placeholders && !shown.contains(key) && !entry.parts.isEmpty {
            out += Kitty.hide(id: entry.id)
            entries[key]?.parts = []
        }
        if heldBytes > budgetBytes {
            // kitty 0.26 frees every picture without a placement on an uppercase delete: the
            // frame's too when it is not on screen.
            if frameSides.isEmpty { frameID = nil }
            // Every picture not on screen, each named (a newer kitty frees only the one named).
            for (key, entry) in entries where !shown.contains(key) {
                out += Kitty.delete(id: entry.id, throughTmux: placeholders)
                heldBytes -= entry.bytes
                entries[key] = nil
            }
        }
        shown = []
        return out
    }

    /// Takes every picture off the screen, keeping them in the terminal: before a frame drawn
    /// from scratch (Ctrl-L, a column change, another view).
    package func hideAll() -> [UInt8] {
        // Through tmux the pictures are text, erased with the rest (`GridController.eraseView`).
        guard !placeholders else { return [] }
        for key in entries.keys { entries[key]?.parts = [] }
        frameSides = []
        return Kitty.hideAll
    }

    /// Frees every picture and forgets them: when the terminal may have dropped them itself
    /// (a resize or a resume, after which ncurses clears the screen, and kitty frees the
    /// pictures of a cleared screen).
    package func forgetAll() -> [UInt8] {
        let freed = leave()
        entries = [:]
        frameID = nil
        frameSides = []
        shown = []
        heldBytes = 0
        return placeholders ? freed : Kitty.deleteAll
    }

    /// What frees this run's pictures when it ends, through tmux: each by its id, since the
    /// terminal's other panes may hold pictures of their own (outside tmux the terminal window
    /// is photogrid's, and `Capabilities.exitSequence` frees all of them).
    package func leave() -> [UInt8] {
        guard placeholders else { return [] }
        return entries.values.flatMap { Kitty.delete(id: $0.id, throughTmux: true) }
    }

    /// Pictures the terminal holds now.
    package var heldCount: Int { entries.count }

    private func takeID() -> UInt32 {
        if placeholders {
            // One the placeholders can name, and not one a picture still held has.
            let held = Set(entries.values.map(\.id))
            var id: UInt32
            repeat {
                id = KittyPlaceholders.id(Int(nextID))
                nextID = (nextID + 1) % UInt32(KittyPlaceholders.idCount)
            } while held.contains(id)
            return id
        }
        // Ids from 1 up, never 0 (which asks the terminal for none); after 2^32 - 1, from 1 again,
        // long after the pictures that had those ids were freed.
        let id = nextID
        nextID = nextID == .max ? 1 : nextID + 1
        return id
    }
}
