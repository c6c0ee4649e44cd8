import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridLoading
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridServe
import PhotoGridTestFixtures

/// Renditions over HTTP: decoded back with libjpeg and compared with the original decoded here.
@Suite struct RenditionServingTests {
    static func path(_ id: String, _ size: Int) -> String { "/renditions/\(ServedGallery.encoded(id))/\(size).jpg" }

    /// Mean difference per channel between two images squeezed to 6 x 6: near 0 for the same
    /// picture, large for a different one or the same one turned.
    static func difference(_ a: RGBImage, _ b: RGBImage) -> Double {
        func coarse(_ image: RGBImage) -> RGBImage {
            Resampler.resample(image, region: .init(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
                               width: 6, height: 6)
        }
        let x = coarse(a).pixels, y = coarse(b).pixels
        return Double(zip(x, y).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }) / Double(x.count)
    }

    @Test(.startsPrograms) func longSideIsTheSizeAndThePhotoIsUpright() async throws {
        try await ServedGallery.with { served in
            let original = try served.fixture.bytes(GalleryFixture.rotated)
            let upright = try PhotoDecoder().decode(original, covering: 64, atMost: 64).image
            // Turned the other way: what a server that read the tag backwards would send.
            let turnedWrong = Orientation.left.apply(to: try JPEG.decode(original, options: .init(scaleEighths: 1)))
            for size in [256, 512, 1024, 2048] {
                let reply = try await served.request(Self.path(GalleryFixture.rotated, size))
                #expect(reply.status == 200)
                #expect(reply.header("Content-Type") == "image/jpeg")
                #expect(reply.header("Cache-Control") == "public, max-age=86400")
                let image = try JPEG.decode(reply.body)
                // 1800 x 1200 stored, turned: 1200 x 1800; 2048 is more than it has.
                let long = min(size, 1800)
                #expect(image.height == long)
                #expect(image.width == Int((Double(long) * 1200 / 1800).rounded()))
                #expect(Self.difference(image, upright) < 8, "size \(size)")
                #expect(Self.difference(image, turnedWrong) > 3 * Self.difference(image, upright) + 10, "size \(size)")
                // Pixels upright, and no tag that a client could apply once more.
                let info = try #require(PhotoInfo.read(reply.body))
                #expect(info.orientation == .up)
                #expect(JPEGSegments.parse(reply.body).exif == nil)
            }
        }
    }

    @Test(.startsPrograms) func aSmallPhotoIsNeverEnlarged() async throws {
        try await ServedGallery.with { served in
            for size in [256, 2048] {
                let image = try JPEG.decode(try await served.request(Self.path(GalleryFixture.small, size)).body)
                #expect(image.width == 120 && image.height == 80)
                #expect(image[10, 40].r > 150 && image[10, 40].b < 80)       // red on the left
                #expect(image[110, 40].b > 150 && image[110, 40].r < 80)     // blue on the right
            }
        }
    }

    @Test(.startsPrograms) func aSecondRequestIsReadFromTheDiskCache() async throws {
        try await ServedGallery.with(cache: true) { served in
            let path = Self.path(GalleryFixture.inSubfolder, 512)
            let first = try await served.request(path)
            #expect(first.status == 200)
            #expect(served.server.renditions.encodes.load(ordering: .relaxed) == 1)
            let second = try await served.request(path)
            #expect(second.body == first.body)
            #expect(second.header("ETag") == first.header("ETag"))
            #expect(served.server.renditions.encodes.load(ordering: .relaxed) == 1)
            #expect(served.server.renditions.cacheHits.load(ordering: .relaxed) == 1)

            let etag = try #require(first.header("ETag"))
            let revalidated = try await served.request(path, headers: [("If-None-Match", etag)])
            #expect(revalidated.status == 304)
            #expect(revalidated.body.isEmpty)
            #expect(revalidated.header("ETag") == etag)
            #expect(served.server.renditions.encodes.load(ordering: .relaxed) == 1)

            // Another size is another rendition.
            #expect(try await served.request(Self.path(GalleryFixture.inSubfolder, 256)).status == 200)
            #expect(served.server.renditions.encodes.load(ordering: .relaxed) == 2)
        }
    }

    @Test(.startsPrograms) func withoutACacheEachRequestMakesTheRenditionAgain() async throws {
        try await ServedGallery.with { served in
            let path = Self.path(GalleryFixture.night, 256)
            let first = try await served.request(path)
            let second = try await served.request(path)
            #expect(first.body == second.body)
            #expect(served.server.renditions.encodes.load(ordering: .relaxed) == 2)
        }
    }

    @Test func theCacheOutlivesTheServer() async throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let configuration = GalleryServer.Configuration(folder: fixture.folder, port: 0, cacheDirectory: fixture.base + "/cache")
        var bodies: [[UInt8]] = []
        for _ in 0..<2 {
            let server = try GalleryServer(configuration)
            let port = try server.start()
            let reply = try RawHTTP.get(port: port, Self.path(GalleryFixture.night, 1024))
            bodies.append(reply.body)
            #expect(server.renditions.encodes.load(ordering: .relaxed) == (bodies.count == 1 ? 1 : 0))
            server.stop()
        }
        #expect(bodies[0] == bodies[1])
    }

    @Test(.startsPrograms) func concurrentRequestsForOneRenditionShareOneMaking() async throws {
        try await ServedGallery.with { served in
            let waiting = 6
            let store = served.server.renditions
            // Holds the one making until all requests have joined it (or 10 s have passed, in
            // which case each request would have made its own and the count below says so).
            store.beforeMaking.withLock { hook in
                hook = { [weak store] in
                    for _ in 0..<1000 where (store?.subscribers ?? waiting) < waiting { usleep(10_000) }
                }
            }
            let path = Self.path(GalleryFixture.rotated, 1024)
            let replies = try await withThrowingTaskGroup(of: ServedGallery.Reply.self) { group in
                for _ in 0..<waiting { group.addTask { try await served.request(path) } }
                return try await group.reduce(into: []) { $0.append($1) }
            }
            #expect(replies.count == waiting)
            #expect(replies.allSatisfy { $0.status == 200 && $0.body == replies[0].body })
            #expect(store.encodes.load(ordering: .relaxed) == 1)
        }
    }

    @Test(.startsPrograms) func headTellsTheLengthWithoutTheBody() async throws {
        try await ServedGallery.with { served in
            let path = Self.path(GalleryFixture.awkward, 256)
            let get = try await served.request(path)
            let head = try await served.request(path, method: .HEAD)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(get.body.count))
            #expect(head.header("ETag") == get.header("ETag"))
        }
    }

    @Test(.startsPrograms) func onlyTheConfiguredSizesExist() async throws {
        try await ServedGallery.with({ $0.renditionSizes = [300, 100] }) { served in
            #expect(try await served.request(Self.path(GalleryFixture.night, 300)).status == 200)
            #expect(try await served.request(Self.path(GalleryFixture.night, 256)).status == 404)
            #expect(try await served.request(Self.path(GalleryFixture.night, 0)).status == 404)
            #expect(try await served.request("/renditions/\(GalleryFixture.night)/0100.jpg").status == 404)
            #expect(try await served.request("/renditions/nothing.jpg/100.jpg").status == 404)
            let json = try ManifestServingTests.parse(try await served.request("/").body)
            #expect((json["renditions"] as? [String: Any])?["sizes"] as? [Int] == [100, 300])
        }
    }

    static let brokenBytes: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0x00, 0x10] + Array(repeating: 0x41, count: 64)

    @Test(.startsPrograms) func aDamagedPhotoGetsAnErrorNotACrash() async throws {
        try await ServedGallery.with({ configuration in
            let broken = configuration.folder + "/broken.jpg"
            _ = FileManager.default.createFile(atPath: broken, contents: Data(Self.brokenBytes))
        }) { served in
            let reply = try await served.request("/renditions/broken.jpg/256.jpg")
            #expect(reply.status == 500)
            #expect(String(decoding: reply.body, as: UTF8.self).hasPrefix("cannot make a rendition"))
            // Why, in the words a local tile of the same file shows; the client shows them too.
            var local = ""
            do throws(DecodeError) { _ = try Rendition.make(from: Self.brokenBytes, longSide: 256) } catch { local = error.description }
            #expect(!local.isEmpty && reply.header(FetchError.reasonHeader) == local)
            #expect(FetchError.serverReason(reply.header(FetchError.reasonHeader)) == local)
            #expect(FetchError.photoUnusable(local).reason == local && !FetchError.photoUnusable(local).isTransient)
            // The server goes on.
            #expect(try await served.request(Self.path(GalleryFixture.night, 256)).status == 200)
        }
    }
}
