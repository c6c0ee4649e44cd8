import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridCore
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The real encoder, counting what it is asked to make.
final class CountingEncoder: TileEncoding {
    let counts = Locked<[TileRequest: Int]>([:])
    func encode(_ source: RGBImage, for request: TileRequest) -> EncodedTile {
        counts.withLock { $0[request, default: 0] += 1 }
        return TileEncoder().encode(source, for: request)
    }
}

/// A budget much smaller than the screen and its prefetches together: each tile on screen is
/// made at most once per visit, and the pipeline goes quiet once the screen is complete, instead
/// of evicting what it made to make the next prefetch and making it again without end.
@Suite struct BudgetTests {
    func browse(mode: RenderMode, columns: Int, budget: Int) throws {
        // 2,000 photos: the sample gallery's, over and over, so that paging never runs out.
        let gallery = try FolderScanner().scan(RawPath(Paths.gallery))
        let photos = (0..<2000).map { gallery[$0 % gallery.count] }
        let encoder = CountingEncoder()
        let waiter = Waiter()
        let session = GridSession(photos: photos, mode: mode, fit: .fill, cacheBytes: budget, encoder: encoder) { waiter.signal() }
        defer { session.pipeline.stop() }
        let grid = GridController(title: "budget", session: session, screen: ScreenMetrics(columns: 120, rows: 40),
                                  columns: columns, modeName: "\(mode)")
        for visit in 0..<6 {
            if visit > 0 { grid.handle(.pageDown) }
            let before = encoder.counts.withLock { $0 }
            let complete = waiter.wait(seconds: 30) { _ = grid.frame(); return grid.contents().loading == 0 }
            #expect(complete, "visit \(visit): the screen never completed")
            // Within a second of the screen being complete the pipeline has nothing left to do,
            // and frames asking for the same screen again start nothing.
            _ = grid.frame()
            #expect(session.pipeline.waitUntilIdle(milliseconds: 1000), "visit \(visit): still working a second after the screen was complete")
            let work = session.pipeline.workDone
            for _ in 0..<25 { _ = grid.frame() }
            #expect(session.pipeline.waitUntilIdle(milliseconds: 5000) && session.pipeline.workDone == work,
                    "visit \(visit): work went on with nothing new wanted")
            let after = encoder.counts.withLock { $0 }
            let onScreen = grid.contents().tiles.compactMap { tile -> TileRequest? in
                if case .image(let request, _) = tile.content { return request } else { return nil }
            }
            #expect(onScreen.count == grid.contents().tiles.count)
            for request in onScreen {
                let made = (after[request] ?? 0) - (before[request] ?? 0)
                #expect(made <= 1, "visit \(visit): photo \(request.photo) was encoded \(made) times")
            }
            #expect(session.cache.peakBytes <= budget)
        }
    }

    @Test func sixelUnderATinyBudget() throws { try browse(mode: .sixel(colors: 256), columns: 6, budget: 2 << 20) }
    @Test func halfBlocksUnderATinyBudget() throws { try browse(mode: .halfBlock(.trueColor), columns: 4, budget: 1 << 20) }
}
