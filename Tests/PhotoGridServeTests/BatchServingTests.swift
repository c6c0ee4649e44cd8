import Foundation
import Glibc
import Testing
@testable import GalleryFormats
@testable import PhotoGridLoading
@testable import PhotoGridModel
@testable import PhotoGridServe
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// `photogrid serve`'s batches (docs/remote-gallery.md, "Batches"): each item answered as its
/// own GET would be, requests that are no batch refused, the token asked of every item, and no
/// further rendition made once the client has gone.
@Suite(.startsPrograms) struct BatchServingTests {
    static func path(_ id: String, _ size: Int) -> String { RenditionServingTests.path(id, size) }

    static func parts(_ reply: ServedGallery.Reply, items: Int) -> (parts: [Int: BatchReader.Part], ended: Bool) {
        var reader = BatchReader(items: items, maxPartBytes: 64 << 20)
        let parts = reader.feed(reply.body)
        #expect(reader.failure == nil)
        return (Dictionary(parts.map { ($0.index, $0) }, uniquingKeysWith: { a, _ in a }), reader.ended)
    }

    /// Whether `test` comes true within 10 seconds, asked every 20 ms.
    static func eventually(_ test: () -> Bool) async throws -> Bool {
        for _ in 0..<500 {
            if test() { return true }
            try await Task.sleep(for: .milliseconds(20))
        }
        return test()
    }

    @Test func eachItemIsAnsweredAsItsOwnRequestWouldBe() async throws {
        try await ServedGallery.with({ configuration in
            _ = FileManager.default.createFile(atPath: configuration.folder + "/broken.jpg", contents: Data(RenditionServingTests.brokenBytes))
        }) { served in
            let targets = [Self.path(GalleryFixture.night, 256), Self.path(GalleryFixture.awkward, 512), Self.path("nope.jpg", 256),
                           "/originals/" + ServedGallery.encoded(GalleryFixture.night), Self.path(GalleryFixture.night, 300),
                           Self.path("broken.jpg", 256), "/", "/batch"]
            let reply = try await served.request("/batch", method: .POST, body: Batch.requestBody(targets))
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == Batch.contentType)
            let (parts, ended) = Self.parts(reply, items: targets.count)
            #expect(ended && parts.count == targets.count)
            for index in [0, 1] {
                let alone = try await served.request(targets[index])
                #expect(parts[index]?.status == 200)
                #expect(parts[index]?.body == alone.body)
                #expect(parts[index]?.header("ETag") == alone.header("ETag"))
                #expect(parts[index]?.header("Cache-Control") == GalleryResponder.renditionCaching)
                #expect(parts[index]?.header("Content-Type") == "image/jpeg")
            }
            // No photo, an original, a size not offered, the manifest, a batch: not renditions.
            for index in [2, 3, 4, 6, 7] { #expect(parts[index]?.status == 404, "\(targets[index])") }
            // A photo that cannot be made smaller says why, as a GET of it does.
            #expect(parts[5]?.status == 500)
            #expect(parts[5]?.header(FetchError.reasonHeader) == (try await served.request(targets[5])).header(FetchError.reasonHeader))
            // The server counts each item under its own path: "/batch" twice, as the request
            // and as its last item.
            #expect(served.server.requestCount(path: "/batch") == 2)
            #expect(served.server.totalRequests == 4)
            #expect(served.server.requestCount(path: targets[1]) == 2)
        }
    }

    /// An opening batch names no photo: part `i` is the manifest's photo `i` in the rendition the
    /// client's own reading of the manifest chooses for the size asked, and says so.
    @Test func anOpeningBringsTheFirstPhotosAsTheClientChoosesThem() async throws {
        for token in [nil, AccessTokenTests.token] {
            try await ServedGallery.with({ $0.token = token }) { served in
                let base = token.map { "/t/\($0)" } ?? ""
                let manifestReply = try await served.request(base + "/")
                let manifestURL = RemoteURL(served.base + base + "/")!
                guard case .manifest(let manifest) = try RemoteDocument.classify(body: manifestReply.body, contentType: "application/json",
                                                                                url: manifestURL) else {
                    Issue.record("not a manifest")
                    return
                }
                let photos = manifest.photos
                let batchURL = manifestURL.resolving("batch")!
                for covering in [40, 300, 700] {
                    let opening = Batch.Opening(count: photos.count + 5, covering: covering)
                    let reply = try await served.request(base + "/batch", method: .POST, body: opening.body)
                    #expect(reply.status == 200)
                    let (parts, ended) = Self.parts(reply, items: opening.count)
                    // One part for each photo there is, then the end.
                    #expect(ended && parts.count == photos.count, "\(parts.keys.sorted())")
                    for (index, photo) in photos.enumerated() {
                        // A video's part is its original's: no rendition is made of one.
                        let isVideo = ImageFormat(fileExtension: RawPath(photo.name).lowercasedExtension).isVideo
                        let chosen = isVideo ? photo.original : photo.source(coveringShortSide: covering)
                        let location = parts[index]?.header("Content-Location").flatMap { batchURL.resolving($0) }
                        #expect(location == chosen, "\(covering): \(photo.id)")
                        if chosen == photo.original {
                            #expect(parts[index]?.status == 404)    // an original is no batch's
                        } else {
                            #expect(parts[index]?.status == 200)
                            #expect(parts[index]?.body == (try await served.request(chosen.pathAndQuery)).body, "\(photo.id)")
                        }
                    }
                }
                #expect(served.server.openingBatches == 3)
                // Without the token, nothing is said of what the gallery holds.
                if token != nil {
                    let refused = try await served.request("/batch", method: .POST, body: Batch.Opening(count: 3, covering: 40).body)
                    #expect(refused.status == 401)
                }
            }
        }
    }

    @Test func requestsThatAreNoBatchAreRefused() async throws {
        try await ServedGallery.with { served in
            let get = try await served.request("/batch")
            #expect(get.status == 405 && get.header("Allow") == "POST")
            #expect(try await served.request("/batch", method: .POST, body: []).status == 400)
            #expect(try await served.request("/batch", method: .POST, body: Array("renditions/x.jpg/256.jpg\n".utf8)).status == 400)
            let tooMany = Batch.requestBody(Array(repeating: Self.path(GalleryFixture.night, 256), count: Batch.maxItems + 1))
            #expect(try await served.request("/batch", method: .POST, body: tooMany).status == 400)
            let tooLong = [UInt8](repeating: UInt8(ascii: "/"), count: Batch.maxRequestBytes + 1)
            #expect(try await served.request("/batch", method: .POST, body: tooLong).status == 413)
            // POST anywhere else is still not allowed.
            let elsewhere = try await served.request("/", method: .POST, body: Batch.requestBody(["/"]))
            #expect(elsewhere.status == 405 && elsewhere.header("Allow") == "GET, HEAD")
        }
    }

    @Test func theTokenIsAskedOfTheBatchAndOfEachItem() async throws {
        let token = AccessTokenTests.token
        try await ServedGallery.with({ $0.token = token }) { served in
            let good = "/t/\(token)" + Self.path(GalleryFixture.night, 256)
            let bad = "/t/\(token)x" + Self.path(GalleryFixture.night, 256)
            #expect(try await served.request("/batch", method: .POST, body: Batch.requestBody([good])).status == 401)
            let reply = try await served.request("/t/\(token)/batch", method: .POST, body: Batch.requestBody([good, bad]))
            #expect(reply.status == 200)
            let (parts, _) = Self.parts(reply, items: 2)
            #expect(parts[0]?.status == 200 && parts[1]?.status == 401)
        }
    }

    /// A client that goes while its batch is being made: the renditions under way finish, no
    /// other is started.
    @Test func aClientThatGoesStopsItsBatch() async throws {
        try await ServedGallery.with { served in
            let gate = DispatchSemaphore(value: 0)
            served.server.renditions.beforeMaking.withLock { $0 = { gate.wait() } }
            let ids = [GalleryFixture.night, GalleryFixture.rotated, GalleryFixture.small, GalleryFixture.inSubfolder, GalleryFixture.awkward]
            let targets = ids.flatMap { id in [256, 512, 1024, 2048].map { Self.path(id, $0) } }
            let body = Batch.requestBody(targets)
            let fd = try RawHTTP.connect(port: served.port)
            #expect(RawHTTP.write(fd, "POST /batch HTTP/1.1\r\nHost: localhost\r\nContent-Length: \(body.count)\r\n\r\n"
                                  + String(decoding: body, as: UTF8.self)))
            func started() -> Int { targets.reduce(0) { $0 + served.server.requestCount(path: $1) } }
            // The first items wait at the gate; the client goes; the server notices.
            #expect(try await Self.eventually { started() > 0 })
            close(fd)
            #expect(try await Self.eventually { served.server.openConnections.count == 0 })
            served.server.renditions.beforeMaking.withLock { $0 = nil }
            for _ in 0..<targets.count { gate.signal() }
            let madeBefore = started()
            #expect(try await Self.eventually { served.server.renditions.encodes.load(ordering: .relaxed) >= madeBefore })
            try await Task.sleep(for: .milliseconds(300))       // time enough to start more, if it would
            let started = started()
            #expect(started > 0 && started <= BatchStream.concurrency, "\(started) of \(targets.count) started")
            #expect(served.server.renditions.encodes.load(ordering: .relaxed) <= BatchStream.concurrency)
        }
    }
}
