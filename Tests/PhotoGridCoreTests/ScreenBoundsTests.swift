import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridCore
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// What photogrid writes, played on a model of the screen (`ScreenModel`): at every size down
/// to one cell, in every view, nothing lands outside the screen or on the status line, and a
/// view that loses its picture leaves none of it behind.
@Suite struct ScreenBoundsTests {
    /// Told whenever a tile is ready.
    let waiter = Waiter()

    /// Every size, or in the fast run the extremes and the usual one.
    static let sizes = FastRun.cases([(1, 1), (1, 2), (2, 1), (1, 30), (30, 1), (2, 2), (3, 5), (7, 3), (12, 4), (20, 6),
                                      (41, 13), (80, 24), (3, 60), (150, 5), (200, 60)],
                                     fast: [(1, 1), (2, 1), (1, 30), (3, 5), (80, 24)])

    func controller(mode: RenderMode) throws -> GridController {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let session = GridSession(photos: photos, mode: mode, fit: .fill, cacheBytes: 256 << 20) { [waiter] in waiter.signal() }
        return GridController(title: "sample-gallery", session: session,
                              screen: ScreenMetrics(columns: 80, rows: 24, cellWidth: 10, cellHeight: 20),
                              columns: 4, modeName: "test")
    }

    /// A frame each time a tile is ready, until nothing on screen is loading (or 5 s), played on `screen`.
    func settle(_ grid: GridController, on screen: inout ScreenModel) {
        var model = screen
        _ = waiter.wait(seconds: 5) {
            let frame = grid.frame()
            if frame.clear { model = ScreenModel(columns: model.columns, rows: model.rows) }
            model.feed(frame.bytes)
            return frame.tilesLoading == 0
        }
        screen = model
    }

    @Test(arguments: [RenderMode.halfBlock(.trueColor), .sixel(colors: 256)])
    func nothingIsDrawnOutsideTheScreenAtAnySize(mode: RenderMode) throws {
        let grid = try controller(mode: mode)
        defer { grid.session.pipeline.stop() }
        var problems: [String] = []
        for (columns, rows) in Self.sizes {
            grid.resize(to: ScreenMetrics(columns: columns, rows: rows, cellWidth: 10, cellHeight: 20))
            var screen = ScreenModel(columns: columns, rows: rows)
            let keys: [[Key]] = [[], [.character("1")], [.character("6")], [.character("3"), .character("G")],
                                 [.character("i")], [.enter], [.character("+"), .character("+"), .right, .down],
                                 [.character("i")], [.escape, .character("g"), .character("a")], [.character("a")]]
            for step in keys {
                for key in step { grid.handle(key) }
                settle(grid, on: &screen)
                let statusRow = screen.line(rows - 1).filter { $0 != " " }
                if !screen.outOfBounds.isEmpty || (rows > 1 && !statusRow.isEmpty) {
                    problems.append("\(columns)x\(rows) after \(step): \(screen.outOfBounds.prefix(3)) status row: \(statusRow.prefix(20))")
                }
            }
        }
        #expect(problems.isEmpty, "\(problems.prefix(8))")
    }

    /// The zoom view shows a picture, then its photo fails (deleted, say): the message stands
    /// alone on a cleared view, with nothing of the picture around it.
    @Test(arguments: [RenderMode.halfBlock(.trueColor), .sixel(colors: 256)])
    func aMessageReplacesThePictureWhole(mode: RenderMode) throws {
        var painter = ViewPainter(canvas: mode.format.makeCanvas())
        let image = RGBImage(width: 60, height: 40, pixels: Array(repeating: 200, count: 60 * 40 * 3))
        let request = TileRequest(photo: 0, width: 60, height: 40, fit: .fit, mode: mode)
        let tile = TileEncoder().encode(image, for: request)
        var screen = ScreenModel(columns: 10, rows: 6, cellWidth: 10, cellHeight: 20)
        let (columns, rows) = mode == .sixel(colors: 256) ? (6, 2) : (10, 5)
        screen.feed(painter.paint(.image(request, tile), column: 0, row: 0, columns: columns, rows: rows,
                                  areaColumns: 10, areaRows: 5, message: "loading"))
        #expect(screen.cells.joined().contains { $0 != .blank })
        screen.feed(painter.paint(.failed("unreadable"), column: 0, row: 0, columns: columns, rows: rows,
                                  areaColumns: 10, areaRows: 5, message: "loading"))
        #expect(screen.imageCells == 0)
        let lines = (0..<5).map { String(screen.line($0).split(separator: " ").joined(separator: " ")) }
        #expect(lines.filter { !$0.isEmpty } == ["unreadable"], "\(lines)")
    }
}
