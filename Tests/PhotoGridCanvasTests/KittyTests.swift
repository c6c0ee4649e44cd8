import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The kitty graphics protocol: what is sent, when, and what the start-up probe makes of answers.
@Suite struct KittyTests {
    static func picture(width: Int = 40, height: Int = 30) -> (RGBImage, KittyPicture) {
        let image = TestImages.gradient(width: width, height: height)
        return (image, Kitty.picture(image))
    }

    @Test func aPictureIsAPNGOfItsRowsInChunksOf4KB() throws {
        let (image, picture) = Self.picture(width: 300, height: 200)
        let commands = TerminalOutput.kittyCommands(Kitty.transmit(picture, id: 7))
        #expect(commands.count > 1)
        #expect(commands[0].keys.hasPrefix("a=t,i=7,") && commands[0].keys.contains("f=100") && commands[0].keys.contains("q=2"))
        #expect(commands.dropLast().allSatisfy { $0.payload.count == Kitty.chunkSize && $0.keys.hasSuffix("m=1") })
        #expect(commands.last!.keys.hasSuffix("m=0") && commands.last!.payload.count <= Kitty.chunkSize)
        // Only the first chunk carries the keys.
        #expect(commands.dropFirst().allSatisfy { $0.keys == "m=1" || $0.keys == "m=0" })
        // libspng reads it back to the same pixels: the row filters lose nothing.
        let sent = try #require(Base64.decode(commands.flatMap(\.payload)))
        #expect(try PNG.decode(sent) == image)
        // Photos' rows filtered deflate smaller than their raw rows did (by a quarter on real
        // camera photos, docs/benchmarks.md; the sample gallery's painted scenes gain less).
        var (filtered, rawRows) = (0, 0)
        for name in ["travel/beach-01.jpg", "landscapes/hills-01.jpg", "night/night-03.jpg", "landscapes/misty-04.jpg"] {
            let photo = try #require(try? PhotoDecoder().image(of: Photo(path: RawPath(Paths.gallery + "/" + name), relativePath: RawPath(name)),
                                                               covering: 400, atMost: 400).image)
            filtered += try #require(KittyPNG.encode(photo)).count
            rawRows += try #require(Zlib.compress(photo.pixels)).count
        }
        #expect(filtered < rawRows, "PNG \(filtered) bytes, raw rows deflated \(rawRows)")
    }

    /// The Sub filter 16 bytes at a time is the byte-at-a-time one, at every length a row's end
    /// can leave (pixels of 3 bytes; the vector loop's last partial block).
    @Test func subFilterIsEachByteLessTheOneAPixelBefore() {
        var generator = SystemRandomNumberGenerator()
        for count in 0...70 {
            let row = (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
            let expected = row.indices.map { $0 < 3 ? row[$0] : row[$0] &- row[$0 - 3] }
            var out = [UInt8](repeating: 0xAA, count: count + 16)
            row.withUnsafeBufferPointer { source in
                out.withUnsafeMutableBufferPointer { KittyPNG.sub(row: source.baseAddress ?? UnsafePointer(bitPattern: 1)!, count: count, into: $0.baseAddress!) }
            }
            #expect(Array(out.prefix(count)) == expected, "a row of \(count) bytes")
            #expect(out.dropFirst(count).allSatisfy { $0 == 0xAA }, "written past a row of \(count) bytes")
        }
    }

    /// On the same machine a picture goes as a file the terminal reads (and deletes): its rows of
    /// RGB as they are, the command carrying only the path.
    @Test func aPictureAsAFileCarriesItsPathAndItsRowsAsTheyAre() throws {
        let image = TestImages.gradient(width: 30, height: 20)
        let picture = Kitty.picture(image, transfer: .file)
        let commands = TerminalOutput.kittyCommands(Kitty.transmit(picture, id: 5))
        #expect(commands.count == 1 && commands[0].keys == "a=t,i=5,t=t,f=24,s=30,v=20,q=2")
        let path = String(decoding: try #require(Base64.decode(commands[0].payload)), as: UTF8.self)
        defer { Kitty.remove(path) }
        #expect(path.contains("tty-graphics-protocol"))
        #expect(try FileReader.read(RawPath(path)) == image.pixels)
        // Quitting removes what the terminal did not read.
        TemporaryFiles.removeLeftovers()
        #expect(access(path, F_OK) != 0)
        // --print shows it at once (a=T) from a file too; it waits for the terminal to read it.
        let shown = TerminalOutput.kittyCommands(Kitty.display(picture, columns: 3, rows: 1))
        #expect(shown.count == 1 && shown[0].keys == "a=T,c=3,r=1,C=1,z=0,t=t,f=24,s=30,v=20,q=2")
        let printed = String(decoding: try #require(Base64.decode(shown[0].payload)), as: UTF8.self)
        #expect(printed != path)
        #expect(try FileReader.read(RawPath(printed)) == image.pixels)
        TemporaryFiles.removeLeftovers()
        #expect(access(printed, F_OK) != 0)
        // The probe learns whether the terminal reads files from here.
        let replies = TerminalReplies.parse(Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=32;OK\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\\u{1B}[?62;c".utf8)).replies
        #expect(Capabilities.decide(replies: replies, window: nil, environment: [:], choice: .auto).mode == .kitty(.file))
        let remote = TerminalReplies.parse(Array("\u{1B}_Gi=32;EBADF:no such file\u{1B}\\\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\\u{1B}[?62;c".utf8)).replies
        #expect(Capabilities.decide(replies: remote, window: nil, environment: [:], choice: .auto).mode == .kitty(.inline))
    }

    @Test func base64RoundTripsEveryLength() throws {
        for length in 0..<10 {
            let bytes = (0..<length).map { UInt8(truncatingIfNeeded: $0 * 77 + 5) }
            #expect(Base64.decode(Base64.encode(bytes)) == bytes)
        }
        #expect(Base64.encode(Array("Man".utf8)) == Array("TWFu".utf8))
        #expect(Base64.encode(Array("Ma".utf8)) == Array("TWE=".utf8))
        #expect(Base64.decode(Array("TW@u".utf8)) == nil)
    }

    func request(_ photo: Int, preview: Bool = false) -> TileRequest {
        TileRequest(photo: PhotoID(photo), width: 40, height: 30, fit: .fill, mode: .kitty(.inline), isPreview: preview)
    }

    @Test func eachTileIsSentOnceAndPlacedAgainOnlyWhenItMoves() {
        let screen = KittyScreen()
        let (_, a) = Self.picture(), (_, b) = Self.picture()
        // First frame: both sent and placed.
        var bytes = screen.show(request(0), a, row: 0, column: 0, columns: 4, rows: 2)
            + screen.show(request(1), b, row: 0, column: 5, columns: 4, rows: 2) + screen.endFrame()
        var keys = TerminalOutput.kittyCommands(bytes).map(\.keys)
        #expect(keys.filter { $0.hasPrefix("a=t") }.count == 2 && keys.filter { $0.hasPrefix("a=p") }.count == 2)
        // Same frame again: nothing at all.
        bytes = screen.show(request(0), a, row: 0, column: 0, columns: 4, rows: 2)
            + screen.show(request(1), b, row: 0, column: 5, columns: 4, rows: 2) + screen.endFrame()
        #expect(bytes.isEmpty)
        // Scrolled: 0 moved up and 1 left the screen: 0 placed again by id, 1 taken off, nothing sent.
        bytes = screen.show(request(0), a, row: 1, column: 0, columns: 4, rows: 2) + screen.endFrame()
        keys = TerminalOutput.kittyCommands(bytes).map(\.keys)
        #expect(keys == ["a=p,i=1,p=1,c=4,r=2,C=1,z=\(Kitty.zIndex),q=2", "a=d,d=i,i=2,q=2"])
        // Back: 1 placed again without being sent, 0 (off screen now) taken off.
        bytes = screen.show(request(1), b, row: 0, column: 5, columns: 4, rows: 2) + screen.endFrame()
        #expect(TerminalOutput.kittyCommands(bytes).map(\.keys) == ["a=p,i=2,p=1,c=4,r=2,C=1,z=\(Kitty.zIndex),q=2", "a=d,d=i,i=1,q=2"])
        #expect(screen.sentBytes == a.payload.count + b.payload.count)
    }

    @Test func aTileTakesOverItsPreviewsIdAndAChangedTileIsSentAgainUnderIt() {
        let screen = KittyScreen()
        let (_, first) = Self.picture(), (_, second) = Self.picture()
        _ = screen.show(request(0, preview: true), first, row: 0, column: 0, columns: 4, rows: 2) + screen.endFrame()
        // The final tile is sent under its preview's id (replacing its pixels) and placed there;
        // nothing is freed.
        var keys = TerminalOutput.kittyCommands(screen.show(request(0), first, row: 0, column: 0, columns: 4, rows: 2) + screen.endFrame()).map(\.keys)
        #expect(keys.contains { $0.hasPrefix("a=t,i=1,") } && keys.contains { $0.hasPrefix("a=p,i=1,") })
        #expect(!keys.contains { $0.hasPrefix("a=d") })
        // The file changed (a new encode of the same tile): sent again under the same id.
        keys = TerminalOutput.kittyCommands(screen.show(request(0), second, row: 0, column: 0, columns: 4, rows: 2) + screen.endFrame()).map(\.keys)
        #expect(keys.contains { $0.hasPrefix("a=t,i=1,") } && keys.contains { $0.hasPrefix("a=p,i=1,") })
        #expect(screen.heldCount == 1)
    }

    /// kitty up to 0.26 frees every picture without a placement on any uppercase delete, so a
    /// frame that frees anything must be one that frees every hidden picture: a tile hidden on
    /// the page before must still be held (placed again, not sent) after previews became tiles.
    /// The focus frame's sides over a picture (at the screen's left and top edges) go as an amber
    /// picture placed above the tiles, sent once; moved into the gaps, those placements go.
    @Test func theFramesSidesOverAPictureArePlacedAboveIt() {
        let screen = KittyScreen()
        // Left and top sides inside a tile at the top-left corner.
        var ops = screen.frameOver([(0, 0, 6, 1), (1, 0, 1, 3)])
        var keys = TerminalOutput.kittyCommands(ops.flatMap(\.bytes)).map(\.keys)
        #expect(keys.count == 3 && keys[0].hasPrefix("a=t,i=1,") && keys[0].contains("f=100"))
        #expect(keys[1] == "a=p,i=1,p=2,c=6,r=1,C=1,z=1,q=2" && keys[2] == "a=p,i=1,p=3,c=1,r=3,C=1,z=1,q=2")
        #expect(ops[1].row == 0 && ops[1].column == 0 && ops[2].row == 1)
        #expect(screen.frameOver([(0, 0, 6, 1), (1, 0, 1, 3)]).isEmpty, "nothing again for the same sides")
        // Focus on an inner tile: no side over a picture; both placements go, the picture stays.
        ops = screen.frameOver([])
        keys = TerminalOutput.kittyCommands(ops.flatMap(\.bytes)).map(\.keys)
        #expect(keys == ["a=d,d=i,i=1,p=2,q=2", "a=d,d=i,i=1,p=3,q=2"])
        // Back at the edge: placed again, not sent again.
        keys = TerminalOutput.kittyCommands(screen.frameOver([(0, 0, 6, 1)]).flatMap(\.bytes)).map(\.keys)
        #expect(keys == ["a=p,i=1,p=2,c=6,r=1,C=1,z=1,q=2"])
        // After the terminal was told to forget everything, the picture is sent again.
        _ = screen.forgetAll()
        keys = TerminalOutput.kittyCommands(screen.frameOver([(0, 0, 6, 1)]).flatMap(\.bytes)).map(\.keys)
        #expect(keys.first?.hasPrefix("a=t") == true)
    }

    @Test func nothingIsFreedOnePictureAtATime() {
        let screen = KittyScreen()
        let (_, picture) = Self.picture()
        _ = screen.show(request(0), picture, row: 0, column: 0, columns: 4, rows: 2) + screen.endFrame()
        // The next page: tile 0 hidden, tile 1 comes as a preview, then as itself.
        var out = screen.endFrame()
        out += screen.show(request(1, preview: true), picture, row: 0, column: 0, columns: 4, rows: 2) + screen.endFrame()
        out += screen.show(request(1), picture, row: 0, column: 0, columns: 4, rows: 2) + screen.endFrame()
        #expect(!TerminalOutput.kittyCommands(out).contains { $0.keys.hasPrefix("a=d,d=I") })
        // Back: tile 0 is placed again, not sent.
        let keys = TerminalOutput.kittyCommands(screen.show(request(0), picture, row: 0, column: 0, columns: 4, rows: 2)).map(\.keys)
        #expect(keys.count == 1 && keys[0].hasPrefix("a=p,i=1,"))
    }

    @Test func theTerminalsMemoryStaysWithinTheBudget() {
        // Each 40x30 picture takes 4,800 bytes in the terminal: a budget of three. One new
        // picture a frame: past three held, all but the one on screen are freed together.
        let screen = KittyScreen(budgetBytes: 3 * 40 * 30 * 4)
        var held = 0
        for photo in 0..<10 {
            let shown = TerminalOutput.kittyCommands(screen.show(request(photo), Self.picture().1, row: 0, column: 0, columns: 4, rows: 2))
            let freed = TerminalOutput.kittyCommands(screen.endFrame()).filter { $0.keys.hasPrefix("a=d,d=I") }
            held += 1
            #expect(freed.count == (held > 3 ? held - 1 : 0))
            if held > 3 { held = 1 }
            #expect(screen.heldCount == held)
            // The picture on screen is never the one freed.
            let id = shown.first { $0.keys.hasPrefix("a=t,") }.map { $0.keys.split(separator: ",")[1] }
            #expect(id != nil && !freed.contains { $0.keys.split(separator: ",")[2] == id! })
        }
    }

    /// A tile's badges (a mark, a video) are text: the picture leaves their cells uncovered, its
    /// last row placed apart without them, each part showing its own pixels.
    @Test func aPictureLeavesItsBadgesCellsUncovered() {
        let screen = KittyScreen()
        let (_, picture) = Self.picture(width: 40, height: 40)
        var bytes = screen.show(request(0), picture, row: 2, column: 10, columns: 4, rows: 4, uncovered: 3)
        var keys = TerminalOutput.kittyCommands(bytes).map(\.keys)
        #expect(keys.filter { $0.hasPrefix("a=p") } == ["a=p,i=1,p=1,c=4,r=3,x=0,y=0,w=40,h=30,C=1,z=\(Kitty.zIndex),q=2",
                                     "a=p,i=1,p=2,c=1,r=1,x=0,y=30,w=10,h=10,C=1,z=\(Kitty.zIndex),q=2"])
        // The last row's part is placed at the tile's last row. No cursor save or restore here:
        // the painter saves the cursor once around the frame, for ncurses, and a second save in
        // between (there is one slot) sent the status line's next changes into the grid.
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("\u{1B}[6;11H"))
        #expect(!text.contains("\u{1B}7") && !text.contains("\u{1B}8"))
        _ = screen.endFrame()
        // The badge goes (unmarked): one placement again, the last row's part taken off.
        bytes = screen.show(request(0), picture, row: 2, column: 10, columns: 4, rows: 4)
        keys = TerminalOutput.kittyCommands(bytes).map(\.keys)
        #expect(keys == ["a=d,d=i,i=1,p=2,q=2", "a=p,i=1,p=1,c=4,r=4,C=1,z=\(Kitty.zIndex),q=2"])
        // A tile of one row: the row without the badge's cells.
        keys = TerminalOutput.kittyCommands(screen.show(request(1), picture, row: 0, column: 0, columns: 8, rows: 1, uncovered: 5)).map(\.keys)
        #expect(keys.last == "a=p,i=2,p=1,c=3,r=1,x=0,y=0,w=15,h=40,C=1,z=\(Kitty.zIndex),q=2")
    }

    @Test func aScreenEdgeOrThePanelCutsThePicture() {
        let screen = KittyScreen()
        let (_, picture) = Self.picture(width: 40, height: 40)
        // Cut by the bottom edge: its top 20 pixel rows over 2 rows.
        var keys = TerminalOutput.kittyCommands(screen.show(request(0), picture, row: 0, column: 0, columns: 4, rows: 2, sourceHeight: 20)).map(\.keys)
        #expect(keys.last == "a=p,i=1,p=1,c=4,r=2,x=0,y=0,w=40,h=20,C=1,z=\(Kitty.zIndex),q=2")
        _ = screen.endFrame()
        // The details panel from column 2 over the top 3 rows: beside it the left half, below it
        // the whole width; a picture beside and below it shows what is below; one wholly under
        // it is taken off at the frame's end.
        screen.panel = CellRect(row: 0, column: 2, columns: 10, rows: 3)
        keys = TerminalOutput.kittyCommands(screen.show(request(0), picture, row: 0, column: 0, columns: 4, rows: 4)).map(\.keys)
        #expect(keys == ["a=p,i=1,p=1,c=2,r=3,x=0,y=0,w=20,h=30,C=1,z=\(Kitty.zIndex),q=2",
                         "a=p,i=1,p=2,c=4,r=1,x=0,y=30,w=40,h=10,C=1,z=\(Kitty.zIndex),q=2"])
        keys = TerminalOutput.kittyCommands(screen.show(request(1), picture, row: 0, column: 3, columns: 4, rows: 4)).map(\.keys)
        #expect(keys.last == "a=p,i=2,p=1,c=4,r=1,x=0,y=30,w=40,h=10,C=1,z=\(Kitty.zIndex),q=2")
        #expect(screen.show(request(3), picture, row: 0, column: 5, columns: 4, rows: 3).isEmpty)
        keys = TerminalOutput.kittyCommands(screen.show(request(2), picture, row: 3, column: 3, columns: 4, rows: 4)).map(\.keys)
        #expect(keys.last == "a=p,i=3,p=1,c=4,r=4,C=1,z=\(Kitty.zIndex),q=2")
        #expect(TerminalOutput.kittyCommands(screen.endFrame()).isEmpty)
    }

    @Test func forgettingFreesEverythingAndSendsAgain() {
        let screen = KittyScreen()
        let (_, picture) = Self.picture()
        _ = screen.show(request(0), picture, row: 0, column: 0, columns: 4, rows: 2) + screen.endFrame()
        #expect(screen.forgetAll() == Kitty.deleteAll)
        let keys = TerminalOutput.kittyCommands(screen.show(request(0), picture, row: 0, column: 0, columns: 4, rows: 2)).map(\.keys)
        #expect(keys.first?.hasPrefix("a=t,") == true)
        // hideAll keeps the pictures: placed again, not sent.
        _ = screen.endFrame()
        #expect(screen.hideAll() == Kitty.hideAll)
        #expect(TerminalOutput.kittyCommands(screen.show(request(0), picture, row: 0, column: 0, columns: 4, rows: 2)).map(\.keys).allSatisfy { $0.hasPrefix("a=p") })
    }

    @Test func theProbeReadsKittysAnswerAndDropsOtherAPCs() {
        func parse(_ s: String) -> TerminalReplies { TerminalReplies.parse(Array(s.utf8)).replies }
        let kitty = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;c")
        #expect(kitty.supportsKitty && kitty.deviceAttributes == [62, 0] && kitty.other.isEmpty)
        // The query answered, the picture sent after it not (or refused): no kitty.
        let ignoring = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[6;20;10t\u{1B}[?62;c")
        #expect(!ignoring.supportsKitty && ignoring.kittyIgnoresPictures && ignoring.kittyGraphics == true)
        let failing = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=33;ENOMEM:no room\u{1B}\\\u{1B}[?62;c")
        #expect(!failing.supportsKitty && failing.kittyTransmits == false)
        let refused = parse("\u{1B}_Gi=31;ENOTSUPPORTED:no\u{1B}\\\u{1B}[?62;c")
        #expect(refused.kittyGraphics == false && !refused.supportsKitty)
        // Another id, garbage, an APC too long to be ours: none is kitty, none becomes a key.
        let other = parse("\u{1B}_Gi=7;OK\u{1B}\\\u{1B}_Xjunk\u{1B}\\\u{1B}_G" + String(repeating: "A", count: 900) + "\u{1B}\\\u{1B}[?62;c")
        #expect(other.kittyGraphics == nil && !other.other.contains(UInt8(ascii: "G")))
        // An answer cut in two is completed by the next read.
        let whole = Array("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\\u{1B}[?62;c".utf8)
        let (first, rest) = TerminalReplies.parse(Array(whole.prefix(9)))
        #expect(first.kittyGraphics == nil && rest.count == 9)
        var merged = first
        merged.merge(TerminalReplies.parse(rest + whole.dropFirst(9)).replies)
        #expect(merged.supportsKitty)
        #expect(TerminalReplies.query(environment: ["TERM": "xterm-kitty"]).starts(with: Kitty.query + Kitty.transmitCheck))
        // Never inside tmux or screen, which would make the APC the pane's title.
        for environment in [["TMUX": "/tmp/tmux-0/default,1,0"], ["TERM": "screen-256color"], ["STY": "1.pts-0"]] {
            #expect(!TerminalReplies.query(environment: environment).starts(with: Kitty.query))
        }
        // The Linux console prints string sequences it does not know: none is sent there.
        #expect(TerminalReplies.query(environment: ["TERM": "linux"]) == TerminalReplies.query)
        #expect(!TerminalReplies.query.contains(0x5D) && !TerminalReplies.query.contains(UInt8(ascii: "_")))
    }

    @Test func kittyFirstThenSixelAndTmuxGets24BitColour() {
        func parse(_ s: String) -> TerminalReplies { TerminalReplies.parse(Array(s.utf8)).replies }
        let both = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\\u{1B}[?62;4c")
        let caps = Capabilities.decide(replies: both, window: nil, environment: [:], choice: .auto)
        #expect(caps.mode == .kitty(.inline) && caps.exitSequence == Kitty.deleteAll)
        // A terminal that answers the query but ignores the picture: the next mode down, and
        // --probe says why.
        let claims = Capabilities.decide(replies: parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;4c"), window: nil, environment: [:], choice: .auto)
        #expect(claims.mode.isSixel && claims.exitSequence != Kitty.deleteAll)
        #expect(claims.modeReason.contains("not a picture sent to it"))
        let claimsOnly = Capabilities.decide(replies: parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}[?62;c"), window: nil, environment: [:], choice: .auto)
        #expect(claimsOnly.mode == .halfBlock(.trueColor) || claimsOnly.mode == .halfBlock(.palette256))
        #expect(claimsOnly.modeReason.contains("not a picture sent to it"))
        #expect(Capabilities.decide(replies: both, window: nil, environment: [:], choice: .sixel).mode.isSixel)
        #expect(Capabilities.decide(replies: parse("\u{1B}[?62;c"), window: nil, environment: [:], choice: .kitty).mode == .kitty(.inline))
        let tmux = parse("\u{1B}[?1;2c")
        let inside = Capabilities.decide(replies: tmux, window: nil, environment: ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "screen"], choice: .auto)
        #expect(inside.mode == .halfBlock(.trueColor))
        #expect(inside.modeReason.contains("allow-passthrough"))
        #expect(Capabilities.decide(replies: tmux, window: nil, environment: ["TERM": "tmux-256color"], choice: .auto).mode == .halfBlock(.trueColor))
        let xterm = Capabilities.decide(replies: tmux, window: nil, environment: ["XTERM_VERSION": "XTerm(379)"], choice: .auto)
        #expect(xterm.modeReason.contains("xterm -ti vt340") && xterm.pictureHint == "xterm -ti vt340 shows pictures")
        // The same xterm with sixel, or inside tmux: no hint.
        #expect(Capabilities.decide(replies: parse("\u{1B}[?63;4c"), window: nil, environment: ["XTERM_VERSION": "XTerm(379)"], choice: .auto).pictureHint == nil)
        #expect(Capabilities.decide(replies: tmux, window: nil, environment: ["XTERM_VERSION": "XTerm(379)", "TMUX": "x"], choice: .auto).pictureHint == nil)
    }

    /// tmux 3.4 and later built with sixel lists sixel in its DA1 whatever terminal it is shown
    /// in, and draws "SIXEL IMAGE" boxes of `+` where that terminal has none (seen in a plain
    /// xterm under tmux 3.5a): the terminal's features as tmux found them decide.
    @Test func sixelInsideTmuxOnlyWhereTheTerminalTmuxIsShownInHasIt() {
        let environment = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"]
        var replies = TerminalReplies.parse(Array("\u{1B}[?1;2;4c".utf8)).replies
        replies.tmuxClientFeatures = ["256", "RGB", "title"]
        let plain = Capabilities.decide(replies: replies, window: nil, environment: environment, choice: .auto)
        #expect(plain.mode == .halfBlock(.trueColor))
        #expect(plain.modeReason.contains("terminal-features") && plain.modeReason.contains("RGB,title"))
        replies.tmuxClientFeatures = ["256", "RGB", "sixel"]
        #expect(Capabilities.decide(replies: replies, window: nil, environment: environment, choice: .auto).mode.isSixel)
        // tmux did not answer: DA1 is taken at its word, as outside tmux.
        replies.tmuxClientFeatures = nil
        #expect(Capabilities.decide(replies: replies, window: nil, environment: environment, choice: .auto).mode.isSixel)
    }

    /// A focused tile on the grid's bottom row, where the frame's bottom side lies on the tile's
    /// own last row: its badge stays readable. The amber side (a picture above the tiles) leaves
    /// the badge's cells, and the badge is written after the frame.
    @Test func aFocusedTileAtTheBottomEdgeKeepsItsBadgeReadable() {
        let (_, picture) = Self.picture(width: 40, height: 40)
        var tile = PaintTile(photo: 0, column: 10, row: 6, width: 10, rows: 4, content: .image(request(0), .kitty(picture)), name: "v.mp4")
        tile.badges = "video"
        let focus = FocusMarker(tile: tile, gridRows: 10, screenColumns: 40)
        #expect(focus.bottomOnTile)
        var painter = GridPainter(canvas: KittyFormat(transfer: .inline).makeCanvas())
        let text = String(decoding: painter.paint([tile], focus: focus), as: UTF8.self)
        // The bottom side over the tile (row 10 on screen) stops before the badge's 7 cells:
        // columns 10-12 of the tile's 20-ish wide row, then the gap cell at the right.
        let bottom = FocusMarker(tile: tile, gridRows: 10, screenColumns: 40).sidesOverTile(leaving: tile.badgeCells)
        #expect(bottom.contains { $0.row == 9 && $0.column == 9 && $0.columns == 4 })
        #expect(bottom.contains { $0.row == 9 && $0.column == 20 && $0.columns == 1 })
        #expect(!bottom.contains { $0.row == 9 && $0.column + $0.columns > 13 && $0.column < 20 })
        // The badge is the last thing written on its row.
        let badge = text.range(of: " video ", options: .backwards)
        let lastFrame = text.range(of: "a=p,i=", options: .backwards)
        #expect(badge != nil && lastFrame != nil && badge!.lowerBound > lastFrame!.lowerBound)
    }
}
