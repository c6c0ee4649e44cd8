import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridCore
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// A slow link (issue 37): the meter learns the pace from the frames' writes; on a slow link a
/// frame writes pictures up to its budget and holds the rest for the next, sends no previews,
/// sixel with fewer colours and kitty smaller pictures; a fast link changes nothing.
@Suite struct SlowLinkTests {
    let waiter = Waiter()

    @Test func theMeterLearnsThePaceFromLargeWritesOnly() {
        var link = LinkMeter(overSSH: true)
        // Small writes fit the buffers: they say nothing, however long they took. Until a write
        // has gone fast, a frame writes at most half a megabyte of pictures.
        link.wrote(10_000, seconds: 1)
        #expect(link.bytesPerSecond == nil && !link.isSlow && link.frameBudget == LinkMeter.unknownBudget)
        // 600 KB in a quarter second: 2.4 MB/s, as at 20 Mbit/s.
        link.wrote(600_000, seconds: 0.25)
        #expect(link.isSlow)
        #expect(link.frameBudget == 300_000)
        // Kitty's pictures at half size for a screen of 2400x1340 pixels (7 MB at full size
        // would take 3 s, 4 MB at 3/4 1.6 s), at full size for a small screen.
        #expect(link.pictureScale(screenPixels: 2400 * 1340) == 0.5)
        #expect(link.pictureScale(screenPixels: 800 * 600) == 1)
        // At 20 Mbit/s exactly too (2.5 MB/s): 3/4 of that screen is more than 1.2 s of it.
        var twenty = LinkMeter(overSSH: true)
        twenty.wrote(625_000, seconds: 0.25)
        #expect(twenty.isSlow && twenty.pictureScale(screenPixels: 2400 * 1340) == 0.5)
        // Between the two marks it stays slow; past the upper one it is fast again.
        link.wrote(4_500_000, seconds: 1)
        #expect(link.isSlow)
        link.wrote(100_000_000, seconds: 1)
        #expect(!link.isSlow && link.frameBudget == nil && link.pictureScale(screenPixels: 2400 * 1340) == 1)
        // A terminal found fast at once writes its frames whole.
        var fast = LinkMeter()
        fast.wrote(1_000_000, seconds: 0.01)
        #expect(fast.frameBudget == nil && !fast.isSlow)
    }

    /// Whatever the session says of SSH, the first slow write is enough (issue 53: waiting for
    /// more sent a slow link's first megabyte as a fast link's, previews and all). A terminal on
    /// this machine that is slow while it starts (xterm) reads at a better pace once: that gives
    /// the slowness up, and from then on 1.25 MB of slow writes with no fast one between are
    /// needed again.
    @Test func aSlowStartIsGivenUpOnceAWriteGoesBetter() {
        var link = LinkMeter()
        link.wrote(250_000, seconds: 0.25)                         // 1 MB/s: xterm starting, or a link
        #expect(link.isSlow && link.frameBudget == 125_000 && link.pictureScale(screenPixels: 2400 * 1340) < 1)
        link.wrote(250_000, seconds: 0.06)                         // then 4.2 MB/s once: not slow, not fast
        #expect(!link.isSlow && link.frameBudget == LinkMeter.unknownBudget)
        for _ in 0..<3 { link.wrote(250_000, seconds: 0.25) }      // 1 MB slow in all: not enough now
        #expect(!link.isSlow)
        link.wrote(400_000, seconds: 0.4)                          // 1.4 MB with no fast write between
        #expect(link.isSlow)
        var slow = LinkMeter()
        for _ in 0..<3 { slow.wrote(250_000, seconds: 0.1) }       // 2.5 MB/s, as at 20 Mbit/s
        #expect(slow.isSlow && slow.frameBudget == 312_500)
        // Said to be over SSH, a better write (buffers along the way took it) gives nothing up.
        var ssh = LinkMeter(overSSH: true)
        ssh.wrote(250_000, seconds: 0.1)
        ssh.wrote(250_000, seconds: 0.06)
        #expect(ssh.isSlow)
    }

    func controller(mode: RenderMode) throws -> GridController {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let session = GridSession(photos: photos, mode: mode, fit: .fill, cacheBytes: 256 << 20) { [waiter] in waiter.signal() }
        var screen = ScreenMetrics(columns: 120, rows: 40)
        screen.maxImageWidth = 1200
        screen.maxImageHeight = 800
        return GridController(title: "sample-gallery", session: session, screen: screen, columns: 4, modeName: mode.description)
    }

    /// Asks for the screen as a frame does, without drawing, and waits until it is all made.
    func made(_ grid: GridController) -> Bool {
        let session = grid.session
        session.pipeline.want(session.wanted(layout: grid.layout, position: grid.position, direction: 1), infos: [])
        return waiter.wait(seconds: 60) { session.pipeline.isIdle && grid.contents().loading == 0 }
    }

    /// Sixel pictures in a frame: DCS sequences.
    static func pictures(_ bytes: [UInt8]) -> Int {
        guard bytes.count > 2 else { return 0 }
        return (0..<(bytes.count - 2)).filter { bytes[$0] == 0x1B && bytes[$0 + 1] == 0x50 && bytes[$0 + 2] == 0x71 }.count
    }

    /// The sixel pictures the screen's tiles are made of.
    static func pieces(_ grid: GridController) -> Int {
        grid.contents().tiles.map { tile -> Int in
            if case .image(_, let encoded) = tile.content { return encoded.sixelParts?.count ?? 0 }
            return 0
        }.reduce(0, +)
    }

    @Test func aSlowLinksFrameSendsItsBudgetAndHoldsTheRest() throws {
        let grid = try controller(mode: .sixel(colors: 256))
        defer { grid.session.pipeline.stop() }
        var link = LinkMeter()
        link.wrote(400_000, seconds: 0.2)               // 2 MB/s: a budget of about half a megabyte
        grid.follow(link)
        let budget = try #require(grid.screen.frameBudget)
        // Every tile on screen made, nothing drawn yet.
        #expect(made(grid))
        var frames: [GridController.Frame] = []
        repeat { frames.append(grid.frame()) } while frames.last!.heldBack && frames.count < 50
        let first = frames[0]
        #expect(first.heldBack && frames.count >= 2, "\(frames.count) frames")
        // Each frame at most its budget and one more picture; every picture on screen sent once.
        let largest = frames.map { $0.bytes.count }.max() ?? 0
        #expect(largest <= budget + 500_000, "a frame of \(largest) bytes for a budget of \(budget)")
        let sent = frames.map { Self.pictures($0.bytes) }.reduce(0, +)
        let pieces = Self.pieces(grid)
        #expect(sent == pieces && pieces >= 8, "\(sent) pictures sent for \(pieces) on screen")
        #expect(Self.pictures(grid.frame().bytes) == 0, "sent again")
        #expect(!frames.last!.heldBack && frames.last!.tilesLoading == 0)
        // No previews wanted, and the tiles at 128 colours.
        #expect(grid.contents().tiles.allSatisfy { tile in
            if case .image(let request, _) = tile.content { return request.mode == .sixel(colors: 128) && !request.isPreview }
            return false
        })
    }

    @Test func aFastLinkChangesNothing() throws {
        let grid = try controller(mode: .sixel(colors: 256))
        defer { grid.session.pipeline.stop() }
        var link = LinkMeter()
        link.wrote(4_000_000, seconds: 0.05)
        grid.follow(link)
        #expect(grid.screen.frameBudget == nil && grid.screen.pictureScale == 1)
        #expect(made(grid))
        let frame = grid.frame()
        #expect(!frame.heldBack && Self.pictures(frame.bytes) == Self.pieces(grid), "all at once")
    }

    /// kitty through a slow link: pictures at the link's share of their size, placed over the
    /// same cells; with `sharp` (the screen stayed put) at full size again.
    @Test func kittyOnASlowLinkSendsSmallerPicturesThenSharpOnes() throws {
        let grid = try controller(mode: .kitty(.inline))
        defer { grid.session.pipeline.stop() }
        var link = LinkMeter()
        link.wrote(400_000, seconds: 0.4)               // 1 MB/s: a screen of 1200x800 at 3/4 of its size
        grid.follow(link)
        let scale = grid.screen.pictureScale
        #expect(scale < 1)
        let tile = try #require(grid.session.paintTiles(layout: grid.layout, position: grid.position).first)
        let full = grid.session.mode.format.gridRequest(tile.photo, frame: grid.layout.frames[0], visibleRows: tile.rows,
                                                        screen: ScreenMetrics(columns: 120, rows: 40), fit: .fill)
        #expect(made(grid))
        guard case .image(let small, _) = grid.contents().tiles.first(where: { $0.photo == tile.photo })?.content else {
            Issue.record("no picture")
            return
        }
        #expect(small.width == Int((Double(full.width) * scale).rounded()))
        grid.follow(link, sharp: true)
        #expect(grid.screen.pictureScale == 1)
        // Until the sharp one is made, the small one shows (as a preview), not "loading".
        if case .loading = grid.contents().tiles.first(where: { $0.photo == tile.photo })!.content { Issue.record("loading") }
        #expect(made(grid))
        guard case .image(let sharp, _) = grid.contents().tiles.first(where: { $0.photo == tile.photo })?.content else {
            Issue.record("no sharp picture")
            return
        }
        #expect(sharp.width == full.width)
    }
}
