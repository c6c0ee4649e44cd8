import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

@Suite struct RenderingTests {
    @Test func sixelDecodesBackToTheSourcePixels() throws {
        let source = TestImages.gradient(width: 120, height: 90)
        let sixel = try Sixel.encode(source, colors: 256)
        #expect(sixel.starts(with: [0x1B, UInt8(ascii: "P")]))
        #expect(sixel.suffix(2) == [0x1B, UInt8(ascii: "\\")])
        let back = try #require(Sixel.decode(sixel))
        #expect(back.width == 120 && back.height == 90)
        // 256 adaptive colours with dithering: close on average, and no pixel far off.
        #expect(TestImages.meanAbsoluteError(source, back) < 6)
        let quadrants = TestImages.quadrants(width: 60, height: 48)
        let exact = try #require(Sixel.decode(try Sixel.encode(quadrants)))
        // libsixel keeps 5 bits per channel in its palette: flat colours within half a step (4).
        #expect(TestImages.meanAbsoluteError(quadrants, exact) <= 4)
        #expect(exact[5, 5].r > 200 && exact[55, 5].g > 180 && exact[5, 40].b > 200)
    }

    @Test func sixelTileIsCutWhereTheScreenEnds() throws {
        let image = TestImages.quadrants(width: 40, height: 60)
        let request = TileRequest(photo: 0, width: 40, height: 60, fit: .fill, mode: .sixel(colors: 256), keptRows: 24)
        guard case .sixel(let bytes) = TileEncoder().encode(image, for: request) else { Issue.record("not sixel"); return }
        let back = try #require(Sixel.decode(bytes))
        #expect(back.width == 40 && back.height == 24)
        #expect(TestImages.meanAbsoluteError(image.topRows(24), back) <= 4)
    }

    @Test func largeSixelPicturesComeInBandsThatStartOnCellRows() throws {
        let source = TestImages.gradient(width: 1000, height: 1010)
        var request = TileRequest(photo: 0, width: 1000, height: 1010, fit: .fit, mode: .sixel(colors: 256),
                                  crop: CropRegion(x: 0, y: 0, width: 1, height: 1))
        request.sixelCut = SixelCut(cellWidth: 10, cellHeight: 20)
        request.encodeInBands = true
        guard case .sixelBands(let pieces) = TileEncoder().encode(source, for: request) else { Issue.record("one piece"); return }
        let rows = Array(Set(pieces.map(\.row))).sorted()
        #expect(rows.count == WorkerThreads.cores && rows.first == 0)
        try expectPieces(pieces, rebuild: source, cellWidth: 10, cellHeight: 20, largest: (200, 1010))
        // Each band of rows is as wide as the picture, in strips.
        for row in rows { #expect(pieces.filter { $0.row == row }.count == 5) }
    }

    /// libsixel writes narrow pictures faster: a grid tile goes as strips on cells, no wider than
    /// `TileEncoder.stripPixels`, one palette and one dithering for the whole tile, so that the
    /// strips side by side show what one picture would.
    @Test func sixelTilesComeAsStripsThatShowWhatOnePictureWould() throws {
        let source = TestImages.gradient(width: 790, height: 800)
        var request = TileRequest(photo: 0, width: 790, height: 800, fit: .fill, mode: .sixel(colors: 256), keptRows: 530)
        request.sixelCut = SixelCut(cellWidth: 9, cellHeight: 20)
        guard case .sixelBands(let strips) = TileEncoder().encode(source, for: request) else { Issue.record("one piece"); return }
        #expect(strips.count == 4 && strips.allSatisfy { $0.row == 0 })
        let kept = source.topRows(530)
        try expectPieces(strips, rebuild: kept, cellWidth: 9, cellHeight: 20, largest: (198, 530))
        let whole = try #require(Sixel.decode(try Sixel.encode(kept)))
        var rebuilt = RGBImage(width: 790, height: 530)
        for strip in strips { rebuilt.draw(try #require(Sixel.decode(strip.bytes)), atX: strip.column * 9, y: 0) }
        #expect(rebuilt == whole)  // the same palette and dithering: the same pixels, no seam
        // Without a cut (--print) a tile is one picture whatever its size.
        if case .sixel = TileEncoder().encode(source, for: TileRequest(photo: 0, width: 790, height: 800, fit: .fill, mode: .sixel(colors: 256))) {} else { Issue.record("cut") }
    }

    /// xterm's default limit (XTSMGRAPHICS says 1000x800 in a 120x40 window of 10x20 cells): it
    /// draws nothing of a wider or taller picture, so pictures past it go in pieces that fit.
    @Test(arguments: [true, false])
    func picturesLargerThanTheTerminalDrawsComeInPiecesThatFit(zoom: Bool) throws {
        let (width, height) = zoom ? (1200, 780) : (1180, 1180)
        let source = TestImages.gradient(width: width, height: height)
        var request = TileRequest(photo: 0, width: width, height: height, fit: .fit, mode: .sixel(colors: 256),
                                  crop: CropRegion(x: 0, y: 0, width: 1, height: 1))
        request.sixelCut = SixelCut(cellWidth: 10, cellHeight: 20, maxWidth: 1000, maxHeight: 800)
        request.encodeInBands = zoom
        guard case .sixelBands(let pieces) = TileEncoder().encode(source, for: request) else { Issue.record("one piece"); return }
        #expect(pieces.count == (zoom ? 6 : 12))  // 200-pixel strips; 1180 rows need two bands of at most 800
        try expectPieces(pieces, rebuild: source, cellWidth: 10, cellHeight: 20, largest: (200, 800))
    }

    /// Pieces start on cells, are no larger than `largest`, and put back together cover the
    /// picture exactly (no overlap, no hole) and show it.
    private func expectPieces(_ pieces: [SixelBand], rebuild source: RGBImage, cellWidth: Int, cellHeight: Int,
                              largest: (width: Int, height: Int)) throws {
        var covered = RGBImage(width: source.width, height: source.height, fill: RGB(255, 0, 255))
        var area = 0
        for piece in pieces {
            let back = try #require(Sixel.decode(piece.bytes))
            #expect(back.width <= largest.width && back.height <= largest.height, "a piece of \(back.width)x\(back.height)")
            let (x, y) = (piece.column * cellWidth, piece.row * cellHeight)
            #expect(x + back.width <= source.width && y + back.height <= source.height)
            covered.draw(back, atX: x, y: y)
            area += back.width * back.height
        }
        #expect(area == source.width * source.height)
        #expect(TestImages.meanAbsoluteError(source, covered) < 6)
    }

    @Test(arguments: [HalfBlock.Colors.trueColor, .palette256])
    func halfBlocksParseBackToTheSourcePixels(colors: HalfBlock.Colors) throws {
        let source = TestImages.gradient(width: 30, height: 20)
        let lines = HalfBlock.encode(source, colors: colors)
        #expect(lines.count == 10)
        let back = try #require(HalfBlockReader.pixels(lines, colors: colors))
        #expect(back.width == 30 && back.height == 20)
        if colors == .trueColor {
            #expect(back == source)
        } else {
            var shown = source
            for y in 0..<20 { for x in 0..<30 { shown[x, y] = XtermPalette.color(XtermPalette.nearest(source[x, y])) } }
            #expect(back == shown)
            #expect(TestImages.meanAbsoluteError(source, back) < 25)
        }
    }

    @Test func palette256MapsToTheNearestEntry() {
        #expect(XtermPalette.nearest(RGB(0, 0, 0)) == 16)
        #expect(XtermPalette.nearest(RGB(255, 255, 255)) == 231)
        #expect(XtermPalette.nearest(RGB(255, 0, 0)) == 196)
        #expect(XtermPalette.color(196) == RGB(255, 0, 0))
        #expect(XtermPalette.nearest(RGB(128, 128, 128)) == 244)     // grey ramp: 8 + 10 * 12 = 128
        for index in 16...255 { #expect(XtermPalette.nearest(XtermPalette.color(index)) == index || XtermPalette.color(XtermPalette.nearest(XtermPalette.color(index))) == XtermPalette.color(index)) }
    }

    @Test func placeholdersAreTheTileSizeAndCarryTheReason() {
        let lines = Placeholder.cells(width: 20, rows: 5, lines: ["corrupt JPEG", "bad.jpg"], colors: .trueColor)
        #expect(lines.count == 5)
        let text = lines.map { String(decoding: $0, as: UTF8.self) }
        #expect(text[1].contains("corrupt JPEG") && text[2].contains("bad.jpg"))
        for line in text {
            let visible = line.replacing(/\u{1B}\[[0-9;]*m/, with: "")
            #expect(visible.count == 20)
        }
    }

    @Test func aLongReasonWrapsAboveTheName() {
        #expect(Placeholder.lines(reason: "unsupported format (PNG)", name: "png-named-jpg.jpg", width: 20, rows: 10)
                == ["unsupported format", "(PNG)", "png-named-jpg.jpg"])
        #expect(Placeholder.lines(reason: "corrupt JPEG", name: "a.jpg", width: 20, rows: 10) == ["corrupt JPEG", "a.jpg"])
        // Three lines at most; the last takes the rest, which cells() cuts with ~.
        #expect(Placeholder.lines(reason: "one two three four five", name: "n", width: 5, rows: 10)
                == ["one", "two", "three four five", "n"])
        // A tile of two rows keeps one for the reason, a tile of one row only the reason.
        #expect(Placeholder.lines(reason: "server said 404 (not found)", name: "n", width: 10, rows: 2) == ["server said 404 (not found)", "n"])
        #expect(Placeholder.lines(reason: "corrupt JPEG", name: "n", width: 10, rows: 1) == ["corrupt JPEG"])
        // Control characters in a reason (a server's words) are made inert before wrapping.
        #expect(Placeholder.lines(reason: "said \u{1B}]0;x\u{07}", name: "n", width: 30, rows: 4) == ["said ^[]0;x^G", "n"])
    }

    @Test func printedHalfBlockFramesArePlainLines() {
        let ops = [PaintOp(row: 0, column: 2, bytes: Array("ab".utf8), cells: 2),
                   PaintOp(row: 1, column: 0, bytes: Array("c".utf8), cells: 1),
                   PaintOp(row: 1, column: 3, bytes: Array("d".utf8), cells: 1)]
        let text = String(decoding: PrintComposer.lines(ops, rows: 3), as: UTF8.self)
        #expect(text == "  ab\u{1B}[0m\nc  d\u{1B}[0m\n\u{1B}[0m\n")
    }

    @Test func aRelativeFrameWrittenInPiecesIsTheWholeFrame() {
        // --print writes a sheet a tile at a time: the pieces must add up to the frame at once.
        let ops = [PaintOp(row: 0, column: 0, bytes: Array("a".utf8), cells: 1),
                   PaintOp(row: 2, column: 5, bytes: Array("b".utf8), cells: 1),
                   PaintOp(row: 9, column: 1, bytes: Array("off the frame".utf8), cells: 13)]
        var pieces = PrintComposer.start(rows: 3)
        for op in ops { PrintComposer.append(op, rows: 3, to: &pieces) }
        pieces += PrintComposer.end(rows: 3)
        #expect(pieces == PrintComposer.relative(ops, rows: 3))
        #expect(String(decoding: pieces, as: UTF8.self)
            == "\n\n\r\u{1B}[2A\u{1B}7a\u{1B}[0m\u{1B}8\u{1B}7\u{1B}[2B\u{1B}[5Cb\u{1B}[0m\u{1B}8\u{1B}[2B\r\n")
    }
}

@Suite struct TerminalTextTests {
    @Test func controlSequencesInNamesAreShownInert() {
        let hostile = "a\u{1B}]0;pwned\u{07}b\u{1B}P1$qm\u{1B}\\c\u{9B}31m\u{202E}gpj.exe"
        let safe = TerminalText.sanitize(hostile)
        #expect(!safe.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F || (0x80...0x9F).contains($0.value) })
        #expect(!safe.unicodeScalars.contains { $0.value == 0x202E })
        #expect(safe.hasPrefix("a^[]0;pwned^Gb^[P1$qm^[\\c<9B>31m?gpj.exe"))
    }

    @Test func clippingCountsCellsAndMarksTheCut() {
        #expect(TerminalText.clip("holiday-2024.jpg", to: 8) == "holiday~")
        #expect(TerminalText.clip("short", to: 8) == "short")
        #expect(TerminalText.width("写真.jpg") == 8)
        #expect(TerminalText.width(TerminalText.clip("写真写真写真.jpg", to: 7)) <= 7)
    }
}

@Suite struct StatusLineTests {
    let parts = [StatusLine.Part("Holidays 2024", dropOrder: 3), StatusLine.Part("beach/IMG_0042.jpg"),
                 StatusLine.Part("42 of 512"), StatusLine.Part("4 columns", dropOrder: 1),
                 StatusLine.Part("half-block 256", dropOrder: 2), StatusLine.Part("loading 12")]

    @Test func everythingAndTheHintsWhenThereIsRoom() {
        let text = StatusLine.compose(parts, hint: "q quit ", width: 160)
        #expect(TerminalText.width(text) == 160)
        #expect(text.hasPrefix(" Holidays 2024  ·  beach/IMG_0042.jpg  ·  42 of 512  ·  4 columns  ·  half-block 256  ·  loading 12"))
        #expect(text.hasSuffix("q quit "))
    }

    @Test func aNarrowScreenDropsTheFolderThenTheModeButKeepsLoading() {
        // The folder's name makes room for the keys; then a shorter hint; then none.
        #expect(StatusLine.compose(parts, hint: "q quit ", width: 90)
                == " beach/IMG_0042.jpg  ·  42 of 512  ·  4 columns  ·  half-block 256  ·  loading 12  q quit ")
        #expect(StatusLine.compose(parts, hint: "? keys  a fit  q quit ", shortHint: "? keys ", width: 90)
                == " beach/IMG_0042.jpg  ·  42 of 512  ·  4 columns  ·  half-block 256  ·  loading 12  ? keys ")
        #expect(StatusLine.compose(parts, hint: "q quit ", width: 84)
                == " beach/IMG_0042.jpg  ·  42 of 512  ·  4 columns  ·  half-block 256  ·  loading 12")
        #expect(StatusLine.compose(parts, hint: nil, width: 70) == " beach/IMG_0042.jpg  ·  42 of 512  ·  4 columns  ·  loading 12")
        #expect(StatusLine.compose(parts, hint: nil, width: 56) == " beach/IMG_0042.jpg  ·  42 of 512  ·  loading 12")
        // Past that, the end is cut.
        let tiny = StatusLine.compose(parts, hint: nil, width: 20)
        #expect(tiny == " beach/IMG_0042.jp~" && TerminalText.width(tiny) == 19)
    }

    @Test func aNoticeLeavesThePartsWhereTheyWere() {
        let quiet = StatusLine.compose(parts, hint: "? keys  a fit  q quit ", shortHint: "? keys ", width: 135)
        let noticed = StatusLine.compose(parts, notice: "hidden files shown", hint: "? keys  a fit  q quit ", shortHint: "? keys ", width: 135)
        let before = " Holidays 2024  ·  beach/IMG_0042.jpg  ·  42 of 512  ·  4 columns  ·  half-block 256  ·  loading 12"
        #expect(quiet.hasPrefix(before) && noticed.hasPrefix(before + "  ·  hidden files shown"), "\(noticed)")
        // The hint gave way, not the folder's name.
        #expect(noticed.hasSuffix("? keys ") && !noticed.contains("q quit"), "\(noticed)")
        // A notice too long for the line drops parts, the most dispensable first.
        let long = StatusLine.compose(parts, notice: String(repeating: "w", count: 40), hint: "? keys ", width: 120)
        #expect(!long.contains("half-block") && long.contains("42 of 512"), "\(long)")
    }

    @Test func nothingIsSaidTwice() {
        let text = StatusLine.compose(parts + [StatusLine.Part("marked"), StatusLine.Part("marked")], notice: "marked", hint: nil, width: 200)
        #expect(text.components(separatedBy: "marked").count == 2, "\(text)")
    }

    @Test func textFromFilesIsMadeInert() {
        let text = StatusLine.compose([StatusLine.Part("evil\u{1B}]0;title\u{07}.jpg")], hint: nil, width: 80)
        #expect(!text.unicodeScalars.contains { $0.value < 0x20 || $0.value == 0x7F })
    }
}
