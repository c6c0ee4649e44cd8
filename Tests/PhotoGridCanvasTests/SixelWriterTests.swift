import Dispatch
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// photogrid's sixel writer draws, pixel for pixel, what libsixel's does from the same palette and
/// dithering: each read back through libsixel's decoder, the oracle.
struct SixelWriterTests {
    /// A photo-like picture: a gradient with noise, so that dithering makes short runs.
    static func picture(width: Int, height: Int, seed: UInt64) -> RGBImage {
        var state = seed
        func next() -> Int { state = state &* 6364136223846793005 &+ 1442695040888963407; return Int(state >> 59) }
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGB(UInt8(clamping: x * 255 / max(1, width - 1) + next()), UInt8(clamping: y * 255 / max(1, height - 1) - next()),
                                  UInt8(clamping: (x + y) * 120 / max(1, width + height) + next() * 3))
            }
        }
        return image
    }

    /// Where two pictures first differ, if they do: a short message rather than every pixel.
    static func firstDifference(_ a: RGBImage, _ b: RGBImage) -> String? {
        guard a.width == b.width, a.height == b.height else { return "\(a.width)x\(a.height) against \(b.width)x\(b.height)" }
        for y in 0..<a.height {
            for x in 0..<a.width where a[x, y] != b[x, y] { return "(\(x), \(y)): \(a[x, y]) against \(b[x, y])" }
        }
        return nil
    }

    @Test(arguments: [(1, 1), (1, 7), (5, 6), (33, 13), (200, 200), (390, 400), (17, 250)])
    func bothWritersDrawTheSamePixels(size: (Int, Int)) throws {
        let (width, height) = size
        for colors in [2, 16, 256] {
            let image = Self.picture(width: width, height: height, seed: UInt64(width * 1000 + height + colors))
            let ours = try Sixel.encode(image, colors: colors, writer: .photogrid)
            let theirs = try Sixel.encode(image, colors: colors, writer: .libsixel)
            let a = try #require(Sixel.decode(ours), "\(width)x\(height), \(colors) colours: ours does not decode")
            let b = try #require(Sixel.decode(theirs))
            #expect(a.width == width && a.height == height)
            // libsixel's own writer draws a 1x1 picture seven pixels tall (six of them dark red,
            // read back by its decoder); ours draws the one pixel.
            if width * height == 1 {
                #expect(b.pixels.suffix(3).elementsEqual(a.pixels))
                let pixel = image[0, 0]
                #expect(zip(a.pixels, [pixel.r, pixel.g, pixel.b]).allSatisfy { abs(Int($0) - Int($1)) <= 3 }, "\(a.pixels) for \(pixel)")
                continue
            }
            #expect(Self.firstDifference(a, b) == nil, "\(width)x\(height), \(colors) colours")
            // The same frame around the data: a DCS sixel sequence with its size.
            #expect(ours.starts(with: Array("\u{1B}Pq\"1;1;\(width);\(height)".utf8)) && ours.suffix(2).elementsEqual([0x1B, 0x5C]))
        }
    }

    /// Strips cut from one dithering, each written from its own columns of the indices.
    @Test func stripsDrawTheirOwnColumns() throws {
        let image = Self.picture(width: 410, height: 97, seed: 7)
        let edges = [0, 200, 400, 410]
        let ours = try Sixel.encode(image, columns: edges, writer: .photogrid)
        let theirs = try Sixel.encode(image, columns: edges, writer: .libsixel)
        #expect(ours.count == 3)
        for (k, (a, b)) in zip(ours, theirs).enumerated() {
            let x = try #require(Sixel.decode(a)), y = try #require(Sixel.decode(b))
            #expect(x.width == edges[k + 1] - edges[k] && x.height == 97)
            #expect(Self.firstDifference(x, y) == nil, "strip \(k)")
        }
    }

    /// One colour: a band is one line of runs, `!count` from four on.
    @Test func runsAreCounted() throws {
        var image = RGBImage(width: 10, height: 6)
        for y in 0..<6 { for x in 0..<10 { image[x, y] = RGB(200, 10, 10) } }
        let bytes = try Sixel.encode(image, colors: 2, diffusion: .none, writer: .photogrid)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.contains("!10~"), "\(text)")
        #expect(!text.contains("-"), "one band, no band break: \(text)")
    }

    /// A band dithered mostly from one colour: that colour is painted over the whole band first
    /// (`!width~`) and the other over it, and it comes out the same pixels in fewer bytes than
    /// libsixel's writer, which writes each colour's own sixels. The commonest colour is `#0`.
    @Test func aCommonColourIsPaintedFirstOverTheBand() throws {
        var image = RGBImage(width: 90, height: 12)
        var state: UInt64 = 5
        for y in 0..<12 {
            for x in 0..<90 {
                state = state &* 6364136223846793005 &+ 1442695040888963407
                image[x, y] = state >> 62 == 0 ? RGB(20, 20, 220) : RGB(220, 20, 20)
            }
        }
        let ours = try Sixel.encode(image, colors: 2, diffusion: .none, writer: .photogrid)
        let theirs = try Sixel.encode(image, colors: 2, diffusion: .none, writer: .libsixel)
        let text = String(decoding: ours, as: UTF8.self)
        #expect(text.contains("#0!90~$"), "\(text)")
        // The red, three pixels in four, is colour 0 (in percent: red high, blue low).
        let zero = try #require(text.split(separator: "#").first { $0.hasPrefix("0;2;") })
        let percent = zero.split(separator: ";").compactMap { Int($0) }
        #expect(percent.count == 5 && percent[2] > 80 && percent[4] < 20, "\(zero)")
        let a = try #require(Sixel.decode(ours)), b = try #require(Sixel.decode(theirs))
        #expect(Self.firstDifference(a, b) == nil)
        #expect(ours.count * 10 < theirs.count * 8, "\(ours.count) bytes against libsixel's \(theirs.count)")
    }

    /// A fill covers only the rows a band has: the last band of a picture 8 rows tall is two rows,
    /// so its fill is `!width` of sixel 3 (`B`), not of the six rows `~`, which would paint below it.
    @Test func aFillInTheLastBandCoversItsRowsOnly() throws {
        var image = RGBImage(width: 40, height: 8)
        for y in 0..<8 { for x in 0..<40 { image[x, y] = (x * 7 + y * 3) % 5 == 0 ? RGB(10, 200, 10) : RGB(240, 240, 240) } }
        let ours = try Sixel.encode(image, colors: 2, diffusion: .none, writer: .photogrid)
        let text = String(decoding: ours, as: UTF8.self)
        let lastBand = try #require(text.split(separator: "-").last)
        #expect(lastBand.contains("!40B"), "\(lastBand)")
        let back = try #require(Sixel.decode(ours))
        #expect(back.width == 40 && back.height == 8)
        let theirs = try #require(Sixel.decode(try Sixel.encode(image, colors: 2, diffusion: .none, writer: .libsixel)))
        #expect(Self.firstDifference(back, theirs) == nil)
    }

    /// Palettes built on several threads at once come out as they do one at a time: libsixel's
    /// median cut keeps the plane it sorts by in a static variable (Sixel.paletteLock).
    @Test func encodesOnSeveralThreadsAreTheSameAsOneAtATime() throws {
        let pictures = (0..<4).map { Self.picture(width: 200, height: 180, seed: UInt64(40 + $0)) }
        let alone = try pictures.map { try Sixel.encode($0) }
        let results = Locked([Int: [UInt8]]())
        DispatchQueue.concurrentPerform(iterations: 24) { k in
            let bytes = (try? Sixel.encode(pictures[k % 4])) ?? []
            results.withLock { $0[k] = bytes }
        }
        let together = results.withLock { $0 }
        #expect((0..<24).filter { together[$0] != alone[$0 % 4] }.isEmpty)
    }
}

/// photogrid's Floyd-Steinberg dithering (`SixelDither`) makes libsixel's indices, byte for byte
/// the same sixels, on pictures with short runs and on photos.
struct SixelDitherTests {
    @Test func theSameIndicesAsLibsixel() throws {
        let sizes: [(width: Int, height: Int)] = [(1, 1), (2, 9), (33, 13), (200, 120), (17, 250), (401, 267)]
        var pictures: [RGBImage] = sizes.map { (size: (width: Int, height: Int)) -> RGBImage in
            SixelWriterTests.picture(width: size.width, height: size.height, seed: UInt64(size.width * 7 + size.height))
        }
        for name in ["travel/beach-01.jpg", "night/night-03.jpg", "landscapes/hills-01.jpg"] {
            let photo = Photo(path: RawPath(Paths.gallery + "/" + name), relativePath: RawPath(name))
            pictures.append(try PhotoDecoder().image(of: photo, covering: 300, atMost: 300).image)
        }
        for (k, image) in pictures.enumerated() {
            for colors in [3, 16, 128, 256] {
                let ours = try Sixel.encode(image, colors: colors, ditherer: .photogrid)
                let theirs = try Sixel.encode(image, colors: colors, ditherer: .libsixel)
                let same = ours == theirs
                #expect(same, "picture \(k) (\(image.width)x\(image.height)), \(colors) colours: \(ours.count) bytes against \(theirs.count)")
            }
        }
    }
}
