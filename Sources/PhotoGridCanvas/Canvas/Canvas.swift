import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What places one terminal protocol's pictures on the screen and takes them off: the loop's
/// side of a protocol, made by its `TileFormat` (`makeCanvas`), one per protocol in its folder
/// (`CursorCanvas` for sixel and iTerm2, `KittyCanvas`, `KittyTmuxCanvas`, `HalfBlockCanvas`).
///
/// The painters keep what is on screen and the order a frame goes in (`GridPainter`,
/// `ViewPainter`); a canvas says how a tile is drawn and what that leaves, what the terminal
/// holds for it, and how a run enters and leaves. The app asks a canvas to show tiles; it never
/// asks which protocol it is. Owned by the thread that writes to the terminal.
package protocol Canvas: AnyObject {
    var format: any TileFormat { get }
    /// How plain cells are written (`Blanking`).
    var blanking: Blanking { get set }
    /// The cells of the panel open over the view (help, details), nil when none is: the panel is
    /// text written after the pictures, and where text cannot cover a picture the picture gives way.
    var panel: CellRect? { get set }

    /// A grid tile's bytes, to write after the painter erased what goes: all of it when
    /// `changed` (the slot showed something else, or was written over), else only what must be
    /// said again each frame (kitty's placements follow the frame).
    func tileOps(_ tile: PaintTile, changed: Bool, screenColumns: Int) -> [PaintOp]
    /// Sides of the focus frame that lie over pictures where text would not show them (kitty
    /// draws pictures above text): drawn another way, and those placed before that are gone
    /// taken off; asked every frame.
    func frameOver(_ sides: [CellRect]) -> [PaintOp]
    /// The photo view's picture over `cells`: placed by the canvas itself, or drawn by the
    /// painter as lines or pieces.
    func viewPicture(_ content: TileContent, cells: CellRect) -> ViewPicture

    /// Whether a frame drawn from scratch may clear the screen (ED 2); kitty frees the pictures
    /// of a cleared screen, so its canvases erase instead.
    var clearsScreen: Bool { get }
    /// Bytes before a frame drawn from scratch: what it holds taken off the screen (or, `lost`:
    /// the terminal may have dropped it, forgotten), and where the screen is not cleared, the
    /// view's `areaRows` erased.
    func startOver(lost: Bool, areaRows: Int) -> [UInt8]
    /// Bytes after each frame.
    func endFrame() -> [UInt8]
    /// Forgets what the terminal holds, with the bytes that free it: after a resize or a suspend,
    /// when the terminal may have let go of it.
    func forgetAll() -> [UInt8]
    /// Bytes that free what this run put in the terminal, at the end of the run.
    func leave() -> [UInt8]
    /// After the run: files left for the terminal to read are removed.
    func finish()

    /// Through a multiplexer: nothing is drawn while a resize settles, a repaint sends every
    /// picture again, and pictures wait while the pane is not on screen (`beforeFrame`).
    var waitsForSettle: Bool { get }
    var losesPicturesOnRepaint: Bool { get }
    /// Looks, before a frame, at whether pictures may be sent now; true when everything must
    /// be drawn again (they were held back while the pane was hidden).
    func beforeFrame(now: Int) -> Bool
    /// Pictures were held back: the loop should look again soon.
    var picturesHeld: Bool { get }

    /// About how many bytes showing `content` would write now: its picture's, or nothing where
    /// the terminal holds it already (kitty's pictures sent before). What a slow link's budget
    /// counts (`LinkMeter`).
    func bytesToShow(_ content: TileContent) -> Int

    /// `--print`: a contact sheet's tiles, as ops, keeping nothing in the terminal.
    func printOps(_ tiles: [PaintTile]) -> [PaintOp]
    /// `printOps` of one tile does not depend on the others, so a contact sheet can be written a
    /// tile at a time as they are made (not where pictures are numbered across the sheet).
    var printsTilesApart: Bool { get }
    /// `--print PHOTO`: one picture of `columns` x `rows` cells from the cursor, the cursor left below it.
    func printPicture(_ tile: EncodedTile, request: TileRequest, columns: Int, rows: Int) -> [UInt8]
}

/// How the photo view's picture is drawn.
package enum ViewPicture {
    /// Placed by the canvas (`bytes`, from its top-left cell): the painter erases the view's text
    /// when the view changed, and writes nothing else.
    case placed([UInt8])
    /// Drawn by the painter (lines of cells, or pieces from the cursor), after `sent`.
    case drawn(TileContent, sent: [UInt8])
}

extension Canvas {
    package func bytesToShow(_ content: TileContent) -> Int {
        switch content {
        case .image(_, let tile), .preview(_, let tile): return tile.byteCount
        case .failed, .loading: return 0
        }
    }
    package func frameOver(_ sides: [CellRect]) -> [PaintOp] { [] }
    package func viewPicture(_ content: TileContent, cells: CellRect) -> ViewPicture { .drawn(content, sent: []) }
    package var clearsScreen: Bool { true }
    package func startOver(lost: Bool, areaRows: Int) -> [UInt8] { [] }
    package func endFrame() -> [UInt8] { [] }
    package func forgetAll() -> [UInt8] { [] }
    package func leave() -> [UInt8] { [] }
    package func finish() {}
    package var waitsForSettle: Bool { false }
    package var losesPicturesOnRepaint: Bool { false }
    package func beforeFrame(now: Int) -> Bool { false }
    package var picturesHeld: Bool { false }
    package func printOps(_ tiles: [PaintTile]) -> [PaintOp] { tiles.flatMap { $0.ops(colors: format.textColors) } }
    package var printsTilesApart: Bool { true }

    /// The view's rows erased, for a frame drawn from scratch where the screen is not cleared.
    package func eraseRows(_ areaRows: Int) -> [UInt8] {
        var out = Array("\u{1B}7\u{1B}[0m".utf8)
        for row in 0..<areaRows { out += GridPainter.moveTo(row: row, column: 0) + Array("\u{1B}[2K".utf8) }
        return out + Array("\u{1B}8".utf8)
    }
}
