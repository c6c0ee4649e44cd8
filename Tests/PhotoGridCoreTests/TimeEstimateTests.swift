import Testing
@testable import PhotoGridCore
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridLoading
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridSamples
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// A decoder whose details wait until let go: the dates' reading stays under way while the test
/// looks at what the views show meanwhile.
final class HeldInfoDecoder: PhotoDecoding, @unchecked Sendable {
    let decoder = PhotoDecoder()
    let release = Pending<Bool>()

    var memoryGate: MemoryGate? { nil }
    func image(of photo: Photo, from bytes: PhotoBytes, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        try decoder.image(of: photo, from: bytes, covering: size, atMost: limit)
    }
    func thumbnail(of photo: Photo, from bytes: PhotoBytes) -> RGBImage? { decoder.thumbnail(of: photo, from: bytes) }
    func info(of photo: Photo, from bytes: PhotoBytes) -> PhotoInfo? {
        _ = release.wait()
        return decoder.info(of: photo, from: bytes)
    }
    func frames(of photo: Photo, from bytes: PhotoBytes, each: (Animation.Frame) -> Bool) throws(DecodeError) {}
}

/// Time without waiting: `-` at 6 columns shows the days at once, on the dates the folders name
/// while the dates taken are read, says they are estimates, and puts each photo in its right
/// day once its date is read, the focus kept on its photo.
@Suite struct TimeEstimateTests {
    @Test func theDaysShowAtOnceOnEstimatesAndArePutRight() throws {
        let root = TestImages.scratchFolder("time-estimates")
        defer { TestImages.remove(root) }
        // Kept in day folders that say one thing; taken (EXIF) on other days, in the other order.
        let photos = [("2015/2015-03-01/a.jpg", "2020:01:01 10:00:00"), ("2016/2016-05-01/b.jpg", "2010:06:01 10:00:00"),
                      ("2017/2017-07-01/c.jpg", "2017:07:01 10:00:00")]
        for (path, date) in photos {
            #expect(RawPath(root + "/" + path).parent.makeDirectories(permissions: 0o755))
            TestImages.write(try MetadataFixtures.jpeg(exif: ExifFields(dateTimeOriginal: date)), to: root + "/" + path)
        }
        let decoder = HeldInfoDecoder()
        let waiter = Waiter()
        let session = GridSession(photos: try FolderScanner().scan(RawPath(root)), mode: .halfBlock(.trueColor), fit: .fill,
                                  cacheBytes: 64 << 20) { waiter.signal() }
        defer { session.pipeline.stop() }
        let grid = GridController(title: "library", session: session, screen: ScreenMetrics(columns: 120, rows: 40), columns: 6, modeName: "half-block")
        grid.allowChanges(order: nil, showHidden: false, rescan: nil) { photos in
            CaptureDates(photos: photos, reader: InfoReader(loader: FileLoader(), decoder: decoder), catalog: nil) { waiter.signal() }
        }
        func names() -> [String] { grid.session.photos.records.map(\.name) }
        grid.handle(.right)
        grid.handle(.right)                                   // the focus on c.jpg
        grid.handle(.character("-"))
        #expect(grid.topScreen is TimeView, "the days open at once")
        #expect(names() == ["a.jpg", "b.jpg", "c.jpg"], "by the folders' dates meanwhile")
        let waiting = grid.frame().status
        #expect(waiting.contains("dates estimated: reading 0 of 3") && waiting.contains("2017-07-01"), "\(waiting)")
        decoder.release.fulfil(true)
        #expect(waiter.wait { grid.gallery.dates.reader?.progress.finished ?? true })
        grid.take(.datesRead)
        #expect(names() == ["b.jpg", "c.jpg", "a.jpg"], "by the dates taken once read")
        let done = grid.frame().status
        #expect(!done.contains("estimated") && done.contains("c.jpg") && done.contains("2017-07-01"), "the focus kept: \(done)")
        #expect(grid.topScreen is TimeView)
    }
}
