import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// HEIC and AVIF through libheif: files are made with libheif's own encoders (x265, libaom), as
/// Debian builds it.
@Suite struct HEIFTests {
    @Test(arguments: [false, true])
    func decodesCloseToTheSource(avif: Bool) throws {
        let source = TestImages.gradient(width: 192, height: 128)
        let data = try #require(HEIF.encode(source, avif: avif, quality: 95))
        #expect(ImageFormat(content: Array(data.prefix(16))) == (avif ? .avif : .heif))
        let header = try HEIF.readHeader(data)
        #expect(header.width == 192 && header.height == 128 && header.thumbnail == nil)
        let image = try #require(try HEIF.decode(data))
        #expect(TestImages.meanAbsoluteError(image, source) < 4)
        try TestImages.expectDecodedWhateverTheName(data, of: source, names: avif ? ["a.avif", "A.AVIF", "avif-named.jpg", "no-extension"]
                                                                             : ["p.heic", "P.HEIF", "heic-named.png", "IMG_0001"])
    }

    /// The container's rotation (`irot`) is applied by libheif; an EXIF orientation saying the same
    /// must not turn the picture a second time, nor swap the details' size again.
    @Test func theContainersRotationCountsAndEXIFsIsNotAppliedAgain() throws {
        let upright = TestImages.quadrants(width: 64, height: 96)
        let stored = Orientation.right.stored(from: upright)
        let exif = ExifBuilder.tiff(ExifFields(orientation: 6, dateTimeOriginal: "2025:05:01 10:00:00", make: "Apple", model: "iPhone 15"))
        let data = try #require(HEIF.encode(stored, quality: 95, orientation: 6, exif: exif))
        let header = try HEIF.readHeader(data)
        #expect(header.width == 64 && header.height == 96)
        let decoded = try PhotoDecoder().decode(data, covering: 64, atMost: 64).image
        #expect(decoded.width == 64 && decoded.height == 96)
        #expect(TestImages.meanAbsoluteError(decoded, upright) < 6)

        let folder = TestImages.scratchFolder("heif-info")
        defer { TestImages.remove(folder) }
        TestImages.write(data, to: folder + "/turned.heic")
        let info = try #require(PhotoDecoder().info(of: Photo(path: RawPath(folder + "/turned.heic"), relativePath: RawPath("turned.heic"), format: .heif)))
        #expect(info.width == 64 && info.height == 96 && info.orientation == .up)
        #expect(info.dateTaken == "2025:05:01 10:00:00" && info.model == "iPhone 15")
    }

    /// A thumbnail large enough for the tile is used instead of the picture; a larger tile decodes
    /// the picture.
    @Test func theThumbnailServesSmallTiles() throws {
        let source = TestImages.quadrants(width: 640, height: 480)
        let data = try #require(HEIF.encode(source, quality: 90, thumbnail: 160))
        let header = try HEIF.readHeader(data)
        let small = try #require(header.thumbnail)
        #expect(max(small.width, small.height) == 160)
        let quick = try PhotoDecoder().decode(data, covering: 100, atMost: 128)
        #expect(quick.origin == .embeddedThumbnail && quick.image.height == 120)
        let full = try PhotoDecoder().decode(data, covering: 300, atMost: 480)
        #expect(full.origin != .embeddedThumbnail && full.image.height == 480 && full.isComplete)
        #expect(TestImages.meanAbsoluteError(full.image, source) < 6)
        #expect(try PhotoDecoder(usesThumbnails: false).decode(data, covering: 100, atMost: 128).origin != .embeddedThumbnail)
    }

    @Test func transparencyIsCompositedOntoTheSameGreyAsPNG() throws {
        let source = RGBImage(width: 32, height: 32, fill: RGB(200, 40, 40))
        let alpha = (0..<(32 * 32)).map { $0 % 32 < 16 ? UInt8(255) : 0 }
        let data = try #require(HEIF.encode(source, quality: 100, alpha: alpha))
        let image = try #require(try HEIF.decode(data))
        let grey = RGB(UInt8(PNG.background.r), UInt8(PNG.background.g), UInt8(PNG.background.b))
        func near(_ a: RGB, _ b: RGB) -> Bool { abs(Int(a.r) - Int(b.r)) < 12 && abs(Int(a.g) - Int(b.g)) < 12 && abs(Int(a.b) - Int(b.b)) < 12 }
        #expect(near(image[4, 16], RGB(200, 40, 40)))
        #expect(near(image[28, 16], grey))
    }

    /// 10-bit samples come out as the same levels in 8 bits, not their low bits.
    @Test func tenBitSamplesAreReducedToTheSameLevels() throws {
        let source = TestImages.gradient(width: 64, height: 64)
        let data = try #require(HEIF.encode(source, quality: 95, bitDepth: 10))
        #expect(try HEIF.readHeader(data).bitDepth == 10)
        #expect(TestImages.meanAbsoluteError(try #require(try HEIF.decode(data)), source) < 4)
    }

    /// YCbCr is converted here, with the matrix and range the file's `nclx` names: a wrong matrix
    /// or range shifts every colour, far past the codec's own error.
    @Test(arguments: [(6, true), (1, false), (9, true), (1, true)])
    func coloursComeBackWhateverTheMatrixAndRange(matrix: Int, fullRange: Bool) throws {
        let source = TestImages.quadrants(width: 128, height: 96)
        for avif in [false, true] {
            let data = try #require(HEIF.encode(source, avif: avif, quality: 95, matrix: matrix, fullRange: fullRange))
            let image = try #require(try HEIF.decode(data))
            #expect(TestImages.meanAbsoluteError(image, source) < 4, "matrix \(matrix), full range \(fullRange), AVIF \(avif)")
            // Away from the quadrants' edges, each colour itself.
            for (x, y) in [(16, 16), (112, 16), (16, 80), (112, 80)] {
                let (a, b) = (image[x, y], source[x, y])
                #expect(abs(Int(a.r) - Int(b.r)) < 8 && abs(Int(a.g) - Int(b.g)) < 8 && abs(Int(a.b) - Int(b.b)) < 8,
                        "matrix \(matrix), full range \(fullRange), AVIF \(avif): \(a) for \(b)")
            }
        }
    }

    /// HEVC's planes come from libde265 unconverted by libheif and, for a picture shrunk by four
    /// or more, without its in-loop filters (Sources/CHeif/hevc_planes.c). Both must give what
    /// libheif's own decoder and conversion give, within a fraction of a level: measured on the
    /// real photos of docs/benchmarks.md, 0.02 at full size and at most 0.28 shrunk by six.
    @Test(arguments: [(1, 8), (6, 8), (1, 10), (4, 10)])
    func libde265sPlanesGiveWhatLibheifGives(shrink: Int, bitDepth: Int) throws {
        var source = TestImages.gradient(width: 384, height: 256)
        // Texture, so that block edges and the filters have something to work on.
        var noise = SeededGenerator(seed: 7)
        for i in source.pixels.indices { source.pixels[i] = UInt8(clamping: Int(source.pixels[i]) + Int(noise.next() % 41) - 20) }
        let data = try #require(HEIF.encode(source, quality: 40, bitDepth: bitDepth))
        let mine = try #require(try HEIF.decode(data, shrink: shrink))
        let theirs = try #require(try HEIF.decode(data, shrink: shrink, libheifsOwn: true))
        #expect(mine.width == 384 / shrink && mine.height == 256 / shrink)
        #expect(TestImages.meanAbsoluteError(mine, theirs) < (shrink == 1 ? 0.2 : 1), "shrink \(shrink), \(bitDepth) bits")
        // Where libheif is 1.16 or later the plugin is not used (hevc_planes.c says why): the same.
        #expect(TestImages.meanAbsoluteError(mine, theirs) > 0 || shrink == 1 || !HEIF.decodesHEVCPlanes,
                "shrunk, the filters were not skipped")
    }

    @Test func damagedFilesGiveReasonsNotCrashes() throws {
        let data = try #require(HEIF.encode(TestImages.gradient(width: 64, height: 64), quality: 80))
        // Cut short: in the boxes, and in the coded picture.
        for length in [20, 200, data.count - 100] {
            #expect(throws: DecodeError.self) { try PhotoDecoder().decode(Array(data.prefix(length)), covering: 32, atMost: 64) }
        }
        // Every byte of the header boxes flipped in turn: an error or a picture, never a crash.
        for at in stride(from: 16, to: min(data.count, 600), by: 3) {
            var damaged = data
            damaged[at] ^= 0x5A
            _ = try? PhotoDecoder().decode(damaged, covering: 32, atMost: 64)
        }
        // A header claiming 100,000 x 100,000 (its `ispe` box rewritten) is refused before decoding.
        var huge = data
        let ispe = try #require(findBytes(Array("ispe".utf8), in: huge))
        for (offset, byte) in [UInt8(0x00), 0x01, 0x86, 0xA0, 0x00, 0x01, 0x86, 0xA0].enumerated() { huge[ispe + 8 + offset] = byte }
        #expect(throws: DecodeError.tooLarge) { try PhotoDecoder().decode(huge, covering: 32, atMost: 64) }
    }

    private func findBytes(_ needle: [UInt8], in data: [UInt8]) -> Int? {
        guard data.count >= needle.count else { return nil }
        return (0...(data.count - needle.count)).first { data[$0..<($0 + needle.count)].elementsEqual(needle) }
    }
}
