/// Sections in the grid (`--group`, `S`): each group starts a row of tiles, with a header line
/// in the gap row above it; the row above the tiles names the group the screen starts in, as the
/// photo apps keep the current section's header at the top.
extension GridController {
    /// `S`: no sections, by folder, by day, by month.
    func cycleGrouping() { setGrouping(grouping.next) }

    /// Days and months go by when the photos were taken: their dates are read (in the
    /// background, as for the date order) and the sections made again when they are known.
    package func setGrouping(_ next: Grouping) {
        grouping = next
        refreshGroups()
        if next == .day || next == .month { startReadingDates() }
        notice = next == .none ? "no sections" : "sections by \(next.rawValue)"
        repaint()
    }

    /// Each photo's group again, after the photos or the known dates changed, and the layout
    /// with each group starting a row; the focused photo stays where it was on screen.
    func refreshGroups() {
        groupNames = grouping.names(session.photos, dates: knownDates, title: title)
        groupStarts = groupNames.map { names in names.indices.filter { $0 == 0 || names[$0 - 1] != names[$0] } } ?? []
        let old = layout
        layout = makeLayout()
        position = position.anchored(from: old, to: layout, photos: session.photos.count)
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
