/// Cell and pixel sizes of a terminal.
package struct ScreenMetrics: Hashable, Sendable {
    package var columns: Int
    package var rows: Int
    package var cellWidth: Int
    package var cellHeight: Int
    /// The largest sixel picture the terminal draws, 0 where it did not say.
    package var maxImageWidth = 0, maxImageHeight = 0
    /// On a slow link (`LinkMeter`): the share of their size at which pictures are sent where
    /// the terminal scales them to their cells, and the pictures' bytes a frame may write.
    package var pictureScale = 1.0
    package var frameBudget: Int?
    /// The link is slow: no previews, fewer sixel colours, tiles drawn before kept.
    package var slowLink = false

    package init(columns: Int, rows: Int, cellWidth: Int = 10, cellHeight: Int = 20) {
        self.columns = columns
        self.rows = rows
        self.cellWidth = max(1, cellWidth)
        self.cellHeight = max(1, cellHeight)
    }

    package var sixelCut: SixelCut {
        SixelCut(cellWidth: cellWidth, cellHeight: cellHeight, maxWidth: maxImageWidth, maxHeight: maxImageHeight)
    }
}

/// A tile's place on screen, in cells, relative to the grid's first row.
package struct TileFrame: Hashable, Sendable {
    package var column: Int
    package var width: Int
    package var height: Int

    package init(column: Int, width: Int, height: Int) {
        self.column = column; self.width = width; self.height = height
    }
}
