import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
import PhotoGridSamples
import PhotoGridTestFixtures
import PhotoGridModel
import PhotoGridSystem

@Suite struct OrientationTests {
    @Test(arguments: Orientation.allCases)
    func storedAndAppliedAreInverse(orientation: Orientation) {
        let upright = TestImages.quadrants(width: 6, height: 4)
        let stored = orientation.stored(from: upright)
        #expect((stored.width, stored.height) == (orientation.swapsAxes ? (4, 6) : (6, 4)))
        #expect(orientation.apply(to: stored) == upright)
    }

    @Test(arguments: 1...8)
    func jpegsTaggedWithAnOrientationDecodeUpright(value: Int) throws {
        let orientation = try #require(Orientation(rawValue: value))
        let upright = TestImages.quadrants(width: 64, height: 48)
        let stored = orientation.stored(from: upright)
        let jpeg = try JPEG.encode(stored, quality: 95, app1: ExifBuilder.app1(ExifFields(orientation: value)))
        #expect(ExifInfo.parse(try #require(JPEG.readHeader(jpeg).exif)).orientation == orientation)
        let decoded = try PhotoDecoder.decodeUpright(jpeg, atLeast: (64, 48), fit: .fill)
        #expect(decoded.width == 64 && decoded.height == 48)
        #expect(TestImages.meanAbsoluteError(decoded, upright) < 4)
        // The red quadrant is top-left whatever the file stores.
        #expect(decoded[4, 4].r > 180 && decoded[4, 4].g < 80)
        // And through the tile path, square-cropped: red top-left, yellow bottom-right.
        let tile = try PhotoDecoder.tileImage(fromJPEG: jpeg, width: 24, height: 24, fit: .fill)
        #expect(tile[2, 2].r > 180 && tile[2, 2].g < 80)
        #expect(tile[21, 21].r > 180 && tile[21, 21].g > 180)
    }
}

@Suite struct ExifTests {
    @Test(arguments: [false, true])
    func fieldsWrittenByTheGeneratorReadBack(bigEndian: Bool) throws {
        let thumbnail = try JPEG.encode(TestImages.gradient(width: 16, height: 12), quality: 70)
        let fields = ExifFields(orientation: 6, dateTimeOriginal: "2024:07:14 19:42:05", imageDescription: "Evening over the bay",
                                make: "Photogrid", model: "Sample One", latitude: -33.8568, longitude: 151.2153,
                                thumbnail: thumbnail, bigEndian: bigEndian)
        let tiff = ExifBuilder.tiff(fields)
        let info = ExifInfo.parse(tiff)
        #expect(info.orientation == .right)
        #expect(info.dateTimeOriginal == "2024:07:14 19:42:05")
        #expect(info.imageDescription == "Evening over the bay")
        #expect(info.make == "Photogrid" && info.model == "Sample One")
        #expect(abs(info.latitude! - -33.8568) < 0.0001 && abs(info.longitude! - 151.2153) < 0.0001)
        let range = try #require(info.thumbnail)
        #expect(Array(tiff[range]) == thumbnail)
    }

    @Test func hostileSegmentsAreReadSafely() throws {
        let tiff = ExifBuilder.tiff(ExifFields(orientation: 8, dateTimeOriginal: "2020:01:01 00:00:00",
                                               imageDescription: "caption", latitude: 10, longitude: 20))
        // Every truncation: no crash, and what is read is right or absent.
        for length in 0..<tiff.count {
            let info = ExifInfo.parse(Array(tiff.prefix(length)))
            #expect(info.orientation == .up || info.orientation == .left)
        }
        // Random bytes behind a valid header.
        var random = SystemRandomNumberGenerator()
        for _ in 0..<200 {
            var bytes = Array(tiff.prefix(8))
            bytes += (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            _ = ExifInfo.parse(bytes)
        }
        // An IFD whose next-IFD offset points at itself, and one claiming 65535 entries.
        var loop: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 1, 0, 0x12, 0x01, 3, 0, 1, 0, 0, 0, 6, 0, 0, 0, 8, 0, 0, 0]
        #expect(ExifInfo.parse(loop).orientation == .right)
        loop[8] = 0xFF; loop[9] = 0xFF
        #expect(ExifInfo.parse(loop).orientation == .up)
        // A value offset far outside the data.
        let outside: [UInt8] = [0x4D, 0x4D, 0, 42, 0, 0, 0, 8, 0, 1, 0x01, 0x0E, 0, 2, 0, 0, 0, 200, 0x7F, 0xFF, 0xFF, 0xF0, 0, 0, 0, 0]
        #expect(ExifInfo.parse(outside).imageDescription == nil)
    }
}

@Suite struct SampleGalleryTests {
    @Test func theCommittedGalleryMatchesItsPlan() {
        // Sizes, orientation (stored sideways where tagged 6 or 8), EXIF fields, progressive files.
        #expect(SampleGallery.check(folder: Paths.gallery) == [])
        #expect(SampleGallery.entries.count >= 48)
    }
}

/// A picture that is not a JPEG turned in its sidecar (`tiff:Orientation`, what `[` and `]`
/// write): decoded and described as the sidecar says, each of the eight; a raw file is not.
@Suite struct SidecarOrientationTests {
    @Test(arguments: Orientation.allCases)
    func aPNGIsShownAsItsSidecarSays(orientation: Orientation) throws {
        let folder = TestImages.scratchFolder("sidecar-orientation-\(orientation.rawValue)")
        defer { TestImages.remove(folder) }
        let upright = TestImages.quadrants(width: 64, height: 48)
        let path = folder + "/scan.png"
        TestImages.write(try #require(PNG.encode(upright)), to: path)
        #expect(Sidecar.of(RawPath(path)).save(orientation: orientation) == nil)
        let photo = Photo(path: RawPath(path), relativePath: RawPath("scan.png"))
        let decoded = try PhotoDecoder().image(of: photo, covering: 48, atMost: 64).image
        #expect(decoded == orientation.apply(to: upright))
        let info = try #require(PhotoDecoder().info(of: photo, from: .file(RawPath(path))))
        #expect((info.width, info.height) == (orientation.swapsAxes ? (48, 64) : (64, 48)))
    }

    @Test func turnsCombineAsTheyAreShown() {
        #expect(Orientation.up.turned(clockwise: true) == .right)
        #expect(Orientation.right.turned(clockwise: true) == .down)
        #expect(Orientation.left.turned(clockwise: true) == .up)
        #expect(Orientation.up.turned(clockwise: false) == .left)
        // A file shown turned right (its own EXIF) that the sidecar wants upside down: one more quarter.
        #expect(Orientation.down.relative(to: .right) == .right)
        for a in Orientation.allCases { #expect(a.relative(to: a) == .up) }
    }
}
