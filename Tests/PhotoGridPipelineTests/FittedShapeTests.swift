import Dispatch
import Glibc
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridPipeline
@testable import PhotoGridSystem

/// A decoder of 1600x900 photos that records the size each decode is asked to cover.
private final class WidePhotos: PhotoDecoding {
    let sizes = Locked<[Int]>([])

    func image(of photo: Photo, from bytes: PhotoBytes, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        sizes.withLock { $0.append(size) }
        let short = min(size, limit)
        return DecodedImage(image: RGBImage(width: short * 16 / 9, height: short, fill: RGB(9, 9, 9)), origin: .file(scaleEighths: 1, scans: 1))
    }

    func thumbnail(of photo: Photo, from bytes: PhotoBytes) -> RGBImage? { nil }

    func info(of photo: Photo, from bytes: PhotoBytes) -> PhotoInfo? {
        var info = PhotoInfo()
        (info.width, info.height) = (1600, 900)
        return info
    }
}

@Suite struct FittedShapeTests {
    let photos = (0..<2).map { Photo(path: RawPath("/nonexistent/\($0).jpg"), relativePath: RawPath("\($0).jpg")) }

    /// The size the decode of photo 0 is asked to cover for one tile of a 400x440 box, with its
    /// details read first or not.
    func decodedSize(_ fit: FitMode, detailsFirst: Bool) -> Int? {
        let decoder = WidePhotos()
        let finished = Finished()
        let pipeline = TilePipeline(photos: photos, cache: TileCache(limitBytes: 1 << 26), decoder: decoder, workers: 2, onFinish: finished.add)
        defer { pipeline.stop() }
        if detailsFirst {
            pipeline.want([], infos: [WantedInfo(PhotoID(0), .visible)])
            for _ in 0..<1000 where !pipeline.hasReadInfo(PhotoID(0)) { usleep(1000) }
        }
        pipeline.want([WantedTile(TileRequest(photo: PhotoID(0), width: 400, height: 440, fit: fit, mode: .halfBlock(.trueColor)), .visible)])
        guard finished.wait(for: 1) else { return nil }
        return decoder.sizes.withLock { $0.first }
    }

    @Test func aFittedTileOfAPhotoWhoseShapeIsKnownIsDecodedForWhatItShows() {
        // 1600x900 fitted in 400x440 shows 400x225: its short side, 225, is what the decode needs.
        #expect(decodedSize(.fit, detailsFirst: true) == 225)
        // Not known: the box's short side, as before.
        #expect(decodedSize(.fit, detailsFirst: false) == 400)
        // Filling the box needs its long side whatever the shape (the photo's short side is cut to it).
        #expect(decodedSize(.fill, detailsFirst: true) == 440)
    }

    @Test func theShapeNeverAsksForMoreThanTheBox() {
        let request = TileRequest(photo: PhotoID(0), width: 400, height: 440, fit: .fit, mode: .halfBlock(.trueColor))
        #expect(request.neededSize(shape: (1600, 900)) == 225)
        #expect(request.neededSize(shape: (900, 1600)) == 248)      // 440 tall: 247.5 wide, rounded up
        #expect(request.neededSize(shape: (1000, 1000)) == 400)
        #expect(request.neededSize(shape: nil) == request.neededSize)
        #expect(request.neededSize(shape: (0, 900)) == request.neededSize)
        var cropped = request
        cropped.crop = CropRegion(x: 0, y: 0, width: 0.5, height: 0.5)
        #expect(cropped.neededSize(shape: (1600, 900)) == cropped.neededSize)
    }
}
