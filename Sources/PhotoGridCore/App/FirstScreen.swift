import PhotoGridModel
import PhotoGridSystem

/// What the grid's first screen will ask of a gallery, known from the terminal before the
/// gallery's photos are: how many tiles, and the short side their pictures need. A remote
/// gallery asks its server for those pictures beside its list of photos (the opening batch,
/// docs/remote-gallery.md), so that a first visit waits for one round trip, not two.
package struct FirstScreen: Sendable, Equatable {
    /// Tiles with any cell on the first screen.
    package var count: Int
    /// The most any of them needs (`TileRequest.neededSize`), in pixels.
    package var covering: Int
    /// The first screen of a gallery of at most `upTo` photos, where that differs: the first
    /// whose `upTo` the gallery is within (smallest first) is its screen.
    package var bySize: [Choice] = []

    /// The first screen of a gallery of at most `upTo` photos.
    package struct Choice: Sendable, Equatable {
        package var upTo: Int
        package var count: Int
        package var covering: Int
    }

    package init(count: Int, covering: Int) {
        self.count = count
        self.covering = covering
    }

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
