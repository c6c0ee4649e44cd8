import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
import PhotoGridTestFixtures

/// AVIF's pictures through libavif (and dav1d), checked against the source and against libheif,
/// which reads the same files and stays for what libavif cannot. The files are made with
/// libheif's encoder, so the container's transforms are written by another library than the one
/// that reads them here.
@Suite struct AVIFTests {
    @Test func libavifIsTheOneTheBuildExpects() {
        // scripts/setup installs libavif-dev; without it AVIF falls back to libheif, slower.
        #expect(AVIF.isAvailable)
    }

    /// All eight orientations, written as `irot` and `imir` boxes. libavif hands over mirrors and
    /// half turns, which AVIF.swift applies; quarter turns are left to libheif (`quarterTurned`
    /// says why). Either way the picture comes out upright, as libheif shows it.
    @Test(arguments: 1...8)
    func theContainersTransformsTurnThePictureAsLibheifDoes(orientation: Int) throws {
        let upright = TestImages.quadrants(width: 96, height: 64)
        let turn = try #require(Orientation(rawValue: orientation))
        let data = try #require(HEIF.encode(turn.stored(from: upright), avif: true, quality: 95, orientation: orientation))
        let theirs = try #require(try HEIF.decode(data))
        let mine = try AVIF.decode(data, shrink: 1)
        #expect((mine == nil) == turn.swapsAxes, "orientation \(orientation)")
        let shown = try PhotoDecoder().decode(data, covering: 64, atMost: 64).image
        for image in [mine, shown].compactMap({ $0 }) {
            try #require(image.width == 96 && image.height == 64, "orientation \(orientation): \(image.width)x\(image.height)")
            #expect(TestImages.meanAbsoluteError(image, upright) < 6, "orientation \(orientation)")
            #expect(TestImages.meanAbsoluteError(image, theirs) < 3, "orientation \(orientation)")
        }
    }

    /// The matrix and range come from the file's `nclx`; a wrong one shifts every colour.
    @Test(arguments: [(6, true), (1, false), (9, true), (1, true)])
    func coloursComeBackWhateverTheMatrixAndRange(matrix: Int, fullRange: Bool) throws {
        let source = TestImages.quadrants(width: 128, height: 96)
        let data = try #require(HEIF.encode(source, avif: true, quality: 95, matrix: matrix, fullRange: fullRange))
        let image = try #require(try AVIF.decode(data, shrink: 1))
        #expect(TestImages.meanAbsoluteError(image, source) < 4, "matrix \(matrix), full range \(fullRange)")
        for (x, y) in [(16, 16), (112, 16), (16, 80), (112, 80)] {
            let (a, b) = (image[x, y], source[x, y])
            #expect(abs(Int(a.r) - Int(b.r)) < 8 && abs(Int(a.g) - Int(b.g)) < 8 && abs(Int(a.b) - Int(b.b)) < 8,
                    "matrix \(matrix), full range \(fullRange): \(a) for \(b)")
        }
    }

    /// Shrunk while converted, by even and odd factors, on sizes whose chroma is rounded up: each
    /// result close to the source averaged the same way, and to libheif's picture shrunk after.
    @Test(arguments: [1, 2, 3, 4])
    func shrinkingWhileConvertingKeepsThePicture(shrink: Int) throws {
        let source = TestImages.gradient(width: 97, height: 61)
        let data = try #require(HEIF.encode(source, avif: true, quality: 95))
        let image = try #require(try AVIF.decode(data, shrink: shrink))
        #expect(image.width == 97 / shrink && image.height == 61 / shrink)
        let theirs = try #require(try HEIF.decode(data, shrink: shrink))
        #expect(TestImages.meanAbsoluteError(image, theirs) < 3, "shrink \(shrink)")
        // The route photogrid takes for a tile gives libavif's picture.
        let tile = try PhotoDecoder().decode(data, covering: 61 / shrink, atMost: 61 / shrink)
        #expect(tile.image == image, "shrink \(shrink)")
    }

    @Test func transparencyIsCompositedOntoTheSameGreyAsPNG() throws {
        let source = RGBImage(width: 32, height: 32, fill: RGB(200, 40, 40))
        let alpha = (0..<(32 * 32)).map { $0 % 32 < 16 ? UInt8(255) : 0 }
        let data = try #require(HEIF.encode(source, avif: true, quality: 100, alpha: alpha))
        let image = try #require(try AVIF.decode(data, shrink: 1))
        let grey = RGB(UInt8(PNG.background.r), UInt8(PNG.background.g), UInt8(PNG.background.b))
        func near(_ a: RGB, _ b: RGB) -> Bool { abs(Int(a.r) - Int(b.r)) < 12 && abs(Int(a.g) - Int(b.g)) < 12 && abs(Int(a.b) - Int(b.b)) < 12 }
        #expect(near(image[4, 16], RGB(200, 40, 40)))
        #expect(near(image[28, 16], grey))
        // Shrunk by 2, a block half covered is half the colour and half the grey.
        let half = try #require(try AVIF.decode(data, shrink: 32))
        #expect(near(half[0, 0], RGB(164, 84, 84)), "\(half[0, 0])")
    }

    // No 10-bit AVIF is made here: Debian 12's libaom, asked through libheif for one, fails an
    // assertion and aborts the process. Deep samples take the same converter as a 10-bit HEIC
    // (HEIFTests.tenBitSamplesAreReducedToTheSameLevels).

    /// A file cut short says so; damage gives an error or a picture (from libavif or libheif),
    /// never a crash; a header past the limit is refused before its pixels are decoded.
    @Test func damagedFilesGiveReasonsNotCrashes() throws {
        let data = try #require(HEIF.encode(TestImages.gradient(width: 64, height: 64), avif: true, quality: 80))
        #expect(throws: DecodeError.truncatedFile(format: "AVIF")) { try AVIF.decode(Array(data.prefix(data.count - 100)), shrink: 1) }
        for length in [20, 200, data.count - 100] {
            #expect(throws: DecodeError.self) { try PhotoDecoder().decode(Array(data.prefix(length)), covering: 32, atMost: 64) }
        }
        for at in stride(from: 16, to: data.count, by: 5) {
            var damaged = data
            damaged[at] ^= 0x5A
            _ = try? PhotoDecoder().decode(damaged, covering: 32, atMost: 64)
        }
        #expect(try AVIF.decode(data, shrink: 1, maxPixels: 64 * 63) == nil)
    }
}
