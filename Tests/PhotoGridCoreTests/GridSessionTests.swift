import Testing
@testable import PhotoGridCore
@testable import PhotoGridModel
@testable import PhotoGridSystem

@Suite struct GridSessionTests {
    /// Every folder size from 1 to 20 at every column count, focus and direction: what the grid
    /// asks for names only photos that exist, visible ones first, and nothing traps.
    @Test(arguments: [RenderMode.halfBlock(.trueColor), .sixel(colors: 256)])
    func wantedStaysWithinTheFolder(mode: RenderMode) {
        let screen = ScreenMetrics(columns: 140, rows: 42)
        for count in 1...20 {
            let photos = (0..<count).map { Photo(path: RawPath("/none/\($0).jpg"), relativePath: RawPath("\($0).jpg")) }
            let session = GridSession(photos: photos, mode: mode, fit: .fill, cacheBytes: 1 << 20) {}
            defer { session.pipeline.stop() }
            for columns in 1...6 {
                let layout = GridLayout(screen: screen, columns: columns)
                for focus in 0..<count {
                    var position = GridPosition()
                    position.focus(focus, photos: count, layout: layout)
                    for direction in [1, -1] {
                        let wanted = session.wanted(layout: layout, position: position, direction: direction)
                        #expect(wanted.allSatisfy { session.photos.contains($0.request.photo) })
                        #expect(wanted.first?.priority == .visible)
                        let visible = Set(layout.visibleIndexes(topRow: position.topRow, photos: count).map(session.id(at:)))
                        #expect(Set(wanted.filter { $0.priority == .visible }.map(\.request.photo)) == visible)
                    }
                }
            }
        }
    }
}
