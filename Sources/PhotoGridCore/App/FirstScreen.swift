import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The first screen from the terminal's size: what the grid's layout will show.
extension FirstScreen {
    /// Without `columns` (no --columns), the grid starts at the fewest columns at which the
    /// whole gallery fits on one screen, else at 4 (`GridLayout.startColumns`): the screen at 4,
    /// and for each column count a gallery could start at, the screen of a gallery that fits.
    package init(screen: ScreenMetrics, mode: RenderMode, columns: Int?, fit: FitMode) {
        let first = FirstScreen.screen(GridLayout(screen: screen, columns: columns ?? 4), mode: mode, fit: fit)
        self.init(count: first.count, covering: first.covering)
        guard columns == nil else { return }
        for columns in GridLayout.columnRange {
            let layout = GridLayout(screen: screen, columns: columns)
            // What `startColumns` asks: the gallery's rows all on the first screen.
            let fits = layout.columns * layout.fullyVisibleRows
            guard fits > 0 else { continue }
            let shown = FirstScreen.screen(layout, mode: mode, fit: fit, photos: fits)
            bySize.append(Choice(upTo: fits, count: shown.count, covering: shown.covering))
        }
    }

    /// The tiles with a cell on the first screen of `layout` (of a gallery larger than a screen
    /// unless `photos` says), and the most pixels any of them needs.
    private static func screen(_ layout: GridLayout, mode: RenderMode, fit: FitMode, photos: Int? = nil) -> (count: Int, covering: Int) {
        let tiles = layout.visibleIndexes(topRow: 0, photos: photos ?? layout.columns * (layout.fullyVisibleRows + 2))
        var covering = 1
        for index in tiles {
            guard let place = layout.placement(of: index, topRow: 0) else { continue }
            // Only the tile's size matters here: any photo will do.
            let request = GridSession.request(PhotoID(raw: UInt32(index)), frame: place.frame, visibleRows: place.visibleRows, screen: layout.screen,
                                              mode: mode, fit: fit)
            covering = max(covering, request.neededSize)
        }
        return (max(1, tiles.count), covering)
    }
}
