import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridPipeline
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// A file still being copied or synced shows the part of its picture that is there, marked as
/// incomplete; a file with nothing decodable yet still says why.
@Suite struct PartialFileTests {
    /// The top of the picture matches the whole one; the part the file does not have is not.
    private func expectTopDecoded(_ data: [UInt8], cutAt fraction: Double, source: RGBImage, maxError: Double,
                                  sourceLocation: SourceLocation = #_sourceLocation) throws {
        let cut = Array(data.prefix(Int(Double(data.count) * fraction)))
        let decoded = try PhotoDecoder().decode(cut, covering: source.height, atMost: source.height)
        #expect(decoded.isPartial && !decoded.isComplete, sourceLocation: sourceLocation)
        #expect(decoded.image.width == source.width && decoded.image.height == source.height, sourceLocation: sourceLocation)
        let top = source.height / 5
        #expect(TestImages.meanAbsoluteError(decoded.image.topRows(top), source.topRows(top)) < maxError, sourceLocation: sourceLocation)
        let whole = try PhotoDecoder().decode(data, covering: source.height, atMost: source.height)
        #expect(!whole.isPartial, sourceLocation: sourceLocation)
    }

    @Test func aBaselineJPEGCutShortShowsItsTopRows() throws {
        let source = TestImages.gradient(width: 160, height: 160)
        try expectTopDecoded(try JPEG.encode(source, quality: 95), cutAt: 0.6, source: source, maxError: 4)
    }

    @Test func aProgressiveJPEGCutShortShowsWhatItsScansHave() throws {
        let source = TestImages.gradient(width: 160, height: 160)
        let data = try JPEG.encode(source, quality: 95, progressive: true)
        let decoded = try PhotoDecoder().decode(Array(data.prefix(data.count * 2 / 3)), covering: 160, atMost: 160)
        #expect(decoded.isPartial)
        #expect(TestImages.meanAbsoluteError(decoded.image, source) < 12)
    }

    /// A progressive file cut before its last scans: small tiles, which need only its first scans
    /// (or its EXIF thumbnail), know it is incomplete as the large ones and the zoom view do. It
    /// was shown whole, unmarked, at 4 columns and flagged at 3.
    @Test func aProgressiveJPEGCutBeforeItsLastScansIsIncompleteAtEverySize() throws {
        let source = TestImages.gradient(width: 1600, height: 900)
        let thumbnail = try JPEG.encode(TestImages.gradient(width: 160, height: 90), quality: 80)
        let data = try JPEG.encode(source, quality: 92, progressive: true,
                                   app1: ExifBuilder.app1(ExifFields(orientation: 1, thumbnail: thumbnail)))
        let folder = TestImages.scratchFolder("partial-progressive")
        defer { TestImages.remove(folder) }
        for (name, bytes) in [("cut.jpg", Array(data.prefix(data.count * 3 / 10))), ("whole.jpg", data),
                              ("motion.jpg", data + Array(repeating: 0x42, count: 5000))] {
            FileManager.default.createFile(atPath: folder + "/" + name, contents: Data(bytes))
        }
        for size in [40, 90, 180, 450, 900] {
            let photo = Photo(path: RawPath(folder + "/cut.jpg"), relativePath: RawPath("cut.jpg"))
            let fromFile = try PhotoDecoder().image(of: photo, covering: size, atMost: size)
            #expect(fromFile.isPartial && fromFile.origin != .embeddedThumbnail, "\(size): \(fromFile.origin)")
            let fromData = try PhotoDecoder().decode(Array(data.prefix(data.count * 3 / 10)), covering: size, atMost: size)
            #expect(fromData.isPartial, "\(size) from memory")
            // Whole, and whole with something after its end (a phone's motion photo): not marked.
            for name in ["whole.jpg", "motion.jpg"] {
                let decoded = try PhotoDecoder().image(of: Photo(path: RawPath(folder + "/" + name), relativePath: RawPath(name)),
                                                       covering: size, atMost: size)
                #expect(!decoded.isPartial, "\(name) at \(size)")
            }
        }
        #expect(JPEGSegments.reachesEnd(data) && !JPEGSegments.reachesEnd(Array(data.dropLast(2))))
    }

    /// Noisy, so that half of its file holds about half of its rows (libspng reads 8 KB at a time).
    @Test func aPNGCutShortShowsItsTopRows() throws {
        var source = TestImages.gradient(width: 320, height: 320)
        var seed: UInt32 = 1
        for i in 0..<source.pixels.count { seed = seed &* 1_103_515_245 &+ 12345; source.pixels[i] = source.pixels[i] / 2 + UInt8(seed >> 25) }
        try expectTopDecoded(try #require(PNG.encode(source)), cutAt: 0.5, source: source, maxError: 1)
    }

    @Test func aLossyWebPCutShortShowsItsTopRows() throws {
        let source = TestImages.gradient(width: 160, height: 160)
        // The first partition (every macroblock's modes) comes before the pixels' data: a lossy
        // file cut at half has fewer than half of its rows.
        try expectTopDecoded(try #require(WebP.encode(source, lossyQuality: 95)), cutAt: 0.8, source: source, maxError: 4)
    }

    @Test func nothingDecodableStillSaysWhy() throws {
        let png = try #require(PNG.encode(TestImages.gradient(width: 64, height: 64)))
        #expect(throws: DecodeError.truncatedFile(format: "PNG")) { try PhotoDecoder().decode(Array(png.prefix(40)), covering: 32, atMost: 64) }
        let jpeg = try JPEG.encode(TestImages.gradient(width: 64, height: 64), quality: 90)
        #expect(throws: DecodeError.truncated) { try PhotoDecoder().decode(Array(jpeg.prefix(100)), covering: 32, atMost: 64) }
    }

    @Test func anIncompleteTileCarriesItsMarkInItsCorner() {
        var image = RGBImage(width: 100, height: 100, fill: RGB(10, 120, 200))
        TileEncoder.markIncomplete(&image)
        #expect(image[2, 2] == RGB(10, 120, 200) && image[97, 2] == RGB(10, 120, 200))
        let corner = (90..<100).flatMap { y in (90..<100).map { x in image[x, y] } }
        #expect(corner.contains(RGB(250, 190, 0)) && corner.contains(RGB(20, 20, 20)))
    }
}
