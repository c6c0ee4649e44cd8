import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridCore
@testable import PhotoGridDiskCache
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The grid and zoom view driven without a terminal, on the sample gallery.
@Suite struct GridControllerTests {
    /// Told whenever a tile or a photo's details are ready.
    let waiter = Waiter()

    func controller(columns: Int, rows: Int = 40) throws -> GridController {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let session = GridSession(photos: photos, mode: .halfBlock(.trueColor), fit: .fill, cacheBytes: 256 << 20) { [waiter] in waiter.signal() }
        return GridController(title: "sample-gallery", session: session, screen: ScreenMetrics(columns: 120, rows: rows),
                              columns: columns, modeName: "half-block")
    }

    /// A frame each time something is ready, until `done`, at most 20 s.
    func settle(_ controller: GridController, until done: () -> Bool) -> Bool {
        waiter.wait { _ = controller.frame(); return done() }
    }

    /// Plain xterm's hint stays on the status line until the first key.
    @Test func theStartHintGoesAtTheFirstKey() throws {
        let grid = try controller(columns: 4)
        defer { grid.session.pipeline.stop() }
        grid.startHint = "xterm -ti vt340 shows pictures"
        #expect(grid.frame().status.contains("xterm -ti vt340 shows pictures"))
        grid.handle(.character("l"))
        #expect(!grid.frame().status.contains("vt340"))
    }

    /// The slideshow on a clock the test moves: a photo each `slideshowSeconds`, round to the
    /// first after the last, and nothing more once `s` stops it, however long it waits.
    @Test func theSlideshowStepsOnItsClockAndStopsWhenAsked() throws {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let clock = ManualClock()
        let session = GridSession(photos: photos, mode: .halfBlock(.trueColor), fit: .fill, cacheBytes: 64 << 20) {}
        defer { session.pipeline.stop() }
        let grid = GridController(title: "t", session: session, screen: ScreenMetrics(columns: 120, rows: 40), columns: 4,
                                  modeName: "half-block", clock: clock)
        grid.settings.slideshowSeconds = 3
        grid.handle(.end)
        grid.handle(.character("h"))
        grid.handle(.enter)
        grid.handle(.character("s"))
        #expect(grid.zoom?.photo == PhotoID(photos.count - 2))
        clock.advance(milliseconds: 2999)
        grid.advanceSlideshow()
        #expect(grid.zoom?.photo == PhotoID(photos.count - 2), "too soon")
        clock.advance(milliseconds: 1)
        grid.advanceSlideshow()
        #expect(grid.zoom?.photo == PhotoID(photos.count - 1))
        clock.advance(milliseconds: 3000)
        grid.advanceSlideshow()
        #expect(grid.zoom?.photo == PhotoID(0), "round to the first")
        grid.handle(.character("s"))
        #expect(grid.slideshowDue == nil)
        clock.advance(milliseconds: 60_000)
        grid.advanceSlideshow()
        #expect(grid.zoom?.photo == PhotoID(0), "stopped, it stays")
    }

    /// The status line names the order once: "by date", not "by date · sorted by date".
    @Test func theStatusLineSaysTheOrderOnce() throws {
        let grid = try controller(columns: 4)
        defer { grid.session.pipeline.stop() }
        grid.allowChanges(order: nil, showHidden: false, rescan: nil)
        grid.handle(.character("s"))
        let status = grid.frame().status
        #expect(status.components(separatedBy: "by date").count == 2, "\(status)")
        for _ in 0..<3 { grid.handle(.character("s")) }
        #expect(grid.frame().status.contains("sorted by name"), "back to the name order, which the line does not show otherwise")
    }

    /// A terminal that draws no sixel picture over 1000x800 (xterm's default): the zoom view and
    /// a one-column grid send pictures in pieces no larger, which together cover the view.
    @Test func sixelPicturesStayWithinWhatTheTerminalDraws() throws {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let session = GridSession(photos: photos, mode: .sixel(colors: 256), fit: .fill, cacheBytes: 256 << 20) { [waiter] in waiter.signal() }
        defer { session.pipeline.stop() }
        var screen = ScreenMetrics(columns: 160, rows: 60)
        (screen.maxImageWidth, screen.maxImageHeight) = (1000, 800)
        let grid = GridController(title: "sample-gallery", session: session, screen: screen, columns: 1, modeName: "sixel")
        func pictures(_ bytes: [UInt8]) -> [(width: Int, height: Int)] {
            String(decoding: bytes, as: UTF8.self).matches(of: /"1;1;(\d+);(\d+)/).map { (Int($0.1)!, Int($0.2)!) }
        }
        for view in ["grid", "zoom"] {
            if view == "zoom" { grid.handle(.enter) }
            var drawn: [UInt8] = []
            let finished = waiter.wait {
                let frame = grid.frame()
                drawn += frame.bytes
                return frame.tilesLoading == 0 && !pictures(drawn).isEmpty
            }
            #expect(finished, "\(view): never finished")
            let sizes = pictures(drawn)
            #expect(sizes.allSatisfy { $0.width <= 1000 && $0.height <= 800 }, "\(view): \(sizes)")
            // The 1590-pixel-wide view (less a cell) needs pieces side by side.
            #expect(sizes.reduce(0) { $0 + $1.width * $1.height } > 1000 * 800, "\(view): \(sizes)")
        }
    }

    @Test func leavingTheZoomViewFocusesThePhotoItShowedLast() throws {
        let grid = try controller(columns: 4)
        defer { grid.session.pipeline.stop() }
        grid.handle(.character("l"))
        grid.handle(.enter)
        #expect(grid.zoom?.photo == PhotoID(1))
        for _ in 0..<13 { grid.handle(.character("n")) }
        grid.handle(.character("p"))
        #expect(grid.zoom?.photo == PhotoID(13))
        grid.handle(.escape)
        #expect(grid.zoom == nil)
        #expect(grid.position.focus == 13)
        let row = 13 / 4
        #expect(row >= grid.position.topRow && row < grid.position.topRow + grid.layout.fullyVisibleRows)
        // - at fit goes back to the grid too; Q quits from the zoom view.
        grid.handle(.character("z"))
        grid.handle(.character("-"))
        #expect(grid.zoom == nil)
        grid.handle(.enter)
        #expect(grid.handle(.character("Q")) == .quit)
    }

    @Test func tilesWithACaptionOrAPositionCarryBadgesAtThreeColumnsOrFewer() throws {
        let grid = try controller(columns: 3, rows: 200)
        defer { grid.session.pipeline.stop() }
        let visible = grid.layout.visibleIndexes(topRow: 0, photos: grid.session.photos.count)
        #expect(settle(grid) { visible.allSatisfy { grid.session.pipeline.hasReadInfo(grid.photo(at: $0)) } })
        let tiles = grid.contents().tiles
        var captions = 0, positions = 0
        for tile in tiles where tile.rows == grid.layout.tileRows {
            let info = grid.session.pipeline.info(tile.photo)
            #expect(tile.badges.contains("¶") == (info?.caption != nil))
            #expect(tile.badges.contains("°") == (info?.latitude != nil))
            if info?.caption != nil { captions += 1 }
            if info?.latitude != nil { positions += 1 }
        }
        #expect(captions > 0 && positions > 0)
        // At four columns there are none.
        grid.handle(.character("4"))
        #expect(grid.contents().tiles.allSatisfy { $0.badges.isEmpty })
    }

    @Test func theDetailsPanelShowsWhatTheFileSaysAndNothingThatCouldMoveTheCursor() throws {
        let grid = try controller(columns: 4)
        defer { grid.session.pipeline.stop() }
        let index = try #require(grid.session.photos.firstIndex { $0.name == "aurora-03.jpg" })
        grid.handle(.enter)
        for _ in 0..<index { grid.handle(.character("n")) }
        grid.handle(.character("i"))
        #expect(settle(grid) { grid.session.pipeline.hasReadInfo(grid.photo(at: index)) })
        let rows = grid.detailsPanel().rows
        func value(_ label: String) -> String? { rows.first { $0.label == label }?.value }
        #expect(value("name") == "aurora-03.jpg")
        #expect(value("camera") == "Apple iPhone 13")
        #expect(value("exposure") == "ISO 1250  f/1.6  1/3 s  5.1 mm")
        #expect(value("position") == "69.64920° N, 18.95530° E")
        #expect(rows.first { $0.label == "position" }?.link?.hasPrefix("https://www.openstreetmap.org/?mlat=69.6492") == true)
        // A hostile caption is drawn inert: no ESC but the panel's own SGR and OSC 8 ones.
        let panel = DetailsPanel(title: "Details", rows: [.init("caption", "evil\u{1B}]0;owned\u{07}\u{1B}[2J caption\u{9B}1m")])
        let text = panel.lines(width: 50, maxRows: 20, colors: .trueColor).map { String(decoding: $0, as: UTF8.self) }.joined()
        #expect(!text.contains("\u{1B}]0") && !text.contains("\u{1B}[2J") && !text.contains("\u{07}") && !text.contains("\u{9B}"))
        #expect(text.contains("evil^[]0;owned^G^[[2J"))

        // The map link is whole, over as many lines as it takes, each a link to the whole address.
        let map = try #require(rows.first { $0.label == "map" })
        let lines = DetailsPanel(title: "Details", rows: [map]).lines(width: 40, maxRows: 20, colors: .trueColor)
            .map { String(decoding: $0, as: UTF8.self) }
        let shown = lines.compactMap { line -> String? in
            guard let start = line.range(of: "\u{1B}\\"), let end = line.range(of: "\u{1B}]8;;\u{1B}\\") else { return nil }
            return String(line[start.upperBound..<end.lowerBound]).trimmingCharacters(in: .whitespaces)
        }
        #expect(shown.count >= 2 && shown.joined() == map.value, "\(shown)")
        #expect(lines.filter { $0.contains("\u{1B}]8;;\(map.value)\u{1B}\\") }.count == shown.count)
    }
}

/// Every status line of a walk through the views' keys says each thing once.
@Suite struct StatusLineRepeatTests {
    @Test func noStatusLineRepeatsAGroup() throws {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let session = GridSession(photos: photos, mode: .halfBlock(.trueColor), fit: .fill, cacheBytes: 64 << 20) {}
        defer { session.pipeline.stop() }
        let grid = GridController(title: "sample-gallery", session: session, screen: ScreenMetrics(columns: 200, rows: 40), columns: 4,
                                  modeName: "half-block")
        grid.allowChanges(order: nil, showHidden: false, rescan: nil)
        grid.settings.readOnly = true
        let keys: [Key] = [.character("m"), .character("."), .character("l"), .character("m"), .character("a"), .enter,
                           .character("m"), .character("m"), .character("n"), .escape, .character("."), .character("M"),
                           .character("s"), .character("S"), .character("M"), .character("m")]
        for key in keys {
            grid.handle(key)
            let status = grid.frame().status
            let groups = status.components(separatedBy: StatusLine.separator).map { $0.trimmingCharacters(in: .whitespaces) }
            #expect(Set(groups).count == groups.count, "after \(key): \(status)")
        }
    }
}

/// The focus frame in fit mode from a warm disk cache.
@Suite struct FitFrameTests {
    let waiter = Waiter()

    /// At 6 columns in fit mode the frame goes round the photo's part of its square, from a
    /// warm disk cache as from a cold one: a tile read back from the cache comes without a
    /// decode, so the focused photo's details are read for its shape.
    @Test func theFrameGoesRoundThePhotoFromAWarmCacheToo() throws {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let folder = TestImages.scratchFolder("fitframe")
        defer { TestImages.remove(folder) }
        func framed() throws -> FocusMarker? {
            let cache = try #require(DiskCache(directory: folder + "/cache", limitBytes: 64 << 20))
            let session = GridSession(photos: photos, mode: .halfBlock(.trueColor), fit: .fit, cacheBytes: 256 << 20,
                                      tierStore: DiskTierStore(cache: cache)) { [waiter] in waiter.signal() }
            defer { session.pipeline.stop() }
            let grid = GridController(title: "sample-gallery", session: session, screen: ScreenMetrics(columns: 120, rows: 40),
                                      columns: 6, modeName: "half-block")
            // Until every tile is drawn and the frame is round less than its whole square.
            let settled = waiter.wait {
                _ = grid.frame()
                let contents = grid.contents()
                guard contents.loading == 0, let marker = contents.marker else { return false }
                return marker.rows < marker.tileRows || marker.width < marker.tileWidth
            }
            #expect(settled, "the frame stayed round the whole square")
            return grid.contents().marker
        }
        let cold = try framed()
        let warm = try framed()
        #expect(cold != nil)
        #expect(warm == cold)
    }
}
