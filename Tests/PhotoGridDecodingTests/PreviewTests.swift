import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// A camera's Multi-Picture preview standing in for the photo (`PhotoDecoder.preview`): the
/// preview here is a plain colour and the photo four quadrants, so a pixel says which was read.
@Suite struct PreviewTests {
    static let blue = RGBImage(width: 600, height: 400, pixels: [UInt8](repeating: 0, count: 600 * 400 * 3).enumerated().map { $0.offset % 3 == 2 ? 230 : 20 })

    static func camera(_ preview: RGBImage = blue, orientation: Int = 1, size: (Int, Int) = (1200, 800),
                       kind: MultiPictureWriter.Kind = .largeThumbnailFullHD, offsetShift: Int = 0) throws -> [UInt8] {
        let photo = try JPEG.encode(TestImages.quadrants(width: size.0, height: size.1), quality: 85,
                                    app1: ExifBuilder.app1(ExifFields(orientation: orientation)))
        return MultiPictureWriter.add(try JPEG.encode(preview, quality: 85), as: kind, to: photo, offsetShift: offsetShift)
    }

    static func decode(_ bytes: [UInt8], covering size: Int, atMost limit: Int, decoder: PhotoDecoder = PhotoDecoder()) throws -> DecodedImage {
        let folder = TestImages.scratchFolder("preview")
        defer { TestImages.remove(folder) }
        TestImages.write(bytes, to: folder + "/p.jpg")
        return try decoder.image(of: Photo(path: RawPath(folder + "/p.jpg"), relativePath: RawPath("p.jpg")), covering: size, atMost: limit)
    }

    static func isBlue(_ pixel: RGB) -> Bool { pixel.b > 200 && pixel.r < 50 && pixel.g < 50 }

    @Test func aPreviewThatCoversTheTileIsDecodedInsteadOfThePhoto() throws {
        let file = try Self.camera()
        let small = try Self.decode(file, covering: 200, atMost: 256)
        #expect(small.origin == .embeddedPreview && !small.isComplete)
        // Decoded at 4/8 of its 600x400, as the photo would have been at 2/8.
        #expect(small.image.width == 300 && small.image.height == 200)
        #expect(Self.isBlue(small.image[10, 10]) && Self.isBlue(small.image[290, 190]))
        // From memory (a remote photo downloaded whole), the same.
        let inMemory = try PhotoDecoder().decode(file, covering: 200, atMost: 256)
        #expect(inMemory.origin == .embeddedPreview && inMemory.image == small.image)
        // Larger than the preview's 400 rows: the photo itself, red at the top left.
        let large = try Self.decode(file, covering: 500, atMost: 800)
        #expect(large.origin == .file(scaleEighths: 5, scans: 1))
        #expect(large.image[10, 10].r > 180 && !Self.isBlue(large.image[10, 10]))
        // Off where embedded pictures are (benchmarks of decoding, `serve`'s renditions).
        #expect(try Self.decode(file, covering: 200, atMost: 256, decoder: PhotoDecoder(usesThumbnails: false)).origin != .embeddedPreview)
    }

    @Test func thePreviewIsTurnedAsThePhotoIs() throws {
        let turned = try Self.decode(try Self.camera(orientation: 6), covering: 200, atMost: 200)
        #expect(turned.origin == .embeddedPreview && turned.image.width == 200 && turned.image.height == 300)
    }

    @Test func aLetterboxedPreviewIsCutToThePhotosShape() throws {
        // A 16:9 photo whose preview is 4:3 with black bars above and below, as cameras make them.
        var boxed = [UInt8](repeating: 0, count: 640 * 480 * 3)
        for y in 60..<420 { for x in 0..<640 { boxed[(y * 640 + x) * 3 + 2] = 230 } }
        let file = try Self.camera(RGBImage(width: 640, height: 480, pixels: boxed), size: (1600, 900))
        let decoded = try Self.decode(file, covering: 300, atMost: 360)
        // 7/8 of the preview's 640x360 inside the bars: 560x315, blue from the top row to the last.
        #expect(decoded.origin == .embeddedPreview && decoded.image.width == 560 && decoded.image.height == 315)
        for y in [2, 157, 312] { #expect(decoded.image[280, y].b > 150, "row \(y)") }
    }

    @Test func aPreviewThatIsNotThePhotoIsPassedOver() throws {
        // A gain map, a stale index (an editor dropped what followed the photo, or it lies
        // inside the photo's data), a picture of another shape, one no smaller: the photo.
        let files = [try Self.camera(kind: .undefined), try Self.camera(offsetShift: 4096), try Self.camera(offsetShift: -300),
                     try Self.camera(RGBImage(width: 300, height: 600, pixels: [UInt8](repeating: 90, count: 300 * 600 * 3))),
                     try Self.camera(RGBImage(width: 1200, height: 800, pixels: [UInt8](repeating: 90, count: 1200 * 800 * 3)))]
        for (index, file) in files.enumerated() {
            let decoded = try Self.decode(file, covering: 200, atMost: 256)
            #expect(decoded.origin == .file(scaleEighths: 2, scans: 1), "file \(index)")
            #expect(decoded.image[10, 10].r > 180, "file \(index)")
        }
    }

    @Test func aFileCutInsideItsPreviewShowsThePhoto() throws {
        let file = try Self.camera()
        let cut = Array(file.prefix(file.count - 100))
        let decoded = try Self.decode(cut, covering: 200, atMost: 256)
        #expect(decoded.origin == .file(scaleEighths: 2, scans: 1) && !decoded.isPartial)
    }
}
