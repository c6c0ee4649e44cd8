/// What the grid's first screen will ask of a gallery, known from the terminal before the
/// gallery's photos are: how many tiles, and the short side their pictures need. A remote
/// gallery asks its server for those pictures beside its list of photos (the opening batch,
/// docs/remote-gallery.md), so that a first visit waits for one round trip, not two.
package struct FirstScreen: Sendable, Equatable {
    /// Tiles with any cell on the first screen.
    package var count: Int
    /// The most any of them needs (`TileRequest.neededSize`), in pixels.
    package var covering: Int

    package init(count: Int, covering: Int) {
        self.count = count
        self.covering = covering
    }

    /// Without `columns` (no --columns), the grid of a gallery larger than a screen starts at 4
    /// (`GridLayout.startColumns`): what a gallery worth asking ahead for mostly is.
    package init(screen: ScreenMetrics, mode: RenderMode, columns: Int?, fit: FitMode) {
        let layout = GridLayout(screen: screen, columns: columns ?? 4)
        let tiles = layout.visibleIndexes(topRow: 0, photos: layout.columns * (layout.fullyVisibleRows + 2))
        var covering = 1
        for index in tiles {
            guard let place = layout.placement(of: index, topRow: 0) else { continue }
            let request = GridSession.request(index, frame: place.frame, visibleRows: place.visibleRows, screen: screen,
                                              mode: mode, fit: fit)
            covering = max(covering, request.neededSize)
        }
        self.init(count: max(1, tiles.count), covering: covering)
    }
}
