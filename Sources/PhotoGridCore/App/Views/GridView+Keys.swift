import PhotoGridCanvas
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Keys of the grid, after less, vim and the file managers; and the mouse, where the terminal
/// reports it: a click focuses a photo, a double click opens it, the wheel scrolls by rows.
extension GridView {
    func handle(_ key: Key) -> KeyOutcome {
        if case .mouse(let action, let column, let row) = key { mouse(action, column: column, row: row); return .done }
        let count = session.photos.count
        let columns = layout.columns
        switch key {
        case .character("q"), .character("Q"): return .taken(.quit)
        case .character("?"): app.openHelp()
        case .character("/"): app.startSearch()
        case .character("s"): app.cycleSort()
        case .character("r"): app.reverseOrder()
        case .character("S"): app.cycleGrouping()
        case .character("m"): app.toggleMark(position.focus)
        case .character("M"): gallery.toggleMarkAll()
        case .character("o"): app.openElsewhere()
        case .character("y"): app.copyPath()
        case .character("e"): app.startCaptionEdit()
        // Culling: 1-6 are the columns here, so the stars come after R (0-5, x).
        case .character("R"): app.askRating()
        case .character("x"): app.toggleReject()
        case .character("f"): app.askFilter()
        case .character("d"): app.askTrash()
        case .character("u"): app.undoTrash()
        case .character("c"): app.openCompare()
        case .character("."): app.toggleHidden()
        case .left, .character("h"): move(to: position.focus - 1)
        case .right, .character("l"): move(to: position.focus + 1)
        case .up, .character("k"), .control("p"): moveRows(-1)
        case .down, .character("j"), .control("n"): moveRows(1)
        case .pageDown, .character(" "), .control("f"): page(1)
        case .pageUp, .character("b"), .control("b"): page(-1)
        case .control("d"): moveRows(max(1, layout.fullyVisibleRows / 2))
        case .control("u"): moveRows(-max(1, layout.fullyVisibleRows / 2))
        case .home, .character("g"): move(to: 0)
        case .end, .character("G"): move(to: count - 1)
        case .enter, .character("z"):
            if let video = app.video(position.focus) { return .taken(.play(video)) }
            app.openPhoto(position.focus)
        // Past one column, + opens the photo, as spreading the fingers does in the photo apps.
        case .character("+"), .character("="): if columns == 1 { app.openPhoto(position.focus) } else { setColumns(columns - 1) }
        // Past 6 columns, - zooms out into time: the months, then the years (`TimeView`).
        case .character("-"), .character("_"):
            if columns >= GridLayout.maxColumns(for: screen) { app.openTime(.months) } else { setColumns(columns + 1) }
        case .character("{"): jumpSection(-1)
        case .character("}"): jumpSection(1)
        case .character(let c) where ("1"..."6").contains(c): setColumns(Int(String(c))!)
        case .character("a"): session.fit = session.fit == .fill ? .fit : .fill
        case .character("i"): app.toggleDetails()
        case .control("l"): app.repaint()
        case .control("r"): app.rescanGallery()
        default: break
        }
        return .done
    }

    func move(to index: Int) {
        let target = max(0, min(session.photos.count - 1, index))
        if target != position.focus { direction = target > position.focus ? 1 : -1 }
        position.focus(target, photos: session.photos.count, layout: layout)
    }

    /// Up or down `rows` tile rows in the same column (the row's last photo where it is shorter,
    /// a section's last row); past the first or last row, the first or last photo.
    func moveRows(_ rows: Int) {
        let count = session.photos.count, row = layout.row(of: position.focus) + rows
        if row < 0 { move(to: 0); return }
        if row >= layout.rowCount(photos: count) { move(to: count - 1); return }
        move(to: layout.index(row: row, column: layout.column(of: position.focus), photos: count))
    }

    func page(_ screens: Int) {
        direction = screens > 0 ? 1 : -1
        position.page(by: screens, photos: session.photos.count, layout: layout)
    }

    /// `{` `}`, as in vim: the first photo of the section before or after (the same one, first, for
    /// `{` inside a section); without sections, a screen.
    func jumpSection(_ by: Int) {
        guard let names = groupNames, layout.sections, position.focus < names.count else { page(by); return }
        let starts = names.indices.filter { $0 == 0 || names[$0 - 1] != names[$0] }
        let current = starts.last { $0 <= position.focus } ?? 0
        if by > 0 {
            if let next = starts.first(where: { $0 > position.focus }) { move(to: next) }
        } else {
            move(to: current < position.focus ? current : (starts.last { $0 < current } ?? 0))
        }
    }

    /// Reports for cells outside the tiles (the gaps, the status line, a panel) do nothing.
    func mouse(_ action: MouseAction, column: Int, row: Int) {
        switch action {
        case .wheelUp: scrollRows(-1)
        case .wheelDown: scrollRows(1)
        case .click, .doubleClick:
            guard !app.isUnderPanel(column: column, row: row),
                  let tile = contents().tiles.first(where: {
                      (($0.column)..<($0.column + $0.width)).contains(column) && (($0.row)..<($0.row + $0.rows)).contains(row)
                  }) else { return }
            move(to: tile.index)
            if action == .doubleClick { app.openPhoto(tile.index) }
        }
    }

    /// The view moved by `rows` tile rows, the focus kept on screen (in its column).
    func scrollRows(_ rows: Int) {
        let count = session.photos.count
        guard count > 0 else { return }
        let top = max(0, min(layout.maxTopRow(photos: count), position.topRow + rows))
        let row = max(top, min(top + layout.fullyVisibleRows - 1, layout.row(of: position.focus)))
        direction = rows > 0 ? 1 : -1
        position.topRow = top
        position.focus = layout.index(row: row, column: layout.column(of: position.focus), photos: count)
    }

    /// The headers over the tiles on screen: the top row's group at the top left, and each group
    /// that starts on screen above its first photo, as far as the next header or the screen's edge.
    func headerLines(_ tiles: [PaintTile]) -> [HeaderLine] {
        guard let groupNames, layout.sections, let first = tiles.first, first.index < groupNames.count else { return [] }
        var starts: [(row: Int, column: Int, text: String)] = []
        if first.index > 0 && groupNames[first.index - 1] == groupNames[first.index] {
            starts.append((first.row - 1, 0, groupNames[first.index]))
        }
        for tile in tiles where tile.index < groupNames.count && tile.row >= 1
            && (tile.index == 0 || groupNames[tile.index - 1] != groupNames[tile.index]) {
            starts.append((tile.row - 1, tile.column, groupNames[tile.index]))
        }
        return starts.enumerated().compactMap { offset, start in
            let next = starts.dropFirst(offset + 1).first { $0.row == start.row }
            let room = (next?.column ?? screen.columns) - start.column - 1
            let text = TerminalText.clip(" " + TerminalText.sanitize(start.text), to: max(0, room))
            guard !text.isEmpty else { return nil }
            return HeaderLine(row: start.row, column: start.column, cells: TerminalText.width(text), text: text)
        }
    }
}
