import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// kitty's graphics protocol, outside tmux: each tile sent once under an id (`KittyScreen`) and
/// placed again by id, in the pieces a panel leaves; the frame's sides over pictures are
/// pictures too, since kitty draws pictures above text. A cleared screen frees kitty's pictures,
/// so frames drawn from scratch erase the text instead.
package final class KittyCanvas: Canvas {
    package let format: any TileFormat
    package var blanking = Blanking()
    package var panel: CellRect? {
        get { screen.panel }
        set { screen.panel = newValue }
    }
    let screen = KittyScreen()
    let transfer: Kitty.Transfer

    package init(format: KittyFormat) {
        self.format = format
        transfer = format.transfer
    }

    package func tileOps(_ tile: PaintTile, changed: Bool, screenColumns: Int) -> [PaintOp] {
        guard let (request, picture) = tile.kittyPicture else { return changed ? tile.ops(colors: format.textColors) : [] }
        // Asked of every picture on screen, changed or not: the terminal's placements follow the
        // frame (nothing is written for a picture that stayed put).
        return tile.kittyOps(screen, request: request, picture: picture, changed: changed, colors: format.textColors)
    }

    package func frameOver(_ sides: [CellRect]) -> [PaintOp] {
        screen.frameOver(sides.map { ($0.row, $0.column, $0.columns, $0.rows) })
    }

    /// The view's cells erased to the default background (a picture is drawn under cells that
    /// have colours), then the picture placed by id, shown again each frame so that the
    /// terminal's placements follow the view.
    package func viewPicture(_ content: TileContent, cells: CellRect) -> ViewPicture {
        guard let (request, picture) = content.kittyPicture else { return .drawn(content, sent: []) }
        return .placed(screen.show(request, picture, row: cells.row, column: cells.column, columns: cells.columns, rows: cells.rows))
    }

    package var clearsScreen: Bool { false }

    /// A picture the terminal holds costs its placement only.
    package func bytesToShow(_ content: TileContent) -> Int {
        guard let (request, picture) = content.kittyPicture else { return 0 }
        // A file the terminal reads costs its path through the pty.
        return screen.holds(request, picture) ? 0 : picture.isFile ? 100 : picture.payload.count
    }

    package func startOver(lost: Bool, areaRows: Int) -> [UInt8] {
        (lost ? screen.forgetAll() : screen.hideAll()) + eraseRows(areaRows)
    }

    package func endFrame() -> [UInt8] { screen.endFrame() }
    package func forgetAll() -> [UInt8] { screen.forgetAll() }
    /// The terminal is photogrid's alone: everything is freed at exit (`Capabilities.exitSequence`).
    package func leave() -> [UInt8] { [] }
    package func finish() { if transfer == .file { TemporaryFiles.removeLeftovers() } }

    package func printOps(_ tiles: [PaintTile]) -> [PaintOp] { tiles.flatMap { $0.printedOps(colors: format.textColors) } }

    /// Room made below the cursor, the picture drawn from its top, the cursor left below it.
    package func printPicture(_ tile: EncodedTile, request: TileRequest, columns: Int, rows: Int) -> [UInt8] {
        guard case .kitty(let picture) = tile else { return [] }
        return PrintComposer.relative([PaintOp(row: 0, column: 0, bytes: Kitty.display(picture, columns: columns, rows: rows))], rows: rows)
    }

    /// Pictures the terminal holds now.
    package var heldCount: Int { screen.heldCount }
    /// Picture bytes written so far.
    package var sentBytes: Int { screen.sentBytes }
}
