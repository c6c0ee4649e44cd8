import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// kitty's graphics protocol through tmux: pictures sent through tmux's passthrough with a
/// virtual placement, and drawn as Unicode placeholders (`KittyPlaceholders`), text that tmux
/// keeps, redraws and erases like any other.
///
/// tmux passes nothing on for a window that is not the current one, or a session no terminal
/// shows, drops what a pane writes while a redraw of it is pending, and puts the redraw off while
/// it has output for the terminal (`screen_write_set_client_cb`, `server_client_check_redraw` in
/// its sources). So tmux is asked at most every 300 ms (a run of it, a few milliseconds) whether
/// the pane is shown: nothing is sent while it is not, nor for 300 ms after it is again (tmux
/// redraws it meanwhile), and then everything is sent anew if pictures were held back or may
/// have been under way when it went.
package final class KittyTmuxCanvas: Canvas {
    package let format: any TileFormat
    package var blanking = Blanking()
    /// Placeholders are text: the panel, written after them, covers them.
    package var panel: CellRect?
    let screen = KittyScreen(placeholders: true)
    /// Whether photogrid's pane is on screen (`TmuxClient.paneShown`); nil: not asked.
    package var paneShown: (() -> Bool)?
    var paneAskedAt: Int?
    var paneWasShown = true
    /// When the pane was seen shown again after it was not; when pictures were last sent.
    var shownAgainAt: Int?
    var picturesSentAt: Int?
    var sentBytesSeen = 0
    /// The time the last frame began (`beforeFrame`): when pictures sent in it were sent.
    var frameTime = 0
    package private(set) var picturesHeld = false

    package init(format: KittyFormat, paneShown: (() -> Bool)? = nil) {
        self.format = format
        self.paneShown = paneShown
    }

    package func tileOps(_ tile: PaintTile, changed: Bool, screenColumns: Int) -> [PaintOp] {
        guard let (request, picture) = tile.kittyPicture else { return changed ? tile.ops(colors: format.textColors) : [] }
        // The picture sent once, its text written like a half-block tile's.
        let (sent, lineOps) = tile.placeholderOps(screen, request: request, picture: picture)
        var ops = sent.isEmpty ? [] : [PaintOp(row: tile.row, column: tile.column, bytes: sent)]
        if changed || !sent.isEmpty { ops += lineOps + tile.badgeOps(colors: format.textColors) }
        return ops
    }

    package func viewPicture(_ content: TileContent, cells: CellRect) -> ViewPicture {
        guard let (request, picture) = content.kittyPicture else { return .drawn(content, sent: []) }
        let tile = screen.placeholderTile(request, picture, columns: cells.columns, rows: cells.rows, shownRows: cells.rows)
        return .drawn(content.drawn(as: .cells(tile.lines)), sent: tile.sent)
    }

    package var clearsScreen: Bool { false }

    /// The pictures are text, erased with the rest; sent again when they may have been lost.
    package func startOver(lost: Bool, areaRows: Int) -> [UInt8] { (lost ? screen.forgetAll() : []) + eraseRows(areaRows) }

    package func endFrame() -> [UInt8] {
        let out = screen.endFrame()
        if screen.withheld { picturesHeld = true; screen.withheld = false }
        if screen.sentBytes != sentBytesSeen {
            picturesSentAt = frameTime
            sentBytesSeen = screen.sentBytes
        }
        return out
    }

    package func forgetAll() -> [UInt8] { screen.forgetAll() }
    /// Only this run's pictures, one by one: the terminal's other panes may hold pictures of their own.
    package func leave() -> [UInt8] { screen.leave() }

    package var waitsForSettle: Bool { true }
    package var losesPicturesOnRepaint: Bool { true }

    package func beforeFrame(now: Int) -> Bool {
        frameTime = now
        guard let paneShown else { return false }
        if paneAskedAt.map({ now - $0 >= 300 }) ?? true {
            let shown = paneShown()
            if shown && !paneWasShown {
                shownAgainAt = now
            } else if !shown && paneWasShown, let sent = picturesSentAt, now - sent < 1000 {
                picturesHeld = true
            }
            paneWasShown = shown
            paneAskedAt = now
        }
        let ready = paneWasShown && shownAgainAt.map { now - $0 >= 300 } ?? true
        screen.holdPictures = !ready
        guard ready && picturesHeld else { return false }
        picturesHeld = false
        return true
    }

    /// Through tmux the frame is text naming pictures the terminal keeps (and shows for as long
    /// as the text is on screen): nothing here frees them.
    package func printOps(_ tiles: [PaintTile]) -> [PaintOp] {
        let screen = KittyScreen(budgetBytes: .max, placeholders: true)
        return tiles.flatMap { tile -> [PaintOp] in
            guard let (request, picture) = tile.kittyPicture else { return tile.ops(colors: format.textColors) }
            let (sent, lines) = tile.placeholderOps(screen, request: request, picture: picture)
            return [PaintOp(row: tile.row, column: tile.column, bytes: sent)] + lines + tile.badgeOps(colors: format.textColors)
        }
    }

    /// Placeholder pictures are numbered across the sheet.
    package var printsTilesApart: Bool { false }

    package func printPicture(_ tile: EncodedTile, request: TileRequest, columns: Int, rows: Int) -> [UInt8] {
        guard case .kitty(let picture) = tile else { return [] }
        let screen = KittyScreen(budgetBytes: .max, placeholders: true)
        let (sent, lines) = screen.placeholderTile(request, picture, columns: columns, rows: rows, shownRows: rows)
        return sent + lines.flatMap { $0 + Array("\n".utf8) }
    }

    /// Picture bytes written so far.
    package var sentBytes: Int { screen.sentBytes }
    package var heldCount: Int { screen.heldCount }
}
