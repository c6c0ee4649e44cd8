import Foundation
import Testing
@testable import PhotoGridCore

/// `--print` on sample-gallery, read back: half-block text parsed to pixels, sixel decoded by libsixel.
@Suite(.serialized) struct PrintTests {
    func split(_ bytes: [UInt8]) -> [[UInt8]] {
        bytes.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).map(Array.init)
    }

    /// The DCS sixel sequences in a byte stream, in order.
    func sixels(_ bytes: [UInt8]) -> [[UInt8]] {
        var result: [[UInt8]] = []
        var i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x1B && bytes[i + 1] == UInt8(ascii: "P") {
                var j = i + 2
                while j + 1 < bytes.count && !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
                result.append(Array(bytes[i...min(j + 1, bytes.count - 1)]))
                i = j + 2
            } else { i += 1 }
        }
        return result
    }

    @Test func halfBlockFrameMatchesTheDecodedPhotos() throws {
        let (status, out, error) = try Paths.photogrid(["--print", "--mode", "halfblock", "--size", "80x24", "--columns", "4",
                                                        Paths.gallery], environment: ["COLORTERM": "truecolor"])
        #expect(status == 0, "\(error)")
        let lines = split(out).dropLast()              // the output ends with a newline
        #expect(lines.count == 24)
        let statusLine = String(decoding: lines.last!, as: UTF8.self)
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        #expect(statusLine.contains("1 of \(photos.count)") && statusLine.contains("4 columns"))
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
        let images = sixels(out)
        let visible = layout.visibleIndexes(topRow: 0, photos: photos.count)
        #expect(images.count == visible.count)
        for (k, index) in visible.enumerated() where k < images.count {
            let place = try #require(layout.placement(of: index, topRow: 0))
            let decoded = try #require(Sixel.decode(images[k]))
            let (w, h) = layout.pixelSize(of: place.frame)
            #expect(decoded.width == w && decoded.height == place.visibleRows * 20)
            // The sixel shows the photo's tile: close to the decoded, resampled pixels.
            if case .jpeg = photos[index].format,
               let tier = try? PhotoDecoder(usesThumbnails: false).image(of: photos[index], covering: max(w, h), atMost: Tier.covering(max(w, h)).size) {
                let tile = PhotoDecoder.shape(tier.image, width: w, height: h, fit: .fill)
                #expect(TestImages.meanAbsoluteError(tile.topRows(decoded.height), decoded) < 8)
            }
        }
    }

    @Test func aSinglePhotoIsFittedToTheWholeArea() throws {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let path = photos.first { $0.format == .jpeg }!.path.description
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
