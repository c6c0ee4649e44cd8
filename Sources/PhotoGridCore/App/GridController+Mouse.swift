/// The mouse, where the terminal reports it: in the grid a click focuses a photo, a double click
/// opens it, the wheel scrolls by rows; in the photo view the wheel steps between photos and a
/// double click goes back to the grid. Reports for cells outside the tiles (the gaps, the status
/// line, a panel) do nothing.
extension GridController {
    func handleMouse(_ action: MouseAction, column: Int, row: Int) {
        if zoom != nil {
            switch action {
            case .wheelUp: _ = handleZoom(.character("p"))
            case .wheelDown: _ = handleZoom(.character("n"))
            case .doubleClick: closeZoom()
            case .click: break
            }
            return
        }
        switch action {
        case .wheelUp: scrollRows(-1)
        case .wheelDown: scrollRows(1)
        case .click, .doubleClick:
            guard !isUnderPanel(column: column, row: row),
                  let tile = contents().tiles.first(where: {
                      (($0.column)..<($0.column + $0.width)).contains(column) && (($0.row)..<($0.row + $0.rows)).contains(row)
                  }) else { return }
            move(to: tile.index)
            if action == .doubleClick { openZoom(tile.index) }
        }
    }

    /// Whether a cell lies under the help or the details panel.
    func isUnderPanel(column: Int, row: Int) -> Bool {
        guard let panel = overlayPanel() else { return false }
        let width = DetailsPanel.width(forScreenColumns: screen.columns)
        let rows = panel.lines(width: width, maxRows: layout.areaRows, colors: session.halfBlockColors).count
        return column >= screen.columns - width && row < rows
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
}
