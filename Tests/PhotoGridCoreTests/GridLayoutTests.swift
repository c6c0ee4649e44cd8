import Testing
@testable import PhotoGridCore
@testable import PhotoGridModel

@Suite struct GridLayoutTests {
    static let screens = [
        ScreenMetrics(columns: 80, rows: 24, cellWidth: 10, cellHeight: 20),
        ScreenMetrics(columns: 120, rows: 40, cellWidth: 10, cellHeight: 20),
        ScreenMetrics(columns: 240, rows: 67, cellWidth: 10, cellHeight: 20),
        ScreenMetrics(columns: 200, rows: 50, cellWidth: 9, cellHeight: 18),
        ScreenMetrics(columns: 100, rows: 30, cellWidth: 8, cellHeight: 17),
        ScreenMetrics(columns: 60, rows: 60, cellWidth: 7, cellHeight: 14),
    ]

    @Test(arguments: screens, Array(GridLayout.columnRange))
    func tilesAreSquareWithOneCellGaps(screen: ScreenMetrics, columns: Int) {
        let layout = GridLayout(screen: screen, columns: columns)
        #expect(layout.frames.count == columns)
        #expect(layout.tileRows <= layout.viewportRows)
        for (a, b) in zip(layout.frames, layout.frames.dropFirst()) {
            #expect(b.column >= a.column + a.width + GridLayout.gap)
        }
        let widths = layout.frames.map(\.width)
        #expect(widths.max()! - widths.min()! <= 1)
        let last = layout.frames.last!
        #expect(last.column + last.width <= screen.columns)
        for frame in layout.frames {
            let (w, h) = layout.pixelSize(of: frame)
            // Square to within half a cell in height (rows are whole cells) and one cell in width.
            #expect(abs(w - h) <= screen.cellHeight / 2 + screen.cellWidth, "\(w)x\(h)")
        }
        let slot = (screen.columns - (columns - 1)) / columns
        let clamped = Int((Double(slot * screen.cellWidth) / Double(screen.cellHeight)).rounded()) > layout.viewportRows
        if !clamped {
            // Filling the width: gaps of exactly one cell, no margin.
            #expect(layout.frames.first!.column == 0)
            #expect(last.column + last.width == screen.columns)
            for (a, b) in zip(layout.frames, layout.frames.dropFirst()) { #expect(b.column == a.column + a.width + 1) }
        }
    }

    @Test func knownGeometryAt240x67() {
        let layout = GridLayout(screen: ScreenMetrics(columns: 240, rows: 67), columns: 6)
        // (240 - 5) / 6 = 39 cells wide, 390 px; 390 / 20 = 19.5 rows, rounded to 20.
        #expect(layout.frames.map(\.width) == [40, 39, 39, 39, 39, 39])
        #expect(layout.tileRows == 20)
        #expect(layout.viewportRows == 66)
        #expect(layout.fullyVisibleRows == 3)
        #expect(layout.visibleIndexes(topRow: 0, photos: 100) == 0..<24)   // three whole rows and a cut fourth
        let cut = layout.placement(of: 18, topRow: 0)!
        #expect(cut.row == 63 && cut.visibleRows == 3)
    }

    @Test(arguments: screens, Array(GridLayout.columnRange))
    func visibleIndexesAreExactlyThoseWithACellOnScreen(screen: ScreenMetrics, columns: Int) {
        let layout = GridLayout(screen: screen, columns: columns)
        for top in [0, 1, 5] {
            let visible = layout.visibleIndexes(topRow: top, photos: 1000)
            for index in 0..<min(1000, (top + 20) * columns) {
                #expect(visible.contains(index) == (layout.placement(of: index, topRow: top) != nil), "index \(index)")
            }
        }
    }

    @Test func oneColumnOnAWideTerminalIsASquareAsTallAsTheGrid() {
        let screen = ScreenMetrics(columns: 120, rows: 40)
        let layout = GridLayout(screen: screen, columns: 1)
        #expect(layout.tileRows == 39)
        let frame = layout.frames[0]
        #expect(frame.width == 78)                       // 39 rows x 20 px = 780 px = 78 cells of 10
        #expect(frame.column == (120 - 78) / 2)          // centred
    }

    @Test func startColumnsIsTheFewestThatShowEveryPhoto() {
        let screen = ScreenMetrics(columns: 240, rows: 67)
        #expect(GridLayout.startColumns(photos: 1, screen: screen) == 1)
        #expect(GridLayout.startColumns(photos: 2, screen: screen) == 2)
        // At 6 columns three whole rows fit: 18 photos fit, 19 do not.
        #expect(GridLayout.startColumns(photos: 18, screen: screen) == 6)
        #expect(GridLayout.startColumns(photos: 19, screen: screen) == 4)
        #expect(GridLayout.startColumns(photos: 500, screen: screen) == 4)
        for n in 1...18 {
            let columns = GridLayout.startColumns(photos: n, screen: screen)
            let layout = GridLayout(screen: screen, columns: columns)
            #expect(layout.rowCount(photos: n) <= layout.fullyVisibleRows)
            if columns > 1 {
                let fewer = GridLayout(screen: screen, columns: columns - 1)
                #expect(fewer.rowCount(photos: n) > fewer.fullyVisibleRows)
            }
        }
    }

    @Test func tinyTerminalsStillGiveALayout() {
        for (c, r) in [(1, 1), (1, 2), (3, 2), (10, 3), (2, 50)] {
            let layout = GridLayout(screen: ScreenMetrics(columns: c, rows: r), columns: 6)
            #expect(layout.viewportRows >= 1 && layout.tileRows >= 1)
            #expect(layout.frames.allSatisfy { $0.width >= 1 })
            // Too narrow for six columns: as many as fit, every tile inside the screen.
            #expect(layout.columns == GridLayout.maxColumns(for: ScreenMetrics(columns: c, rows: r)))
            #expect(layout.frames.allSatisfy { $0.column + $0.width <= c }, "\(c)x\(r): \(layout.frames)")
        }
    }
}

@Suite struct GridPositionTests {
    let screen = ScreenMetrics(columns: 120, rows: 40)

    @Test func focusMovesScrollJustEnough() {
        let layout = GridLayout(screen: screen, columns: 4)    // 15-row tiles, 2 whole rows on screen
        var position = GridPosition()
        position.focus(9, photos: 100, layout: layout)          // row 2
        #expect(position.topRow == 1)
        position.focus(4, photos: 100, layout: layout)          // row 1: already on screen
        #expect(position.topRow == 1)
        position.focus(0, photos: 100, layout: layout)
        #expect(position.topRow == 0)
        position.focus(1000, photos: 100, layout: layout)
        #expect(position.focus == 99 && position.topRow == layout.maxTopRow(photos: 100))
    }

    @Test func pagingMovesFocusAndPageTogether() {
        let layout = GridLayout(screen: screen, columns: 4)
        var position = GridPosition(focus: 1, topRow: 0)
        position.page(by: 1, photos: 100, layout: layout)
        #expect(position.focus == 1 + layout.fullyVisibleRows * 4)
        #expect(position.topRow == layout.fullyVisibleRows)
        position.page(by: -5, photos: 100, layout: layout)
        #expect(position.focus == 1 && position.topRow == 0)
    }

    @Test(arguments: 1...6, 1...6)
    func columnChangesKeepTheFocusOnScreen(from: Int, to: Int) {
        let photos = 200
        let old = GridLayout(screen: screen, columns: from)
        for focus in [0, 7, 57, 120, 199] {
            for topShift in 0..<old.fullyVisibleRows {
                var position = GridPosition()
                position.focus(focus, photos: photos, layout: old)
                position.topRow = max(0, min(old.maxTopRow(photos: photos), focus / from - topShift))
                guard focus / from - position.topRow < old.fullyVisibleRows, focus / from >= position.topRow else { continue }
                let new = GridLayout(screen: screen, columns: to)
                let anchored = position.anchored(from: old, to: new, photos: photos)
                let row = focus / to
                #expect(anchored.focus == focus)
                #expect(row >= anchored.topRow && row < anchored.topRow + new.fullyVisibleRows)
            }
        }
    }

    @Test func anchoringKeepsTheScreenRowWherePossible() {
        let photos = 300
        let four = GridLayout(screen: ScreenMetrics(columns: 240, rows: 67), columns: 4)
        let six = GridLayout(screen: ScreenMetrics(columns: 240, rows: 67), columns: 6)
        // Focus on the second tile row on screen at 6 columns, far from either end.
        var position = GridPosition(focus: 6 * 21 + 2, topRow: 20)
        let y6 = (position.focus / 6 - position.topRow) * six.rowPitch
        position = position.anchored(from: six, to: four, photos: photos)
        let y4 = (position.focus / 4 - position.topRow) * four.rowPitch
        #expect(abs(y4 - y6) <= four.rowPitch / 2)
        // And back: the same screen row again.
        let back = position.anchored(from: four, to: six, photos: photos)
        #expect((back.focus / 6 - back.topRow) * six.rowPitch == y6)
    }
}

/// Sections: each group starts a row; rows and columns by group, found by binary search.
@Suite struct GroupedLayoutTests {
    // Groups of 3, 7 and 2 photos at 4 columns: rows [0 1 2], [3 4 5 6] [7 8 9], [10 11].
    let layout = GridLayout(screen: ScreenMetrics(columns: 80, rows: 40), columns: 4, sections: true, groupStarts: [0, 3, 10], photos: 12)

    @Test func eachGroupStartsARow() {
        #expect(layout.rowCount(photos: 12) == 4)
        #expect((0..<12).map(layout.row(of:)) == [0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 3, 3])
        #expect((0..<12).map(layout.column(of:)) == [0, 1, 2, 0, 1, 2, 3, 0, 1, 2, 0, 1])
        #expect((0..<5).map { layout.firstIndex(inRow: $0, photos: 12) } == [0, 3, 7, 10, 12])
        #expect(layout.indexes(inRow: 1, photos: 12) == 3..<7 && layout.indexes(inRow: 2, photos: 12) == 7..<10)
        // Up or down into a shorter row: its last photo.
        #expect(layout.index(row: 0, column: 3, photos: 12) == 2 && layout.index(row: 3, column: 2, photos: 12) == 11)
        #expect(layout.placement(of: 10, topRow: 1)?.row == layout.top + 2 * layout.rowPitch)
        #expect(layout.placement(of: 10, topRow: 1)?.frame.column == layout.frames[0].column)
    }

    @Test func withoutSectionsTheGroupsAreIgnored() {
        let plain = GridLayout(screen: ScreenMetrics(columns: 80, rows: 40), columns: 4, sections: false, groupStarts: [0, 3, 10], photos: 12)
        #expect(plain.top == 0 && plain.rowCount(photos: 12) == 3 && plain.row(of: 10) == 2 && plain.column(of: 10) == 2)
    }
}
