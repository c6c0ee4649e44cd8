import Testing
@testable import GalleryFormats
@testable import PhotoGridCore
@testable import PhotoGridLoading
@testable import PhotoGridModel

/// The opening batch is asked for before the gallery's size is known; the server answers it for
/// its own size. Whatever the size, what it answers must be the first screen the grid then
/// shows: the columns `GridLayout.startColumns` starts at, every tile on it, each at its size.
@Suite struct OpeningChoiceTests {
    @Test(arguments: [(120, 40, RenderMode.sixel(colors: 256)), (240, 67, RenderMode.sixel(colors: 256)),
                      (80, 24, RenderMode.halfBlock(.trueColor)), (160, 48, RenderMode.halfBlock(.trueColor))])
    func theOpeningIsTheFirstScreenOfAGalleryOfAnySize(columns: Int, rows: Int, mode: RenderMode) {
        let screen = ScreenMetrics(columns: columns, rows: rows, cellWidth: 10, cellHeight: 20)
        let opening = OpeningBatch.opening(for: FirstScreen(screen: screen, mode: mode, columns: nil, fit: .fill))
        var starts: Set<Int> = []
        for photos in 1...400 {
            let start = GridLayout.startColumns(photos: photos, screen: screen)
            starts.insert(start)
            let layout = GridLayout(screen: screen, columns: start)
            let tiles = layout.visibleIndexes(topRow: 0, photos: photos)
            let needed = tiles.compactMap { index in
                layout.placement(of: index, topRow: 0).map {
                    GridSession.request(PhotoID(raw: UInt32(index)), frame: $0.frame, visibleRows: $0.visibleRows, screen: screen, mode: mode, fit: .fill).neededSize
                }
            }
            let asked = opening.screen(forPhotos: photos)
            #expect(min(asked.count, photos) == tiles.count, "\(photos) photos at \(start) columns")
            #expect(asked.covering == needed.max(), "\(photos) photos at \(start) columns")
        }
        // Galleries that start at other column counts than 4 were among them.
        #expect(starts.count >= 3, "\(starts)")
    }

    /// With --columns the grid starts there whatever the gallery's size: one screen, no choices.
    @Test func givenColumnsAskForOneScreen() {
        let screen = ScreenMetrics(columns: 120, rows: 40, cellWidth: 10, cellHeight: 20)
        let opening = OpeningBatch.opening(for: FirstScreen(screen: screen, mode: .sixel(colors: 256), columns: 5, fit: .fill))
        #expect(opening.bySize.isEmpty)
        #expect(Batch.Opening(body: opening.body) == opening)
    }
}
