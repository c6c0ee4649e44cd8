import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Keys of the grid, after less, vim and the file managers; and the mouse, where the terminal
/// reports it: a click focuses a photo, a double click opens it, the wheel scrolls by rows.
extension GridView {
    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        if case .mouse(let action, let column, let row) = key { return .taken(mouse(action, column: column, row: row, context)) }
        let count = list(context).count
        let columns = layout.columns
        let focus = currentPhoto(context)
        var actions: [Action] = []
        switch key {
        case .character("q"), .character("Q"): return .taken(.quit)
        case .character("?"): actions = [.openHelp]
        case .character("/"): actions = [.startSearch]
        case .character("s"): actions = [.cycleSort]
        case .character("r"): actions = [.reverseOrder]
        case .character("S"): actions = [.cycleGrouping]
        case .character("m"): actions = focus.map { [.mark($0)] } ?? []
        case .character("M"): actions = [.markAll]
        case .character("o"): actions = [.openElsewhere]
        case .character("y"): actions = [.copyPath]
        case .character("e"): actions = [.editCaption]
        // Culling: 1-6 are the columns here, so the stars come after R (0-5, x).
        case .character("R"): actions = [.askRating]
        case .character("L"): actions = [.askLabel]
        case .character("t"): actions = [.askKeywords]
        case .character("x"): actions = [.toggleReject]
        case .character("f"): actions = [.askFilter]
        case .character("\\"): actions = [.askQuery]
        case .character("d"): actions = [.askTrash]
        case .character("u"): actions = [.undo]
        // To a folder: C copies, V moves (nnn's v; c is compare, M marks all, m marks).
        case .character("C"): actions = [.askTransfer(copy: true)]
        case .character("V"): actions = [.askTransfer(copy: false)]
        // A stack opened and closed as Tab folds in outliners and org-mode.
        case .control("i"): actions = [.toggleStack]
        // Turning, as feh's and gThumb's brackets do.
        case .character("["): actions = [.rotate(clockwise: false)]
        case .character("]"): actions = [.rotate(clockwise: true)]
        case .character("c"): actions = [.openCompare]
        case .character("."): actions = [.toggleHidden]
        case .left, .character("h"): move(to: position.focus - 1, context)
        case .right, .character("l"): move(to: position.focus + 1, context)
        case .up, .character("k"), .control("p"): moveRows(-1, context)
        case .down, .character("j"), .control("n"): moveRows(1, context)
        case .pageDown, .character(" "), .control("f"): page(1, context)
        case .pageUp, .character("b"), .control("b"): page(-1, context)
        case .control("d"): moveRows(max(1, layout.fullyVisibleRows / 2), context)
        case .control("u"): moveRows(-max(1, layout.fullyVisibleRows / 2), context)
        case .home, .character("g"): move(to: 0, context)
        case .end, .character("G"): move(to: count - 1, context)
        case .enter, .character("z"):
            guard let focus else { break }
            if let video = context.gallery.video(focus) { return .taken(.play(video)) }
            actions = [.openPhoto(focus)]
        // Past one column, + opens the photo, as spreading the fingers does in the photo apps.
        case .character("+"), .character("="):
            if columns == 1 { actions = focus.map { [.openPhoto($0)] } ?? [] } else { actions = setColumns(columns - 1, context) }
        // Past 6 columns, - zooms out into time: the days, the months, then the years (`TimeView`).
        case .character("-"), .character("_"):
            if columns >= GridLayout.maxColumns(for: context.screen) { actions = [.openTime(.days)] } else { actions = setColumns(columns + 1, context) }
        case .character("{"): jumpSection(-1, context)
        case .character("}"): jumpSection(1, context)
        case .character(let c) where ("1"..."6").contains(c): actions = setColumns(Int(String(c))!, context)
        case .character("a"): actions = [.toggleFit]
        case .character("i"): actions = [.toggleDetails]
        case .control("l"): actions = [.repaint]
        case .control("r"): actions = [.rescan]
        default: break
        }
        return .taken(actions)
    }

    func move(to index: Int, _ context: ViewContext) {
        let count = list(context).count
        let target = max(0, min(count - 1, index))
        if target != position.focus { direction = target > position.focus ? 1 : -1 }
        position.focus(target, photos: count, layout: layout)
        focused = currentPhoto(context)
    }

    /// Focuses `photo`, if it is in the list.
    func move(to photo: PhotoID, _ context: ViewContext) {
        if let index = list(context).index(of: photo) { move(to: index, context) }
    }

    /// Up or down `rows` tile rows in the same column (the row's last photo where it is shorter,
    /// a section's last row); past the first or last row, the first or last photo.
    func moveRows(_ rows: Int, _ context: ViewContext) {
        let count = list(context).count, row = layout.row(of: position.focus) + rows
        if row < 0 { move(to: 0, context); return }
        if row >= layout.rowCount(photos: count) { move(to: count - 1, context); return }
        move(to: layout.index(row: row, column: layout.column(of: position.focus), photos: count), context)
    }

    func page(_ screens: Int, _ context: ViewContext) {
        direction = screens > 0 ? 1 : -1
        position.page(by: screens, photos: list(context).count, layout: layout)
        focused = currentPhoto(context)
    }

    /// `{` `}`, as in vim: the first photo of the section before or after (the same one, first, for
    /// `{` inside a section); without sections, a screen.
    func jumpSection(_ by: Int, _ context: ViewContext) {
        guard let names = groupNames(context), layout.sections, position.focus < names.count else { page(by, context); return }
        let starts = names.indices.filter { $0 == 0 || names[$0 - 1] != names[$0] }
        let current = starts.last { $0 <= position.focus } ?? 0
        if by > 0 {
            if let next = starts.first(where: { $0 > position.focus }) { move(to: next, context) }
        } else {
            move(to: current < position.focus ? current : (starts.last { $0 < current } ?? 0), context)
        }
    }

    /// Reports for cells outside the tiles (the gaps, the status line, a panel) do nothing.
    func mouse(_ action: MouseAction, column: Int, row: Int, _ context: ViewContext) -> [Action] {
        switch action {
        case .wheelUp: scrollRows(-1, context)
        case .wheelDown: scrollRows(1, context)
        case .click, .doubleClick:
            guard !context.isUnderPanel(column: column, row: row),
                  let tile = contents(context).tiles.first(where: {
                      (($0.column)..<($0.column + $0.width)).contains(column) && (($0.row)..<($0.row + $0.rows)).contains(row)
                  }) else { return [] }
            move(to: tile.photo, context)
            if action == .doubleClick { return [.openPhoto(tile.photo)] }
        }
        return []
    }

    /// The view moved by `rows` tile rows, the focus kept on screen (in its column).
    func scrollRows(_ rows: Int, _ context: ViewContext) {
        let count = list(context).count
        guard count > 0 else { return }
        let top = max(0, min(layout.maxTopRow(photos: count), position.topRow + rows))
        let row = max(top, min(top + layout.fullyVisibleRows - 1, layout.row(of: position.focus)))
        direction = rows > 0 ? 1 : -1
        position.topRow = top
        position.focus = layout.index(row: row, column: layout.column(of: position.focus), photos: count)
        focused = currentPhoto(context)
    }

    /// The headers over the tiles on screen: the top row's group at the top left, and each group
    /// that starts on screen above its first photo, as far as the next header or the screen's edge.
    func headerLines(_ tiles: [PaintTile], _ context: ViewContext) -> [HeaderLine] {
        if let cards {
            // A card's label over it, as wide as the card.
            return tiles.compactMap { tile in
                guard tile.row >= 1, let index = list(context).index(of: tile.photo), cards.labels.indices.contains(index) else { return nil }
                let text = TerminalText.clip(" " + TerminalText.sanitize(cards.labels[index]), to: max(0, tile.width))
                return text.isEmpty ? nil : HeaderLine(row: tile.row - 1, column: tile.column, cells: TerminalText.width(text), text: text)
            }
        }
        guard let groupNames = groupNames(context), layout.sections, let first = tiles.first,
              let firstIndex = list(context).index(of: first.photo), firstIndex < groupNames.count else { return [] }
        var starts: [(row: Int, column: Int, text: String)] = []
        if firstIndex > 0 && groupNames[firstIndex - 1] == groupNames[firstIndex] {
            starts.append((first.row - 1, 0, groupNames[firstIndex]))
        }
        for tile in tiles {
            guard let index = list(context).index(of: tile.photo), index < groupNames.count, tile.row >= 1,
                  index == 0 || groupNames[index - 1] != groupNames[index] else { continue }
            starts.append((tile.row - 1, tile.column, groupNames[index]))
        }
        return starts.enumerated().compactMap { offset, start in
            let next = starts.dropFirst(offset + 1).first { $0.row == start.row }
            let room = (next?.column ?? context.screen.columns) - start.column - 1
            let text = TerminalText.clip(" " + TerminalText.sanitize(start.text), to: max(0, room))
            guard !text.isEmpty else { return nil }
            return HeaderLine(row: start.row, column: start.column, cells: TerminalText.width(text), text: text)
        }
    }
}
