import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
import PhotoGridSamples
import PhotoGridTestFixtures

@Suite struct MultiPictureTests {
    @Test(arguments: [true, false])
    func theIndexSaysWhereTheSecondPictureLies(bigEndian: Bool) throws {
        let primary = try MetadataFixtures.jpeg(exif: ExifFields(make: "M"))
        let second = try JPEG.encode(TestImages.gradient(width: 24, height: 16), quality: 80)
        let file = MultiPictureWriter.add(second, to: primary, bigEndian: bigEndian)
        let range = try #require(JPEGSegments.parse(file).preview)
        #expect(Array(file[range]) == second)
        #expect(range.upperBound == file.count)
        // The header libjpeg reads says the same, and libjpeg still decodes the photo.
        #expect(try JPEG.readHeader(file).preview == range)
        #expect(try JPEG.decode(file).width == 48)
        // The Exif segment is still read; the index goes after it.
        #expect(JPEGSegments.parse(file).exif != nil)
    }

    @Test func onlyLargeThumbnailsArePreviews() throws {
        let primary = try MetadataFixtures.jpeg()
        let second = try JPEG.encode(TestImages.gradient(width: 24, height: 16), quality: 80)
        #expect(JPEGSegments.parse(MultiPictureWriter.add(second, as: .largeThumbnailVGA, to: primary)).preview != nil)
        // A gain map (Ultra HDR) and another view of a stereo pair are not the photo made small.
        #expect(JPEGSegments.parse(MultiPictureWriter.add(second, as: .undefined, to: primary)).preview == nil)
        #expect(JPEGSegments.parse(MultiPictureWriter.add(second, as: .multiAngle, to: primary)).preview == nil)
        #expect(JPEGSegments.parse(primary).preview == nil)
    }

    @Test func hostileIndexesGiveNoPreviewAndNoCrash() throws {
        let second = try JPEG.encode(TestImages.gradient(width: 24, height: 16), quality: 80)
        let good = MultiPictureWriter.index(primaryLength: 1000, secondLength: second.count, secondOffset: 900,
                                            kind: .largeThumbnailFullHD, bigEndian: true)
        #expect(MultiPicture.preview(index: good, at: 40) == 940..<(940 + second.count))
        // Offset 0 is the photo itself; an offset or length past an int's range is refused.
        let atZero = MultiPictureWriter.index(primaryLength: 1000, secondLength: second.count, secondOffset: 0, kind: .largeThumbnailFullHD, bigEndian: true)
        #expect(MultiPicture.preview(index: atZero, at: 40) == nil)
        let huge = MultiPictureWriter.index(primaryLength: 1000, secondLength: 0x7FFF_FFF0, secondOffset: 0x7FFF_FFF0, kind: .largeThumbnailFullHD, bigEndian: true)
        #expect(MultiPicture.preview(index: huge, at: 40) == nil)
        // Every cut of the index, and every byte of it changed, reads without a trap.
        for cut in 0..<good.count { _ = MultiPicture.preview(index: Array(good.prefix(cut)), at: 40) }
        for at in 0..<good.count {
            var damaged = good
            damaged[at] ^= 0xA5
            if let range = MultiPicture.preview(index: damaged, at: 40) {
                #expect(range.lowerBound > 40 && range.count >= 128)
            }
        }
    }
}
