import Glibc
import Testing
@testable import PhotoGridCore
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// photogrid in a real kitty (on Xvfb), compared with the photos themselves: the pictures must be
/// the photos at the screen's resolution, not mosaics, through the grid, paging, +/- and the zoom
/// view.
@Suite(.serialized) struct KittyWindowTests {
    static let columns = 100, rows = 30

    /// Mean absolute difference per channel, and the detail (mean difference between neighbours
    /// across a row) of `a` over that of `b`: a half-block mosaic of a photo has a fraction of
    /// the photo's detail, the photo itself about as much.
    static func compare(_ a: RGBImage, _ b: RGBImage) -> (error: Double, detail: Double) {
        func detail(_ image: RGBImage) -> Double {
            var sum = 0, count = 0
            for y in 0..<image.height {
                for x in 1..<image.width {
                    let (p, q) = (image[x, y], image[x - 1, y])
                    sum += abs(Int(p.r) - Int(q.r)) + abs(Int(p.g) - Int(q.g)) + abs(Int(p.b) - Int(q.b))
                    count += 3
                }
            }
            return Double(sum) / Double(max(1, count))
        }
        return (TestImages.meanAbsoluteError(a, b), detail(a) / max(0.001, detail(b)))
    }

    /// The top-left tile's pixels on screen and the same photo made into that tile here.
    func firstTile(_ shot: RGBImage, photo: Photo) throws -> (screen: RGBImage, expected: RGBImage) {
        let cell = (width: shot.width / Self.columns, height: shot.height / Self.rows)
        let layout = GridLayout(screen: ScreenMetrics(columns: Self.columns, rows: Self.rows, cellWidth: cell.width, cellHeight: cell.height),
                                columns: 4)
        let place = try #require(layout.placement(of: 0, topRow: 0))
        let (x, width, height) = (place.frame.column * cell.width, place.frame.width * cell.width, place.frame.height * cell.height)
        let upright = try PhotoDecoder.decodeUpright(photo, atLeast: (width, height), fit: .fill)
        // Inside its edge cells: the focus frame's sides lie over them at the screen's edges.
        let expected = PhotoDecoder.shape(upright, width: width, height: height, fit: .fill)
            .region(x: cell.width, y: cell.height, width: width - 2 * cell.width, height: height - 2 * cell.height)
        return (shot.region(x: x + cell.width, y: cell.height, width: width - 2 * cell.width, height: height - 2 * cell.height), expected)
    }

    /// photogrid started afresh in kitty, `keys` typed one by one, each once the screen has
    /// changed after the one before and been still for a second; then one screenshot once the
    /// screen has been still for a second (two screenshots alike), or, with `until`, once that
    /// holds of it (for at most a minute: under load kitty on software OpenGL was seen to leave
    /// its window unchanged for over a second mid-redraw). A kitty of its own each time:
    /// screenshots taken over and over while kitty redrew were seen to keep a stale picture of
    /// the window.
    func screen(after keys: [String], photos: [Photo], until: ((RGBImage) throws -> Bool)? = nil) throws -> RGBImage {
        let home = TestImages.scratchFolder("kitty-window")
        defer { _ = try? Subprocess.run(["rm", "-rf", home]) }
        let window = try KittyWindow([Paths.binary, "--columns", "4", Paths.gallery], columns: Self.columns, rows: Self.rows,
                                     extraEnvironment: ["XDG_CACHE_HOME": home])
        // The first screen complete (the debug build decodes slowly): the first tile is the photo.
        var shot = try window.screenshot(within: 60, every: 1) { try self.firstTileIsThePhoto($0, photos) }
        for key in keys {
            try window.key(key)
            // The screen answers the key (kitty tells nothing of what it has drawn: looked at),
            // then settles before the next.
            let before = shot
            _ = try window.screenshot(within: 30) { $0 != before }
            shot = try window.stillScreenshot()
        }
        let last = try until.map { try window.screenshot(within: 60, every: 1, until: $0) } ?? window.stillScreenshot()
        try window.key("q")
        return last
    }

    func firstTileIsThePhoto(_ shot: RGBImage, _ photos: [Photo]) throws -> Bool {
        let (screen, expected) = try firstTile(shot, photo: photos[0])
        let (error, detail) = Self.compare(screen, expected)
        return error < 12 && detail > 0.6 && detail < 1.6
    }

    func describe(_ shot: RGBImage, _ photos: [Photo]) throws -> String {
        let (screen, expected) = try firstTile(shot, photo: photos[0])
        let (error, detail) = Self.compare(screen, expected)
        return "error \(error), detail ratio \(detail)"
    }

    @Test(.enabled(if: KittyWindow.isAvailable, "needs Xvfb, kitty, xdotool and xwd: scripts/setup --test"))
    func theGridShowsThePhotosThemselvesAfterPagingDownAndColumns() throws {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        // Paging back and +/- show again tiles hidden meanwhile: kitty up to 0.26 freed them all
        // whenever photogrid freed one picture (a preview), and they came back black.
        for (keys, moved) in [([String](), false), (["Next"], true), (["Next", "Prior"], false), (["minus", "plus"], false)] {
            // Where the first photo is expected back, it is waited for; a screen moved away is
            // taken once still (any other picture there would pass, so waiting proves nothing).
            let shot = try screen(after: keys, photos: photos, until: moved ? nil : { try self.firstTileIsThePhoto($0, photos) })
            let isPhoto = try firstTileIsThePhoto(shot, photos), figures = try describe(shot, photos)
            #expect(isPhoto != moved, "after \(keys): \(figures)")
        }
    }

    /// The zoom view: the photo fitted to the view, found as the bounding box of what is not
    /// black above the status line, and compared at 64x64.
    @Test(.enabled(if: KittyWindow.isAvailable, "needs Xvfb, kitty, xdotool and xwd: scripts/setup --test"))
    func theZoomViewShowsThePhotoFitted() throws {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        // Waited for: a loaded machine was seen to take the screenshot while the grid was still
        // there (a box of the whole window), though the screen had been still for a second.
        let shot = try screen(after: ["Return"], photos: photos) { try self.zoomFigures($0, photos[0]).map { $0.error < 12 } ?? false }
        let figures = try #require(try zoomFigures(shot, photos[0]), "no picture box")
        let cell = (width: shot.width / Self.columns, height: shot.height / Self.rows)
        #expect(figures.box.height >= (Self.rows - 2) * cell.height || figures.box.width >= (Self.columns - 2) * cell.width,
                "not fitted: \(figures.box)")
        #expect(figures.error < 12, "box \(figures.box)")
        // At full size, as much detail as the photo fitted there: not a mosaic.
        #expect(figures.detail > 0.6 && figures.detail < 1.6, "detail ratio \(figures.detail)")
    }

    /// The zoom view's picture box, and how far what is in it is from the photo fitted to it
    /// (compared at 64x64), with the ratio of its detail to the photo's at full size.
    func zoomFigures(_ shot: RGBImage, _ photo: Photo) throws -> (box: (x: Int, y: Int, width: Int, height: Int), error: Double, detail: Double)? {
        guard let box = Self.pictureBox(shot, statusRows: 1, rows: Self.rows) else { return nil }
        let upright = try PhotoDecoder.decodeUpright(photo, atLeast: (box.width, box.height), fit: .fit)
        let whole = Resampler.Region(x: 0, y: 0, width: Double(upright.width), height: Double(upright.height))
        let expected = Resampler.resample(upright, region: whole, width: 64, height: 64)
        let seen = Resampler.resample(shot, region: Resampler.Region(x: Double(box.x), y: Double(box.y), width: Double(box.width),
                                                                     height: Double(box.height)), width: 64, height: 64)
        if let dump = getenv("PHOTOGRID_DUMP") {
            for (name, image) in [("zoom", shot), ("seen", seen), ("expected", expected)] {
                TestImages.write(Array("P6\n\(image.width) \(image.height)\n255\n".utf8) + image.pixels, to: String(cString: dump) + "-\(name).ppm")
            }
        }
        let fitted = Resampler.resample(upright, region: whole, width: box.width, height: box.height)
        let detail = Self.compare(shot.region(x: box.x, y: box.y, width: box.width, height: box.height), fitted).detail
        return (box, TestImages.meanAbsoluteError(seen, expected), detail)
    }

    /// The box of the columns and rows above the last `statusRows` of which at least a fifth of
    /// the pixels are brighter than near-black (a stray pixel, the cursor say, does not count).
    static func pictureBox(_ shot: RGBImage, statusRows: Int, rows: Int) -> (x: Int, y: Int, width: Int, height: Int)? {
        let bottom = shot.height - statusRows * (shot.height / rows)
        var columnCounts = [Int](repeating: 0, count: shot.width), rowCounts = [Int](repeating: 0, count: bottom)
        for y in 0..<bottom {
            for x in 0..<shot.width {
                let p = shot[x, y]
                if Int(p.r) + Int(p.g) + Int(p.b) > 30 { columnCounts[x] += 1; rowCounts[y] += 1 }
            }
        }
        let columns = columnCounts.indices.filter { columnCounts[$0] * 5 >= bottom }
        let lines = rowCounts.indices.filter { rowCounts[$0] * 5 >= shot.width }
        guard let x0 = columns.first, let x1 = columns.last, let y0 = lines.first, let y1 = lines.last else { return nil }
        return (x0, y0, x1 - x0 + 1, y1 - y0 + 1)
    }
}
