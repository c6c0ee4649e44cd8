import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Where the user is in the grid: the focused photo and the first tile row on screen.
/// Every move keeps the focused tile whole on screen.
package struct GridPosition: Hashable, Sendable {
    package var focus: Int
    package var topRow: Int

    package init(focus: Int = 0, topRow: Int = 0) {
        self.focus = focus
        self.topRow = topRow
    }

    /// Focus `index` (clamped), scrolling as little as needed to show it whole.
    package mutating func focus(_ index: Int, photos: Int, layout: GridLayout) {
        guard photos > 0 else { focus = 0; topRow = 0; return }
        focus = max(0, min(photos - 1, index))
        let row = layout.row(of: focus)
        if row < topRow { topRow = row }
        if row >= topRow + layout.fullyVisibleRows { topRow = row - layout.fullyVisibleRows + 1 }
        topRow = max(0, min(topRow, layout.maxTopRow(photos: photos)))
    }

    /// Moves the focus by whole screens and scrolls the page with it, as less does.
    package mutating func page(by screens: Int, photos: Int, layout: GridLayout) {
        guard photos > 0 else { return }
        let rows = screens * layout.fullyVisibleRows
        // Past either end the focus stops in the first or last row, in the same column.
        let row = max(0, min(layout.rowCount(photos: photos) - 1, layout.row(of: focus) + rows))
        topRow = max(0, min(layout.maxTopRow(photos: photos), topRow + rows))
        focus(layout.index(row: row, column: layout.column(of: focus), photos: photos), photos: photos, layout: layout)
    }

    /// The position after changing from `old` to `new` layout: the focused photo stays on screen,
    /// as near to the screen row it was on as the new grid allows.
    package func anchored(from old: GridLayout, to new: GridLayout, photos: Int) -> GridPosition {
        guard photos > 0 else { return GridPosition() }
        let screenRow = (old.row(of: focus) - topRow) * old.rowPitch
        let newRow = new.row(of: focus)
        var top = newRow - Int((Double(screenRow) / Double(new.rowPitch)).rounded())
        top = max(newRow - new.fullyVisibleRows + 1, min(newRow, top))
        top = max(0, min(new.maxTopRow(photos: photos), top))
        return GridPosition(focus: focus, topRow: top)
    }
}
