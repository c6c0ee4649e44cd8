import Foundation
import Glibc
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridLoading
@testable import PhotoGridMetadata
@testable import PhotoGridModel
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// A listing's camera JPEGs with Multi-Picture previews: a tile the preview covers takes the
/// head and then the preview's byte range, never the whole original; a tile larger than the
/// preview takes the original as before.
@Suite(.startsPrograms, .serialized) struct PreviewRangeTests {
    /// Camera-like copies of sample photos: the photo at twice its size as the primary, and the
    /// photo at half its size as the preview after it.
    static func cameraCopies(into root: String) throws -> [String: Int] {
        var previewSizes: [String: Int] = [:]
        for name in ["travel/beach-03.jpg", "landscapes/lake-02.jpg"] {
            let photo = try JPEG.decode(try #require(TestImages.read(RemotePaths.gallery + "/" + name)))
            let whole = Resampler.Region(x: 0, y: 0, width: Double(photo.width), height: Double(photo.height))
            let primary = try JPEG.encode(Resampler.resample(photo, region: whole, width: photo.width * 2, height: photo.height * 2), quality: 95)
            let preview = try JPEG.encode(Resampler.resample(photo, region: whole, width: photo.width / 2, height: photo.height / 2), quality: 85)
            let file = RawPath(name).lastComponent.description
            TestImages.write(MultiPictureWriter.add(preview, to: primary), to: root + "/" + file)
            chmod(root + "/" + file, 0o644)
            previewSizes["/" + file] = preview.count
        }
        return previewSizes
    }

    /// Which heads the preview is asked for after: not where the EXIF thumbnail covers the tile,
    /// nor where its share of the file's bytes says it is far smaller than the tile.
    @Test func thePreviewIsAskedForOnlyWhereItMayCoverWhatTheThumbnailDoesNot() throws {
        // Noise, so that the photo runs far past its head as a camera's does.
        var seed: UInt32 = 7
        let image = RGBImage(width: 1200, height: 800, pixels: (0..<(1200 * 800 * 3)).map { _ in
            seed = seed &* 1_664_525 &+ 1_013_904_223
            return UInt8(truncatingIfNeeded: seed >> 24)
        })
        let thumbnail = try JPEG.encode(Resampler.fit(image, width: 160, height: 120), quality: 80)
        let primary = try JPEG.encode(image, quality: 95, app1: ExifBuilder.app1(ExifFields(orientation: 1, thumbnail: thumbnail)))
        let file = MultiPictureWriter.add(try JPEG.encode(Resampler.fit(image, width: 600, height: 400), quality: 85), to: primary)
        let head = Array(file.prefix(RemoteLoader.headLength))
        let range = try #require(JPEGSegments.parse(head).preview)
        // 160x107 once cut to 3:2: a 100-pixel tile is the thumbnail's, a 300-pixel one the preview's.
        #expect(RemoteLoader.previewRange(in: head, covering: 100) == nil)
        #expect(RemoteLoader.previewRange(in: head, covering: 300) == range)
        // The zoom view of the whole photo: more than the preview's 400 rows, far more than the guess.
        #expect(RemoteLoader.previewRange(in: head, covering: 800) == nil)
        // A head that holds the preview itself needs no second request.
        #expect(RemoteLoader.previewRange(in: file, covering: 300) == nil)
    }

    /// python's http.server ignores `Range`: its answer to the head is the whole file (cut at 64
    /// KB), and a request for the preview's range would bring the file's start again. Each photo
    /// is asked for twice, the head and the original, as before previews.
    @Test func aServerThatIgnoresRangesIsNotAskedForThePreview() throws {
        let root = RemotePaths.scratch("previews-python")
        defer { try? FileManager.default.removeItem(atPath: root) }
        chmod(root, 0o755)
        let previews = try Self.cameraCopies(into: root)
        let log = root + ".log"
        defer { unlink(log) }
        let port = Subprocess.freePort()
        let python = try Subprocess.start(["sh", "-c", "exec python3 -m http.server \(port) --bind 127.0.0.1 --directory '\(root)' 2>'\(log)'"])
        defer { Subprocess.stop(python) }
        #expect(Subprocess.waitForPort(port))
        let home = RemotePaths.scratch("previews-python-client")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let printed = try RemotePaths.print(["--mode", "sixel", "--size", "120x40", "--cell-size", "10x20", "--columns", "5",
                                             "--url", "http://127.0.0.1:\(port)/"], cacheHome: home)
        #expect(printed.status == 0, "\(printed.errorText)")
        let lines = String(decoding: TestImages.read(log) ?? [], as: UTF8.self).split(separator: "\n")
        for uri in previews.keys {
            #expect(lines.filter { $0.contains("\"GET \(uri) ") }.count == 2, "\(uri): \(lines)")
        }
    }

    @Test(.enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"))
    func smallTilesComeFromThePreviewsRangeAndLargeOnesFromTheOriginal() throws {
        let root = RemotePaths.scratch("previews")
        defer { try? FileManager.default.removeItem(atPath: root) }
        chmod(root, 0o755)
        let previews = try Self.cameraCopies(into: root)
        try Nginx.serving(root, autoindex: "on", log: "$request_uri $status $body_bytes_sent") { port, prefix in
            func requests() -> [(uri: String, status: Int, bytes: Int)] { Nginx.jpegRequests(prefix) }
            // Sixel tiles 240 pixels wide: the previews (600 and 900 pixels) cover them.
            let small = RemotePaths.scratch("previews-small")
            defer { try? FileManager.default.removeItem(atPath: small) }
            let printed = try RemotePaths.print(["--mode", "sixel", "--size", "120x40", "--cell-size", "10x20", "--columns", "5",
                                                 "--url", "http://127.0.0.1:\(port)/"], cacheHome: small)
            #expect(printed.status == 0, "\(printed.errorText)")
            #expect(String(decoding: printed.output, as: UTF8.self).components(separatedBy: "\u{1B}P").count > 2)
            let first = requests()
            for (uri, size) in previews {
                let asked = first.filter { $0.uri == uri }
                // The head, then exactly the preview's bytes; the original never.
                #expect(asked.count == 2 && asked.allSatisfy { $0.status == 206 }, "\(uri): \(asked)")
                #expect(asked.first?.bytes == 65536 && asked.last?.bytes == size, "\(uri): \(asked)")
            }
            // One photo filling 2400x1340 pixels: more than either preview has; the original.
            let large = RemotePaths.scratch("previews-large")
            defer { try? FileManager.default.removeItem(atPath: large) }
            let whole = try RemotePaths.print(["--mode", "sixel", "--size", "240x67", "--cell-size", "10x20", "--columns", "1",
                                               "--url", "http://127.0.0.1:\(port)/"], cacheHome: large)
            #expect(whole.status == 0, "\(whole.errorText)")
            let second = requests().dropFirst(first.count)
            #expect(second.contains { $0.status == 200 }, "\(second)")
        }
    }
}
