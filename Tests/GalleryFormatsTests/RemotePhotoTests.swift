import Testing
@testable import GalleryFormats

@Suite struct RemotePhotoTests {
    private let original = remoteURL("https://example.com/o/p.jpg")

    private func rendition(_ size: Int, _ name: String? = nil) -> RemotePhoto.Rendition {
        RemotePhoto.Rendition(size: size, url: remoteURL("https://example.com/r/\(name ?? String(size)).jpg"))
    }

    private func photo(width: Int?, height: Int?, sizes: [Int] = [2048, 256, 1024, 512]) -> RemotePhoto {
        RemotePhoto(id: "p", original: original, renditions: sizes.map { rendition($0) }, width: width, height: height)
    }

    @Test func renditionsAreSortedWithOnePerSize() {
        let photo = RemotePhoto(id: "p", original: original, renditions: [rendition(1024), rendition(256, "first"), rendition(512),
                                                                          rendition(256, "second")])
        #expect(photo.renditions.map(\.size) == [256, 512, 1024])
        #expect(photo.renditions[0].url.description == "https://example.com/r/second.jpg")
    }

    @Test(arguments: [(4000, 3000), (3000, 4000)])
    func picksTheSmallestRenditionWhoseShortSideCovers(width: Int, height: Int) {
        // At 4:3 the short sides are 192, 384, 768 and 1536.
        let photo = photo(width: width, height: height)
        #expect(photo.renditions.map { photo.shortSide(of: $0) } == [192, 384, 768, 1536])
        let picks = [0, 1, 192, 193, 384, 385, 768, 769, 1536].map { photo.source(coveringShortSide: $0).lastPathSegment }
        #expect(picks == ["256.jpg", "256.jpg", "256.jpg", "512.jpg", "512.jpg", "1024.jpg", "1024.jpg", "2048.jpg", "2048.jpg"])
        // Nothing covers more: the original, scaled down here.
        #expect(photo.source(coveringShortSide: 1537) == original)
    }

    @Test func withoutDimensionsARenditionIsAssumedSquare() {
        for photo in [photo(width: nil, height: nil), photo(width: 4000, height: nil), photo(width: nil, height: 3000)] {
            #expect(photo.source(coveringShortSide: 256).lastPathSegment == "256.jpg")
            #expect(photo.source(coveringShortSide: 257).lastPathSegment == "512.jpg")
            #expect(photo.source(coveringShortSide: 2048).lastPathSegment == "2048.jpg")
            #expect(photo.source(coveringShortSide: 2049) == original)
        }
    }

    @Test func shortSidesRoundToTheNearestPixel() {
        // 256 × 2667 / 4000 = 170.688: a scaler writes 171 rows.
        let photo = photo(width: 4000, height: 2667)
        #expect(photo.shortSide(of: rendition(256)) == 171)
        #expect(photo.source(coveringShortSide: 171).lastPathSegment == "256.jpg")
        #expect(photo.source(coveringShortSide: 172).lastPathSegment == "512.jpg")
        // A panorama's renditions are thin.
        let panorama = self.photo(width: 12000, height: 1000)
        #expect(panorama.source(coveringShortSide: 100).lastPathSegment == "2048.jpg")
        #expect(panorama.source(coveringShortSide: 171).lastPathSegment == "2048.jpg")
        #expect(panorama.source(coveringShortSide: 172) == original)
    }

    @Test func noRenditionsMeansTheOriginal() {
        let photo = RemotePhoto(id: "p", original: original, width: 4000, height: 3000)
        #expect(photo.source(coveringShortSide: 1) == original)
        #expect(photo.source(coveringShortSide: 10_000) == original)
    }

    @Test func hostileSizesDoNotOverflow() {
        let photo = RemotePhoto(id: "p", original: original, renditions: [rendition(Int.max)], width: Int.max, height: 3)
        #expect(photo.shortSide(of: photo.renditions[0]) == 3)
        let square = RemotePhoto(id: "p", original: original, renditions: [rendition(Int.max)], width: 5, height: 5)
        #expect(square.shortSide(of: square.renditions[0]) == Int.max)
    }

    @Test func theNameDefaultsToTheLastPartOfTheID() {
        #expect(RemotePhoto(id: "alps/lake-01", original: original).name == "lake-01")
        #expect(RemotePhoto(id: "lake", original: original).name == "lake")
        #expect(RemotePhoto(id: "alps/", original: original).name == "alps")
        #expect(RemotePhoto(id: "/", original: original).name == "/")
        #expect(RemotePhoto(id: "alps/lake-01", name: "Lake.jpg", original: original).name == "Lake.jpg")
    }
}
