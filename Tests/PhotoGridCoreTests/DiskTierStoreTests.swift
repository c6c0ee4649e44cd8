import Glibc
import Testing
@testable import PhotoGridCore

@Suite struct DiskTierStoreTests {
    @Test func tierImagesRoundTripAndAChangedPhotoMisses() throws {
        let folder = TestImages.scratchFolder("tierstore")
        defer { TestImages.remove(folder) }
        let cache = try #require(DiskCache(directory: folder + "/cache", limitBytes: 1 << 20))
        let store = DiskTierStore(cache: cache)
        let path = folder + "/photo.jpg"
        TestImages.write(try JPEG.encode(TestImages.gradient(width: 64, height: 48), quality: 90), to: path)
        let photo = Photo(path: RawPath(path), relativePath: RawPath("photo.jpg"))
        let image = TestImages.gradient(width: 96, height: 64)
        store.save(DecodedImage(image: image, origin: .file(scaleEighths: 1, scans: 1), isComplete: true), of: photo, tier: .t64)
        let back = try #require(store.load(photo, tier: .t64))
        #expect(back.origin == .diskCache && back.isComplete)
        #expect(back.image.width == 96 && back.image.height == 64)
        #expect(TestImages.meanAbsoluteError(back.image, image) < 3)
        #expect(store.load(photo, tier: .t128) == nil)
        // The photo is rewritten (another size): the entry no longer applies.
        TestImages.write(try JPEG.encode(TestImages.gradient(width: 80, height: 48), quality: 90), to: path)
        #expect(store.load(photo, tier: .t64) == nil)
    }
}
