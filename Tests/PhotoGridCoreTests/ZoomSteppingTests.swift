import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridCore
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// A decoder as slow as a very large photo: each decode runs until the pipeline cancels it (or
/// thirty seconds pass: on a machine busy with the rest of the suite ten were seen to pass
/// before the test stepped), counting both.
final class StallingDecoder: PhotoDecoding {
    let started = Locked<[String]>([])
    let cancelled = Locked<[String]>([])
    /// Told when a decode starts and when one is cancelled.
    let waiter = Waiter()

    func image(of photo: Photo, from bytes: PhotoBytes, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        started.withLock { $0.append(photo.name) }
        waiter.signal()
        let flag = CancelFlag.current
        for _ in 0..<3000 {
            if flag?.isCancelled == true {
                cancelled.withLock { $0.append(photo.name) }
                waiter.signal()
                throw .cancelled
            }
            usleep(10_000)
        }
        throw .corrupt("never cancelled")
    }

    func thumbnail(of photo: Photo, from bytes: PhotoBytes) -> RGBImage? { nil }
}

/// Stepping through photos in the zoom view faster than they decode (issue 13): each step shows
/// at once what memory has of the photo, the status line and the placeholder name the same
/// photo, and the decodes of photos passed are dropped, not finished.
@Suite struct ZoomSteppingTests {
    func controller(_ decoder: StallingDecoder) throws -> GridController {
        let photos = try FolderScanner().scan(RawPath(Paths.gallery))
        let session = GridSession(photos: photos, mode: .halfBlock(.trueColor), fit: .fill, cacheBytes: 256 << 20,
                                  decoder: decoder) { [waiter = decoder.waiter] in waiter.signal() }
        return GridController(title: "sample-gallery", session: session, screen: ScreenMetrics(columns: 120, rows: 40),
                              columns: 4, modeName: "half-block")
    }

    @Test func photosSteppedPastStopDecodingAndThePlaceholderNamesThePhotoShown() throws {
        let decoder = StallingDecoder()
        let grid = try controller(decoder)
        defer { grid.session.pipeline.stop() }
        let photos = grid.session.photos
        grid.openZoom(0)
        // Its shape first (a short read of the file): the view asks for the photo at fit.
        #expect(decoder.waiter.wait { _ = grid.frame(); return decoder.started.withLock { $0.contains(photos[0].name) } })
        var last = grid.frame()
        for step in 1...3 {
            grid.handle(.character("n"))
            last = grid.frame()
            #expect(last.status.contains("\(step + 1) of \(photos.count)"), "\(last.status)")
            // The placeholder is written again for each photo: it names the one now shown.
            #expect(String(decoding: last.bytes, as: UTF8.self).contains("loading " + photos[step].name), "step \(step)")
        }
        // Photo 0 is two steps behind, no neighbour of photo 3: its decode stops.
        let stopped = decoder.waiter.wait { _ = grid.frame(); return decoder.cancelled.withLock { $0.contains(photos[0].name) } }
        #expect(stopped, "started \(decoder.started.withLock { $0 }), cancelled \(decoder.cancelled.withLock { $0 })")
        // Counted once the worker has taken the decoder's answer, a moment after the decoder says
        // so (a loaded machine was seen to look in between).
        #expect(decoder.waiter.wait { grid.session.pipeline.workDone.cancelled >= 1 })
        // Nothing that was cancelled is shown as a failure.
        #expect(grid.session.pipeline.failure(forPhoto: 0) == nil)
        #expect(!decoder.cancelled.withLock { $0.contains(photos[3].name) })
    }

    /// libjpeg itself stops at its next row of blocks once the flag is set: here set before the
    /// decode starts, so it stops at the first.
    @Test func aCancelledJPEGDecodeStops() throws {
        let jpeg = try JPEG.encode(TestImages.gradient(width: 640, height: 480), quality: 90)
        var options = JPEG.DecodeOptions(scaleEighths: 8)
        options.cancel = CancelFlag()
        #expect(try JPEG.decode(jpeg, options: options).width == 640)
        options.cancel?.cancel()
        #expect(throws: DecodeError.cancelled) { try JPEG.decode(jpeg, options: options) }
    }

    @Test func aCancelledPNGDecodeStops() throws {
        let png = try #require(PNG.encode(TestImages.gradient(width: 320, height: 240)))
        let flag = CancelFlag()
        #expect(try PNG.decode(png, cancel: flag).width == 320)
        flag.cancel()
        #expect(throws: DecodeError.cancelled) { try PNG.decode(png, cancel: flag) }
    }

    @Test func aStepShowsThePhotosGridTileAtOnceWhileItsViewIsMade() throws {
        let grid = try controller(StallingDecoder())
        defer { grid.session.pipeline.stop() }
        // The grid's tile of photo 1 is in memory (drawn a moment ago); its view is not.
        let tileRequest = TileRequest(photo: 1, width: 30, height: 30, fit: .fill, mode: .halfBlock(.trueColor))
        let lines = HalfBlock.encode(RGBImage(width: 30, height: 30, fill: RGB(200, 30, 40)), colors: .trueColor)
        grid.session.cache.store(.cells(lines), for: tileRequest)
        grid.openZoom(0)
        _ = grid.frame()
        grid.handle(.character("n"))
        let frame = grid.frame()
        let text = String(decoding: frame.bytes, as: UTF8.self)
        #expect(frame.status.contains("2 of "))
        #expect(text.contains(String(decoding: lines[0], as: UTF8.self)), "the grid tile is not drawn")
        #expect(!text.contains("loading"))
        // Photo 0 has no tile anywhere: its placeholder.
        grid.handle(.character("p"))
        #expect(String(decoding: grid.frame().bytes, as: UTF8.self).contains("loading " + grid.session.photos[0].name))
    }
}
