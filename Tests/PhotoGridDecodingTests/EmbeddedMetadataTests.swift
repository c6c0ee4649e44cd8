import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridMetadata
@testable import PhotoGridModel
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// EXIF and XMP carried by PNG (`eXIf`, iTXt) and WebP (`EXIF`, `XMP ` chunks): the picture is
/// turned by EXIF's orientation and the details panel reads them as it does a JPEG's.
@Suite struct EmbeddedMetadataTests {
    static let fields = ExifFields(orientation: 6, dateTimeOriginal: "2024:08:02 18:30:00", make: "Google", model: "Pixel 8",
                                   latitude: 48.8584, longitude: 2.2945, iso: 100)
    static let xmp = String(decoding: XMPBuilder.packet(descriptions: [("x-default", "Tower at dusk")]), as: UTF8.self)

    @Test func pngsEXifChunkTurnsThePictureAndFillsTheDetails() throws {
        let upright = TestImages.quadrants(width: 60, height: 90)
        let data = try #require(PNG.encode(Orientation.right.stored(from: upright), exif: ExifBuilder.tiff(Self.fields), xmp: Self.xmp))
        try expectTurnedWithDetails(data, upright: upright, name: "shot.png")
    }

    @Test func webpsEXIFChunkTurnsThePictureAndFillsTheDetails() throws {
        let upright = TestImages.quadrants(width: 60, height: 90)
        let stored = Orientation.right.stored(from: upright)
        let still = try #require(WebP.encode(stored))
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func chunk(_ tag: String, _ body: [UInt8]) -> [UInt8] { Array(tag.utf8) + le(body.count, 4) + body + (body.count % 2 == 1 ? [0] : []) }
        // The extended format: VP8X (EXIF and XMP flags, canvas size less one), the bitstream, then
        // the metadata chunks; this EXIF keeps JPEG's "Exif\0\0" before its TIFF header, as some writers do.
        let chunks = chunk("VP8X", [0x0C, 0, 0, 0] + le(stored.width - 1, 3) + le(stored.height - 1, 3)) + Array(still[12...])
            + chunk("EXIF", Array("Exif\0\0".utf8) + ExifBuilder.tiff(Self.fields)) + chunk("XMP ", Array(Self.xmp.utf8))
        let data = Array("RIFF".utf8) + le(4 + chunks.count, 4) + Array("WEBP".utf8) + chunks
        try expectTurnedWithDetails(data, upright: upright, name: "shot.webp")
    }

    private func expectTurnedWithDetails(_ data: [UInt8], upright: RGBImage, name: String,
                                         sourceLocation: SourceLocation = #_sourceLocation) throws {
        #expect(try PhotoDecoder().decode(data, covering: 60, atMost: 60).image == upright, sourceLocation: sourceLocation)
        #expect(try PhotoDecoder.decodeUpright(data, atLeast: (60, 90), fit: .fit) == upright, sourceLocation: sourceLocation)
        let folder = TestImages.scratchFolder("embedded")
        defer { TestImages.remove(folder) }
        TestImages.write(data, to: folder + "/" + name)
        let photo = try #require(try FolderScanner().scan(RawPath(folder)).first, sourceLocation: sourceLocation)
        let info = try #require(PhotoDecoder().info(of: photo), sourceLocation: sourceLocation)
        #expect(info.width == 60 && info.height == 90 && info.orientation == .right, sourceLocation: sourceLocation)
        #expect(info.dateTaken == "2024:08:02 18:30:00" && info.model == "Pixel 8" && info.iso == 100, sourceLocation: sourceLocation)
        #expect(abs((info.latitude ?? 0) - 48.8584) < 0.001 && abs((info.longitude ?? 0) - 2.2945) < 0.001, sourceLocation: sourceLocation)
        #expect(info.caption == "Tower at dusk" && info.captionSource == .xmp, sourceLocation: sourceLocation)
    }

    @Test func chunksThatLieAboutTheirLengthsAreSkippedSafely() {
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + [0x7F, 0xFF, 0xFF, 0xFF] + Array("eXIf".utf8) + [1, 2, 3]
        #expect(EmbeddedMetadata.png(png).exif == nil)
        let itxt: [UInt8] = Array("XML:com.adobe.xmp".utf8) + [0, 0, 0]   // no NUL after the language tag
        let chunk = [0, 0, 0, UInt8(itxt.count)] + Array("iTXt".utf8) + itxt + [0, 0, 0, 0]
        #expect(EmbeddedMetadata.png(Array(png.prefix(8)) + chunk).xmp == nil)
        let webp = Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBP".utf8) + Array("EXIF".utf8) + [0xFF, 0xFF, 0xFF, 0x7F, 1, 2]
        #expect(EmbeddedMetadata.webp(webp).exif == nil)
    }
}
