import Glibc
import Foundation
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridCore
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `--print` on sample-gallery, read back: half-block text parsed to pixels, sixel decoded by libsixel.
@Suite(.startsPrograms, .serialized) struct PrintTests {
    func split(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    }

    func sixels(_ bytes: [UInt8]) -> [[UInt8]] { TerminalOutput.sixels(bytes) }

    @Test func halfBlockFrameMatchesTheDecodedPhotos() throws {
        let (status, out, error) = try Paths.photogrid(["--print", "--mode", "halfblock", "--size", "80x24", "--columns", "4",
                                                        "--labels", Paths.gallery], environment: ["COLORTERM": "truecolor"])
        #expect(status == 0, "\(error)")
        let lines = split(out).dropLast()              // the output ends with a newline
        // Whole rows only, no status line: two rows of 10-row tiles, each with its names below.
        #expect(lines.count == 22)
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let labels = String(decoding: lines[10], as: UTF8.self)
        let names = photos.prefix(4).map(\.name)
        #expect(names.allSatisfy { labels.contains(String($0.prefix(19))) }, "\(labels)")
        #expect(!String(decoding: out, as: UTF8.self).contains("columns"), "a status line is in the contact sheet")
        // The first tile: 20 cells wide (80 - 3 = 77 = 4 x 19 + 1), 10 rows; its lines start each grid line.
        let layout = GridLayout(screen: ScreenMetrics(columns: 80, rows: 24), columns: 4)
        let frame = layout.frames[0]
        let tileLines = lines.prefix(layout.tileRows).map { line -> [UInt8] in
            // Cut each printed line after the tile's cells: its SGR-coded cells end with a reset.
            let text = String(decoding: line, as: UTF8.self)
            let cells = text.components(separatedBy: "\u{1B}[0m")[0] + "\u{1B}[0m"
            return Array(cells.utf8)
        }
        let shown = try #require(HalfBlockReader.pixels(tileLines, colors: .trueColor))
        #expect(shown.width == frame.width && shown.height == layout.tileRows * 2)
        // What the pipeline makes: the tier image covering the tile, then cropped to it.
        let (w, h) = (frame.width, layout.tileRows * 2)
        let tier = try PhotoDecoder().image(of: photos[0], covering: max(w, h), atMost: Tier.covering(max(w, h)).size).image
        let expected = PhotoDecoder.shape(tier, width: w, height: h, fit: .fill)
        #expect(shown == expected)
    }

    @Test func sixelFrameDecodesToTheTiles() throws {
        let (status, out, error) = try Paths.photogrid(["--print", "--mode", "sixel", "--size", "120x40", "--cell-size", "10x20",
                                                        "--columns", "5", Paths.gallery])
        #expect(status == 0, "\(error)")
        let layout = GridLayout(screen: ScreenMetrics(columns: 120, rows: 40), columns: 5)
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        // Each tile comes as strips (TileEncoder.stripPixels): what the terminal shows is what counts.
        var screen = ScreenModel(columns: 120, rows: 41, cellWidth: 10, cellHeight: 20)  // and the line the cursor ends on
        screen.feed(out)
        #expect(screen.outOfBounds.isEmpty, "\(screen.outOfBounds)")
        let shown = screen.picturePixels()
        let visible = layout.visibleIndexes(topRow: 0, photos: photos.count)
        #expect(visible.count == 15)
        for index in visible {
            let place = try #require(layout.placement(of: index, topRow: 0))
            let (w, h) = layout.pixelSize(of: place.frame)
            let decoded = shown.region(x: place.frame.column * 10, y: place.row * 20, width: w, height: place.visibleRows * 20)
            let covered = (place.row..<(place.row + place.visibleRows)).allSatisfy { row in
                (place.frame.column..<(place.frame.column + place.frame.width)).allSatisfy {
                    if case .image = screen.cells[row][$0] { true } else { false }
                }
            }
            #expect(covered, "tile \(index) has cells no picture covers")
            // The sixel shows the photo's tile: close to the decoded, resampled pixels.
            if case .jpeg = photos[index].format,
               let tier = try? PhotoDecoder(usesThumbnails: false).image(of: photos[index], covering: max(w, h), atMost: Tier.covering(max(w, h)).size) {
                let tile = PhotoDecoder.shape(tier.image, width: w, height: h, fit: .fill)
                #expect(TestImages.meanAbsoluteError(tile.topRows(decoded.height), decoded) < 8)
            }
        }
    }

    /// To a terminal each tile is written as it is made, in whatever order the workers finish
    /// them: the screen is the one the whole frame (as a pipe gets it) makes.
    @Test func aSheetWrittenToATerminalAsItsTilesComeIsTheWholeFramesScreen() throws {
        let arguments = ["--print", "--mode", "sixel", "--size", "120x40", "--cell-size", "10x20", "--columns", "5", "--no-disk-cache", Paths.gallery]
        let (status, whole, error) = try Paths.photogrid(arguments)
        #expect(status == 0, "\(error)")
        let terminal = try PtyTerminal([Paths.binary] + arguments, columns: 120, rows: 40, kind: .text,
                                       environment: ["TERM": "xterm-256color", "PATH": "/usr/bin:/bin"], capture: true)
        defer { terminal.stop() }
        var exit: Int32 = 0
        while waitpid(terminal.pid, &exit, 0) < 0 && errno == EINTR {}
        #expect(exit == 0)
        #expect(terminal.waitForQuiet(0.5, limit: 20))
        // The pty turns each newline into CR LF, as a terminal's line discipline does.
        let streamed = terminal.takeCaptured()
        var fromPipe = ScreenModel(columns: 120, rows: 41, cellWidth: 10, cellHeight: 20)
        var fromTerminal = ScreenModel(columns: 120, rows: 41, cellWidth: 10, cellHeight: 20)
        fromPipe.feed(whole)
        fromTerminal.feed(streamed)
        #expect(fromTerminal.outOfBounds.isEmpty, "\(fromTerminal.outOfBounds)")
        let same = fromTerminal.picturePixels() == fromPipe.picturePixels()
        #expect(same, "the terminal's screen is not the whole frame's")
        #expect(TerminalOutput.sixels(streamed).count == TerminalOutput.sixels(whole).count)
    }

    /// A sixel sheet's tiles reach the disk cache, though their files are written only once
    /// the sheet is (`holdStores`): the second run decodes nothing and reads every tile.
    @Test func aSixelSheetsTilesAreOnDiskForTheNextRun() throws {
        let home = TestImages.scratchFolder("xdg-sixel")
        defer { TestImages.remove(home) }
        let arguments = ["--print", "--mode", "sixel", "--size", "120x40", "--cell-size", "10x20", "--columns", "5", Paths.gallery]
        func run() throws -> ([UInt8], [String: Int]) {
            let stats = home + "/stats"
            let (status, out, error) = try Paths.photogrid(arguments, environment: ["XDG_CACHE_HOME": home, "PHOTOGRID_STATS": stats, "PATH": "/usr/bin:/bin"])
            #expect(status == 0, "\(error)")
            let text = String(decoding: try FileReader.read(RawPath(stats)), as: UTF8.self)
            let pairs = text.split(separator: "\n").compactMap { line -> (String, Int)? in
                let parts = line.split(separator: " ")
                return parts.count == 2 ? (String(parts[0]), Int(parts[1]) ?? -1) : nil
            }
            return (out, Dictionary(pairs, uniquingKeysWith: { a, _ in a }))
        }
        let (first, made) = try run()
        #expect((made["decodes"] ?? 0) > 0)
        let (second, read) = try run()
        #expect(read["decodes"] == 0 && read["encodes"] == 0, "\(read)")
        #expect(read["tiles-from-disk"] == made["encodes"], "\(made) then \(read)")
        let same = first == second
        #expect(same, "the sheet from the disk cache is not the sheet made fresh")
    }

    /// Every file's name, size and mtime below a folder.
    func listing(_ folder: String) throws -> String {
        String(decoding: try Subprocess.run(["find", folder, "-printf", "%p %s %T@\\n"]).output, as: UTF8.self)
    }

    @Test func aSecondRunReadsTheDiskCacheAndNothingIsWrittenBesideThePhotos() throws {
        let home = TestImages.scratchFolder("xdg")
        defer { TestImages.remove(home) }
        let before = try listing(Paths.gallery)
        let environment = ["XDG_CACHE_HOME": home, "PATH": "/usr/bin:/bin"]
        let arguments = ["--print", "--mode", "halfblock", "--size", "100x30", "--columns", "4", Paths.gallery]
        let (first, firstOut, _) = try Paths.photogrid(arguments, environment: environment)
        #expect(first == 0)
        let entries = try Subprocess.run(["find", home + "/photogrid", "-type", "f", "-name", "[0-9a-f]*"]).output
        let files = String(decoding: entries, as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(!files.isEmpty)
        // Age the entries, run again: the second run reads its encoded tiles (a hit refreshes an
        // entry's mtime; the tier images under them are not needed) and makes nothing new, so
        // no entry is added.
        _ = try Subprocess.run(["touch", "-d", "2020-01-01"] + files)
        let (second, secondOut, _) = try Paths.photogrid(arguments, environment: environment)
        #expect(second == 0)
        func cached(_ extra: [String] = []) throws -> Int {
            String(decoding: try Subprocess.run(["find", home + "/photogrid", "-type", "f", "-name", "[0-9a-f]*"] + extra).output,
                   as: UTF8.self).split(separator: "\n").count
        }
        #expect(try cached() == files.count)
        let read = try cached(["-newermt", "2021-01-01"])
        #expect(read > 0 && read < files.count, "\(read) of \(files.count) entries read")
        #expect(firstOut == secondOut)
        // --no-disk-cache neither reads nor writes it.
        let other = TestImages.scratchFolder("xdg-off")
        defer { TestImages.remove(other) }
        let (third, _, _) = try Paths.photogrid(["--no-disk-cache"] + arguments, environment: ["XDG_CACHE_HOME": other])
        #expect(third == 0)
        #expect(try Subprocess.run(["find", other, "-mindepth", "1"]).output.isEmpty)
        // And the photos' folder is exactly as it was.
        #expect(try listing(Paths.gallery) == before)
    }

    /// `--print` of one file whose name says nothing: a PNG is drawn, a text file refused.
    @Test func aSingleFileIsWhatItsFirstBytesSay() throws {
        let folder = TestImages.scratchFolder("print-sniff")
        defer { TestImages.remove(folder) }
        let png = try #require(PNG.encode(TestImages.gradient(width: 300, height: 200)))
        TestImages.write(png, to: folder + "/IMG_0001")
        TestImages.write(Array("not a picture\n".utf8), to: folder + "/notes")
        let (status, out, error) = try Paths.photogrid(["--print", "--mode", "sixel", "--size", "60x20", "--cell-size", "10x20", folder + "/IMG_0001"])
        #expect(status == 0, "\(error)")
        let decoded = try #require(sixels(out).first.flatMap(Sixel.decode))
        #expect(decoded.width == 600 && decoded.height <= 400)
        let (refused, _, message) = try Paths.photogrid(["--print", "--mode", "sixel", "--size", "60x20", folder + "/notes"])
        #expect(refused != 0 && message.contains("unsupported format"), "\(message)")
    }

    @Test func aSinglePhotoIsFittedToTheWholeArea() throws {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let path = photos.first { $0.format == .jpeg }!.source.description
        let (status, out, _) = try Paths.photogrid(["--print", "--mode", "sixel", "--size", "60x20", "--cell-size", "10x20", path])
        #expect(status == 0)
        let images = sixels(out)
        #expect(images.count == 1)
        let decoded = try #require(Sixel.decode(images[0]))
        // Fitted inside 600x400 pixels, touching two opposite edges.
        #expect(decoded.width <= 600 && decoded.height <= 400)
        #expect(decoded.width == 600 || decoded.height == 400)
        let (hb, text, _) = try Paths.photogrid(["--print", "--mode", "halfblock", "--size", "60x20", path])
        #expect(hb == 0)
        let lines = split(text).dropLast()
        #expect(lines.count <= 20 && lines.count >= 1)
    }
}
