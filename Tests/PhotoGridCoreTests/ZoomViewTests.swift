import Testing
@testable import PhotoGridCore
@testable import PhotoGridModel

@Suite struct ZoomViewTests {
    let area = (width: 1200, height: 780)          // 120x39 cells of 10x20
    let cell = (width: 10, height: 20)

    @Test func fitShowsTheWholePhotoCentred() {
        var state = ZoomState(photo: 0)
        let wide = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (6000, 4000))
        #expect(wide.region == CropRegion(x: 0, y: 0, width: 1, height: 1))
        #expect(wide.width == 1170 && wide.height == 780)
        #expect(wide.column == 1 && wide.row == 0)            // 15 px of margin each side: one cell
        let tall = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (3000, 4000))
        #expect(tall.height == 780 && tall.width == 585)
        #expect(tall.column == (1200 - 585) / 2 / 10)
    }

    @Test func zoomingShowsTheCentreAtEveryLevelUpToSix() {
        var state = ZoomState(photo: 0)
        var previous = 1.0
        for _ in 0..<10 { state.zoomIn() }
        #expect(state.zoom == 6)
        state.level = 0
        for level in 1..<ZoomState.levels.count {
            state.level = level
            let g = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (6000, 4000))
            #expect(g.width == 1200 && g.height == 780)       // the view is filled once zoomed in
            #expect(g.region.width < previous)
            previous = g.region.width
            #expect(abs(g.region.x + g.region.width / 2 - 0.5) < 1e-9)
            // The region keeps the view's shape: its pixels are square.
            let scale = Double(g.width) / (g.region.width * 6000)
            #expect(abs(Double(g.height) / (g.region.height * 4000) - scale) / scale < 0.01)
        }
        #expect(abs(previous - 1200.0 / (1170.0 * 6)) < 1e-9)
    }

    @Test func panningStopsAtTheEdges() {
        var state = ZoomState(photo: 0)
        state.level = 3                                        // 3x
        var g = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (6000, 4000))
        for _ in 0..<50 { state.pan(dx: 1, dy: 0, visible: g.region); g = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (6000, 4000)) }
        #expect(abs(g.region.x + g.region.width - 1) < 1e-9)   // at the right edge, not past it
        for _ in 0..<50 { state.pan(dx: 0, dy: -1, visible: g.region); g = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (6000, 4000)) }
        #expect(g.region.y == 0)
        state.zoomOut(); state.zoomOut(); state.zoomOut()
        g = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (6000, 4000))
        #expect(g.region == CropRegion(x: 0, y: 0, width: 1, height: 1))
        state.level = 2
        state.fit()
        #expect(state == ZoomState(photo: 0))
    }

    @Test func aZoomedInViewOfAPanoramaPansAcrossButNotDown() {
        var state = ZoomState(photo: 0)
        state.level = 1                                        // 1.5x of a 4:1 panorama: still shorter than the view
        let g = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (8000, 2000))
        #expect(g.width == 1200 && g.height == Int(1200.0 / 4 * 1.5))
        #expect(g.region.height == 1 && g.region.y == 0)
    }

    @Test func theTileAskedForNeedsOnlyWhatTheZoomShows() {
        var state = ZoomState(photo: 3)
        let fit = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (6000, 4000))
        let atFit = TileRequest(photo: 3, width: fit.width, height: fit.height, fit: .fit, mode: .sixel(colors: 256), crop: fit.region)
        #expect(atFit.neededSize == 780)                       // the short side as shown
        #expect(atFit.tier == .t1024)
        state.level = 5
        let six = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: (6000, 4000))
        let atSix = TileRequest(photo: 3, width: six.width, height: six.height, fit: .fit, mode: .sixel(colors: 256), crop: six.region)
        #expect(atSix.neededSize == 780 * 6)
        #expect(atSix.tier == .full && atSix.tier.isZoom)
        // Grid tiles: fill needs the long side, fit the short one.
        #expect(TileRequest(photo: 0, width: 390, height: 400, fit: .fill, mode: .halfBlock(.trueColor)).neededSize == 400)
        #expect(TileRequest(photo: 0, width: 390, height: 400, fit: .fit, mode: .halfBlock(.trueColor)).neededSize == 390)
    }
}
