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

        package init(upTo: Int, count: Int, covering: Int) {
            self.upTo = upTo
            self.count = count
            self.covering = covering
        }
    }

    package init(count: Int, covering: Int) {
        self.count = count
        self.covering = covering
    }
}
