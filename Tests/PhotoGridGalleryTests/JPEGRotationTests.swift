import Foundation
import Glibc
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `[` and `]` (`JPEGRotation`) against jpegtran, libjpeg-turbo's own lossless transform: the same
/// pixels, whole photos and ones whose edge is not a whole block (trimmed as `-trim` does), a
/// photo a camera tagged as turned, and the EXIF kept but for Orientation, read back by exiftool.
struct JPEGRotationTests {
    static let tools = (try? Subprocess.run(["sh", "-c", "command -v jpegtran && command -v djpeg && command -v exiftool"]))?.status == 0

    func jpeg(width: Int, height: Int, orientation: Int?, progressive: Bool = false) throws -> [UInt8] {
        let exif = ExifFields(orientation: orientation, dateTimeOriginal: "2024:06:01 12:34:56", make: "FUJIFILM", model: "X100V")
        return try JPEG.encode(TestImages.gradient(width: width, height: height), quality: 90, progressive: progressive, app1: ExifBuilder.app1(exif))
    }

    /// The pixels djpeg decodes from a file, as a PPM.
    func pixels(_ path: String) throws -> [UInt8] {
        let result = try Subprocess.run(["djpeg", "-ppm", path], capture: true)
        try #require(result.status == 0)
        return result.output
    }

    @Test func twoTransformsAreOneAsTheEightOrientationsCompose() {
        #expect(Transform.rotate90.then(.rotate90) == .rotate180)
        #expect(Transform.rotate90.then(.rotate270) == Transform.none)
        #expect(Transform.rotate270.then(.rotate270) == .rotate180)
        #expect(Transform.flipHorizontal.then(.flipHorizontal) == Transform.none)
        #expect(Transform.transpose.then(.rotate90) == .flipHorizontal)
        #expect(Transform.upright(.right) == .rotate90 && Transform.upright(.left) == .rotate270)
        // The table agrees with the orientations' own definition (`Orientation.apply`).
        for orientation in Orientation.allCases {
            let image = TestImages.gradient(width: 3, height: 2)
            let shown = orientation.apply(to: image)
            let cells = (0..<2).map { y in (0..<3).map { x in y * 3 + x } }
            let moved = Transform.upright(orientation).apply(cells)
            let expected = moved.flatMap { $0.flatMap { cell in Array(image.pixels[(cell * 3)..<(cell * 3 + 3)]) } }
            #expect(shown.pixels == expected, "\(orientation)")
        }
    }

    @Test(.enabled(if: JPEGRotationTests.tools, "jpegtran, djpeg or exiftool is not installed"),
          arguments: [(640, 480, false), (643, 481, false), (643, 481, true), (480, 640, true)])
    func aTurnHasJpegtransPixelsAndOrientationOne(width: Int, height: Int, progressive: Bool) throws {
        let folder = TestImages.scratchFolder("rotate-\(width)x\(height)")
        defer { TestImages.remove(folder) }
        let photo = folder + "/photo.jpg"
        TestImages.write(try jpeg(width: width, height: height, orientation: 1, progressive: progressive), to: photo)
        let reference = try Subprocess.run(["sh", "-c", "jpegtran -rotate 90 -trim -copy all '\(photo)' > '\(folder)/reference.jpg'"])
        try #require(reference.status == 0)
        let done = try JPEGRotation.rotate(RawPath(photo), .clockwise)
        #expect(try pixels(photo) == pixels(folder + "/reference.jpg"))
        // 4:2:0's 16-pixel blocks: 481 rows leave 1 to trim before they become the columns.
        #expect(done.trimmed == (height % 16))
        #expect(done.width == height - height % 16 && done.height == width)
        #expect(JPEGRotation.isProgressive(TestImages.read(photo) ?? []) == progressive)
        let tags = String(decoding: try Subprocess.run(["exiftool", "-s3", "-n", "-Orientation", "-DateTimeOriginal", "-Make", "-Model", photo], capture: true).output, as: UTF8.self)
        #expect(tags == "1\n2024:06:01 12:34:56\nFUJIFILM\nX100V\n", "\(tags)")
        // Back the other way: the photo as it was (a whole one to the byte's pixels).
        if height % 16 == 0 && width % 16 == 0 {
            let original = folder + "/original.jpg"
            TestImages.write(try jpeg(width: width, height: height, orientation: 1, progressive: progressive), to: original)
            _ = try JPEGRotation.rotate(RawPath(photo), .counterclockwise)
            #expect(try pixels(photo) == pixels(original))
        }
    }

    @Test(.enabled(if: JPEGRotationTests.tools, "jpegtran, djpeg or exiftool is not installed"))
    func aPhotoTaggedAsTurnedIsTurnedAsItIsShown() throws {
        let folder = TestImages.scratchFolder("rotate-tagged")
        defer { TestImages.remove(folder) }
        let photo = folder + "/photo.jpg"
        // Orientation 6: shown turned a quarter clockwise. Another quarter: half a turn of the stored pixels.
        TestImages.write(try jpeg(width: 640, height: 480, orientation: 6), to: photo)
        #expect(try Subprocess.run(["sh", "-c", "jpegtran -rotate 180 -trim '\(photo)' > '\(folder)/reference.jpg'"]).status == 0)
        let done = try JPEGRotation.rotate(RawPath(photo), .clockwise)
        #expect(done == JPEGRotation.Done(width: 640, height: 480, trimmed: 0))
        #expect(try pixels(photo) == pixels(folder + "/reference.jpg"))
        let orientation = String(decoding: try Subprocess.run(["exiftool", "-s3", "-n", "-Orientation", photo], capture: true).output, as: UTF8.self)
        #expect(orientation == "1\n")
        // Tagged 8 (a quarter the other way) and turned clockwise: only the tag changes.
        TestImages.write(try jpeg(width: 640, height: 480, orientation: 8), to: photo)
        let before = try pixels(photo)
        _ = try JPEGRotation.rotate(RawPath(photo), .clockwise)
        #expect(try pixels(photo) == before)
    }

    @Test(arguments: [false, true])
    func theEXIFThumbnailTurnsWithThePhoto(bigEndian: Bool) throws {
        // A photo stored sideways (Orientation 6) with a thumbnail stored as it is, as cameras do.
        let stored = Orientation.right.stored(from: Scene.render(.autumn, width: 640, height: 480, seed: 3))
        let small = PhotoDecoder.scaled(stored, shortSide: 120)
        let thumbnail = try JPEG.encode(small, quality: 85)
        let exif = ExifFields(orientation: 6, dateTimeOriginal: "2024:06:01 12:34:56", thumbnail: thumbnail, bigEndian: bigEndian)
        let data = try JPEG.encode(stored, quality: 90, app1: ExifBuilder.app1(exif))
        let (turned, _) = try JPEGRotation.rotated(data, .clockwise)
        // Shown now as the photo was, turned a quarter right: 480 wide, 640 high.
        let header = try JPEG.readHeader(turned)
        let shownThumbnail = try #require(PhotoDecoder.thumbnail(header: header, data: turned))
        let whole = try JPEG.decode(turned, options: JPEG.DecodeOptions(scaleEighths: 8))
        #expect((whole.width, whole.height) == (480, 640))
        let expected = PhotoDecoder.scaled(whole, shortSide: min(shownThumbnail.width, shownThumbnail.height))
        try #require((expected.width, expected.height) == (shownThumbnail.width, shownThumbnail.height))
        func difference(_ a: RGBImage, _ b: RGBImage) -> Int {
            var sum = 0
            for (x, y) in zip(a.pixels, b.pixels) { sum += abs(Int(x) - Int(y)) }
            return sum / a.pixels.count
        }
        // Against the photo, and against the photo upside down, as a wrongly turned thumbnail would be.
        let right = difference(expected, shownThumbnail), wrong = difference(Orientation.down.apply(to: expected), shownThumbnail)
        #expect(right < 16 && wrong > 2 * right, "the thumbnail differs from the photo by \(right) a channel, from it upside down by \(wrong)")
    }

    /// A camera's Multi-Picture preview turns with the photo and still follows it, its index
    /// rewritten; an index that lists more than a preview goes, rather than point past the file.
    @Test func aCamerasPreviewTurnsWithThePhoto() throws {
        let stored = Orientation.right.stored(from: Scene.render(.autumn, width: 640, height: 480, seed: 3))
        let photo = try JPEG.encode(stored, quality: 90, app1: ExifBuilder.app1(ExifFields(orientation: 6)))
        let data = MultiPictureWriter.add(try JPEG.encode(PhotoDecoder.scaled(stored, shortSide: 240), quality: 85), to: photo, bigEndian: false)
        let (turned, _) = try JPEGRotation.rotated(data, .clockwise)
        // Upright now, 480x640, and so is its preview (240x320), which lies where the index says.
        let range = try #require(JPEGSegments.parse(turned).preview)
        #expect(range.upperBound == turned.count)
        let preview = try JPEG.decode(Array(turned[range]))
        #expect((preview.width, preview.height) == (240, 320))
        let whole = PhotoDecoder.scaled(try JPEG.decode(turned), shortSide: 240)
        #expect((whole.width, whole.height) == (240, 320))
        var sum = 0
        for (x, y) in zip(whole.pixels, preview.pixels) { sum += abs(Int(x) - Int(y)) }
        #expect(sum / whole.pixels.count < 16, "the preview differs from the turned photo by \(sum / whole.pixels.count) a channel")
        // Tiles of the turned photo come from it.
        let decoded = try PhotoDecoder().decode(turned, covering: 200, atMost: 256)
        #expect(decoded.origin == .embeddedPreview && (decoded.image.width, decoded.image.height) == (210, 280))
        // A gain map's index (not a preview): dropped with the gain map TurboJPEG leaves behind.
        let mapped = MultiPictureWriter.add(try JPEG.encode(PhotoDecoder.scaled(stored, shortSide: 240), quality: 85), as: .undefined, to: photo)
        let (plain, _) = try JPEGRotation.rotated(mapped, .clockwise)
        let plainWidth = try JPEG.decode(plain).width
        #expect(!String(decoding: plain.prefix(2000), as: UTF8.self).contains("MPF") && plainWidth == 480)
        if Self.tools {
            let folder = TestImages.scratchFolder("rotate-mpf")
            defer { TestImages.remove(folder) }
            TestImages.write(turned, to: folder + "/t.jpg")
            // exiftool reads the rewritten index without a warning and finds the preview.
            let said = try Subprocess.run(["exiftool", "-warning", "-MPImageLength", folder + "/t.jpg"], capture: true)
            let text = String(decoding: said.output, as: UTF8.self)
            #expect(!text.contains("Warning") && text.contains("\(range.count)"), "\(text)")
        }
    }

    @Test func whatIsNotAJPEGIsLeftAsItWas() throws {
        let folder = TestImages.scratchFolder("rotate-bad")
        defer { TestImages.remove(folder) }
        let photo = folder + "/photo.jpg"
        TestImages.write(Array("not a jpeg at all".utf8), to: photo)
        #expect(throws: JPEGRotation.Failure.self) { try JPEGRotation.rotate(RawPath(photo), .clockwise) }
        #expect(TestImages.read(photo) == Array("not a jpeg at all".utf8))
        // A truncated JPEG: refused, the file untouched.
        let whole = try jpeg(width: 640, height: 480, orientation: nil)
        TestImages.write(Array(whole.prefix(whole.count / 2)), to: photo)
        #expect(throws: JPEGRotation.Failure.self) { try JPEGRotation.rotate(RawPath(photo), .clockwise) }
        #expect(TestImages.read(photo) == Array(whole.prefix(whole.count / 2)))
    }
}
