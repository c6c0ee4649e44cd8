import Foundation
import Testing
@testable import GalleryFormats
@testable import PhotoGridLoading
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// Batches on the client's side, against servers that answer them well, lie in them, refuse them,
/// or are too slow for a user who moves on: the tiles get their bytes from one request, or say
/// what went wrong, or are asked for alone.
@Suite(.startsPrograms) struct BatchFetchTests {
    static func fetcher() -> Fetcher {
        Fetcher.forTests()
    }

    /// A server answering with `handler`, a fetcher and a batch fetcher for its `/batch`: all
    /// stopped after `body`.
    static func with(_ handler: @escaping @Sendable (TestServer.Request) -> TestServer.Behavior,
                     _ body: (TestServer, Fetcher, BatchFetcher) throws -> Void) throws {
        let server = try TestServer(handler: handler)
        defer { server.stop() }
        let http = fetcher()
        defer { http.shutdown() }
        try body(server, http, BatchFetcher(endpoint: url(server, "/batch"), fetcher: http))
    }

    static func url(_ server: TestServer, _ path: String) -> RemoteURL { RemoteURL(server.url.dropLast() + path)! }

    static func part(_ index: Int, _ body: String) -> [UInt8] {
        Batch.partHead(index: index, status: 200, length: body.utf8.count, headers: [("Content-Type", "image/jpeg")]) + Array(body.utf8)
    }

    /// A server that answers each item of a batch with "bytes of PATH", and each path alone the same.
    static func honest(_ request: TestServer.Request) -> TestServer.Behavior {
        guard request.path == "/batch" else { return .respond(status: 200, headers: [], body: Array("bytes of \(request.path)".utf8)) }
        let targets = Batch.targets(in: request.body) ?? []
        var body: [UInt8] = []
        for (index, target) in targets.enumerated().reversed() { body += part(index, "bytes of \(target)") }
        return .respond(status: 200, headers: [("Content-Type", Batch.contentType)], body: body + Batch.end)
    }

    @Test func wantedRenditionsComeInOneRequestAndEachTileGetsItsOwn() throws {
        try Self.with(Self.honest) { server, http, batches throws in
            let urls = (0..<5).map { Self.url(server, "/r/\($0).jpg") }
            batches.want(urls)
            batches.catchUp()
            for (index, url) in urls.enumerated() {
                #expect(try http.get(url, range: nil, limit: 1 << 20).body == Array("bytes of /r/\(index).jpg".utf8))
            }
            #expect(server.count("/batch") == 1)
            #expect((0..<5).allSatisfy { server.count("/r/\($0).jpg") == 0 })
            // The same wish again, and one with those already answered: nothing more is asked.
            batches.want(urls)
            batches.want(Array(urls.reversed()))
            batches.catchUp()
            #expect(batches.batchesSent == 1)
            // A rendition of another server is not the batch's to ask for.
            batches.want([RemoteURL("http://127.0.0.2:1/r/9.jpg")!])
            batches.catchUp()
            #expect(batches.batchesSent == 1)
        }
    }

    /// A first visit's opening batch: sent before the manifest is read, its parts kept until
    /// the manifest says which renditions they are. A part that names another rendition than
    /// the client's choice for its photo is not taken for it: that tile asks alone.
    @Test func anOpeningIsTakenOverOnceTheManifestSaysWhatItsPartsAre() throws {
        try Self.with({ request in
            guard request.path == "/batch", let opening = Batch.Opening(body: request.body) else {
                return .respond(status: 200, headers: [], body: Array("bytes of \(request.path)".utf8))
            }
            var body: [UInt8] = []
            for index in 0..<opening.count {
                let location = index == 2 ? "r/9/256.jpg" : "r/\(index)/256.jpg"
                let bytes = Array("part \(index)".utf8)
                body += Batch.partHead(index: index, status: 200, length: bytes.count, headers: [("Content-Location", location)]) + bytes
            }
            return .respond(status: 200, headers: [("Content-Type", Batch.contentType)], body: body + Batch.end)
        }) { server, http, batches throws in
            let manifestURL = Self.url(server, "/")
            let opening = try #require(OpeningBatch.start(for: FirstScreen(count: 3, covering: 100), manifest: manifestURL, fetcher: http))
            #expect(opening.endpoint == batches.endpoint)
            // The whole response comes before the manifest is read.
            #expect(opening.waitUntilEnded(milliseconds: 10_000))
            let json = #"{"photogrid": 1, "title": "t", "renditions": {"template": "r/{id}/{size}.jpg", "sizes": [256]}, "photos": ["#
                + (0..<4).map { #"{"id": "\#($0)", "original": "o/\#($0).jpg"}"# }.joined(separator: ", ") + "]}"
            guard case .manifest(let manifest) = try RemoteDocument.classify(body: Array(json.utf8), contentType: "application/json",
                                                                            url: manifestURL) else {
                Issue.record("not a manifest")
                return
            }
            batches.adopt(opening, photos: manifest.photos)
            for index in 0..<4 {
                let body = try http.get(Self.url(server, "/r/\(index)/256.jpg"), range: nil, limit: 1 << 20).body
                // Photo 2's part named another rendition; photo 3 was past the opening's count.
                let expected = [0, 1].contains(index) ? "part \(index)" : "bytes of /r/\(index)/256.jpg"
                #expect(body == Array(expected.utf8), "\(index)")
            }
            #expect(server.count("/batch") == 1)
            #expect(server.count("/r/0/256.jpg") == 0 && server.count("/r/1/256.jpg") == 0)
            #expect(server.count("/r/2/256.jpg") == 1 && server.count("/r/3/256.jpg") == 1)
        }
    }

    /// A server that takes no batches answers the opening with an error, and the manifest names
    /// no batch: nothing of it is used, and each tile asks alone.
    @Test func anOpeningRefusedCostsItsOneRequest() throws {
        try Self.with({ request in
            request.path == "/batch" ? .respond(status: 405, headers: [], body: [])
                : .respond(status: 200, headers: [], body: Array("bytes of \(request.path)".utf8))
        }) { server, http, _ throws in
            let opening = try #require(OpeningBatch.start(for: FirstScreen(count: 3, covering: 100), manifest: Self.url(server, "/"), fetcher: http))
            #expect(opening.waitUntilEnded(milliseconds: 10_000))
            opening.cancel()
            #expect(try http.get(Self.url(server, "/r/0/256.jpg"), range: nil, limit: 1 << 20).body == Array("bytes of /r/0/256.jpg".utf8))
            #expect(server.count("/batch") == 1 && server.count("/r/0/256.jpg") == 1)
        }
    }

    static let lies: [(lie: [UInt8], message: String)] = [
        (part(0, "a") + part(7, "lie") + Batch.end, "the server's batch response is broken: a part for an item never asked for"),
        (part(0, "a") + part(0, "again") + Batch.end, "the server's batch response is broken: two parts for one item"),
        (part(0, "a") + Batch.end, "the server's batch response is broken: it left out 2 of the photos asked for"),
        (part(0, "a") + Array("PART 1 200 50\r\n\r\nshort".utf8), "the server's batch response is broken: a part cut short"),
        (part(0, "a") + Batch.end + part(1, "more"), "the server's batch response is broken: bytes after the end"),
        (part(0, "a") + Array(repeating: UInt8(ascii: " "), count: 20_000), "the server's batch response is broken: a part's head longer than 8192 bytes"),
    ]

    /// The decoder batches renditions only: a size none covers (the zoom view of a large photo)
    /// takes the original, asked for by its tile alone.
    @Test func originalsAreNotBatched() throws {
        let bodies = Locked<[String]>([])
        try Self.with({ request in
            if request.path == "/batch" { bodies.withLock { $0.append(String(decoding: request.body, as: UTF8.self)) } }
            return Self.honest(request)
        }) { server, http, batches throws in
            let json = #"{"photogrid": 1, "renditions": {"template": "r/{id}/{size}.jpg", "sizes": [256, 512]}, "#
                + #""photos": [{"id": "a.jpg", "width": 4000, "height": 3000, "original": "o/a.jpg"}]}"#
            let manifest = try GalleryManifest.parse(Array(json.utf8), url: Self.url(server, "/"))
            let decoder = RemoteLoader(fetcher: http, batches: batches)
            let photo = RemoteLoader.photo(manifest.photos[0])
            decoder.expect([ExpectedImage(photo: photo, size: 3000), ExpectedImage(photo: photo, size: 200)])
            batches.catchUp()
            #expect(try http.get(Self.url(server, "/r/a.jpg/512.jpg"), range: nil, limit: 1 << 20).body == Array("bytes of /r/a.jpg/512.jpg".utf8))
            #expect(bodies.withLock { $0 } == ["/r/a.jpg/512.jpg\n"])   // 256 of 4000x3000 is 192 short
            #expect(server.count("/r/a.jpg/512.jpg") == 0)
        }
    }

    /// A tile whose photo the grid has left asks nothing: the batch that was to bring it is
    /// cancelled with the move, and its own load, cancelled as the pipeline does when nothing
    /// wants the photo any more, hears nothing. Wanted again, it asks, and gets its bytes.
    /// The batch queue may look at the first wish before the move or only after it (CI once saw
    /// the first): either way nothing the move left behind is brought, so every answer is slow.
    @Test func aTileTheGridLeftAsksNothing() throws {
        try Self.with({ request in
            .slow(milliseconds: 300, Self.honest(request))
        }) { server, http, batches throws in
            let json = #"{"photogrid": 1, "renditions": {"template": "r/{id}/{size}.jpg", "sizes": [256, 512]}, "#
                + #""photos": [{"id": "a.jpg", "width": 4000, "height": 3000, "original": "o/a.jpg"}]}"#
            let manifest = try GalleryManifest.parse(Array(json.utf8), url: Self.url(server, "/"))
            let loader = RemoteLoader(fetcher: http, batches: batches)
            let photo = RemoteLoader.photo(manifest.photos[0])
            loader.expect([ExpectedImage(photo: photo, size: 150)])
            loader.expect([])
            batches.catchUp()
            let sent = batches.batchesSent
            #expect(sent <= 1)
            let left = Pending<Result<PhotoBytes, DecodeError>>()
            guard case .pending(let ticket) = loader.load(photo, .picture(covering: 150), then: { left.fulfil($0) }) else {
                Issue.record("a rendition not yet fetched was at hand")
                return
            }
            ticket.cancel()
            // The server answers in 300 ms: the load the grid left is not told.
            #expect(left.wait(milliseconds: 1000) == nil)
            let again = loader.waitForLoad(photo, .picture(covering: 150))
            guard case .success(.whole(let bytes)) = again else {
                Issue.record("wanted again: \(again)")
                return
            }
            #expect(bytes == Array("bytes of /r/a.jpg/256.jpg".utf8))
            #expect(batches.batchesSent == sent)
        }
    }

    @Test(arguments: lies)
    func aLyingServerIsCutAndTheTilesSayWhy(_ lie: [UInt8], _ message: String) throws {
        // The batch is answered half a second late, so that the tile of photo 1 waits on it
        // before it breaks, as a tile on screen does (asked after, it would be asked for alone:
        // a loaded machine was seen to get there).
        try Self.with({ request in
            request.path == "/batch" ? .slow(milliseconds: 500, .respond(status: 200, headers: [("Content-Type", Batch.contentType)], body: lie))
                                     : .respond(status: 200, headers: [], body: Array("alone".utf8))
        }) { server, http, batches throws in
            let urls = (0..<3).map { Self.url(server, "/r/\($0).jpg") }
            batches.want(urls)
            batches.catchUp()
            do throws(FetchError) {
                _ = try http.get(urls[1], range: nil, limit: 1 << 20)
                Issue.record("a photo the lying batch did not bring was delivered")
            } catch {
                #expect(error.description == message)
                #expect(error.reason == "server sent a broken batch")
                #expect(error.isTransient)
            }
            #expect(try http.get(urls[0], range: nil, limit: 1 << 20).body == Array("a".utf8))
            // No batch again: the rest are asked for alone, and come.
            batches.want([Self.url(server, "/r/5.jpg")])
            batches.catchUp()
            #expect(batches.batchesSent == 1)
            #expect(try http.get(Self.url(server, "/r/5.jpg"), range: nil, limit: 1 << 20).body == Array("alone".utf8))
        }
    }

    /// A server that takes no batches after all (an older one, a proxy that refuses POST): the
    /// tiles waiting on the batch ask for their photos alone, and get them.
    @Test(arguments: [404, 405, 200])
    func aRefusedBatchLetsEachPhotoBeAskedForAlone(_ status: Int) throws {
        try Self.with({ request in
            request.path == "/batch" ? .respond(status: status, headers: [("Content-Type", "text/html")], body: Array("<p>no</p>".utf8))
                                     : .slow(milliseconds: 0, .respond(status: 200, headers: [], body: Array("alone".utf8)))
        }) { server, http, batches throws in
            let urls = (0..<3).map { Self.url(server, "/r/\($0).jpg") }
            batches.want(urls)
            batches.catchUp()
            for url in urls { #expect(try http.get(url, range: nil, limit: 1 << 20).body == Array("alone".utf8)) }
            #expect(server.count("/batch") == 1)
            batches.want([Self.url(server, "/r/7.jpg")])
            batches.catchUp()
            #expect(batches.batchesSent == 1)
        }
    }

    /// Less urgent renditions wished for while a batch is under way (the rows prefetched further
    /// on) wait for it and go together when it ends, or at once when a tile asks for one.
    @Test func whatComesAfterABatchWaitsForIt() throws {
        try Self.with({ request in
            let slow = request.path == "/batch" && String(decoding: request.body, as: UTF8.self).contains("/screen/")
            return .slow(milliseconds: slow ? 600 : 0, Self.honest(request))
        }) { server, http, batches throws in
            let screen = (0..<2).map { Self.url(server, "/screen/\($0).jpg") }
            let later = (0..<3).map { Self.url(server, "/later/\($0).jpg") }
            for wish in [screen, screen + [later[0]], screen + later] {
                batches.want(wish)
                batches.catchUp()
            }
            #expect(batches.batchesSent == 1, "the prefetch did not wait for the screen's batch")
            // When the screen's batch ends, the three go in one batch.
            for url in screen { #expect(try http.get(url, range: nil, limit: 1 << 20).body == Array("bytes of \(url.path)".utf8)) }
            for _ in 0..<250 where batches.batchesSent < 2 { Thread.sleep(forTimeInterval: 0.02) }
            #expect(batches.batchesSent == 2)
            for url in later { #expect(try http.get(url, range: nil, limit: 1 << 20).body == Array("bytes of \(url.path)".utf8)) }
            #expect(server.count("/batch") == 2 && server.total == 2)

            // A tile that asks for a held one sends the held ones at once.
            let more = [Self.url(server, "/screen/9.jpg"), Self.url(server, "/more/0.jpg")]
            for wish in [more, more + [Self.url(server, "/more/1.jpg")]] {
                batches.want(wish)
                batches.catchUp()
            }
            #expect(batches.batchesSent == 3)
            let started = Date()
            batches.need(Self.url(server, "/more/1.jpg"))
            #expect(try http.get(Self.url(server, "/more/1.jpg"), range: nil, limit: 1 << 20).body == Array("bytes of /more/1.jpg".utf8))
            #expect(Date().timeIntervalSince(started) < 0.5, "the held one waited for the slow batch")
            #expect(batches.batchesSent == 4 && server.count("/more/1.jpg") == 0)
        }
    }

    /// The user moves on while a batch is still being made: it is cancelled, a tile waiting on
    /// it is let go at once (not when the slow answer comes), and the new screen's batch is sent.
    @Test func aBatchNoLongerWantedIsCancelled() throws {
        try Self.with({ request in
            guard request.path == "/batch" else { return .respond(status: 200, headers: [], body: Array("alone".utf8)) }
            let slow = String(decoding: request.body, as: UTF8.self).contains("/old/")
            return .slow(milliseconds: slow ? 4000 : 0, Self.honest(request))
        }) { server, http, batches throws in
            let old = (0..<3).map { Self.url(server, "/old/\($0).jpg") }
            batches.want(old)
            batches.catchUp()
            let waiting = Locked<Result<FetchResult, FetchError>?>(nil)
            let done = DispatchSemaphore(value: 0)
            Thread {
                let result = Result { () throws(FetchError) in try http.get(old[0], range: nil, limit: 1 << 20) }
                waiting.withLock { $0 = result }
                done.signal()
            }.start()
            // The tile is waiting on the batch.
            for _ in 0..<500 where http.flights.askers == 0 { Thread.sleep(forTimeInterval: 0.01) }
            #expect(http.flights.askers == 1)
            let started = Date()
            let new = [Self.url(server, "/new/0.jpg")]
            batches.want(new)
            batches.catchUp()
            #expect(done.wait(timeout: .now() + 2) == .success, "the waiting tile was not let go")
            #expect(Date().timeIntervalSince(started) < 2)
            #expect(waiting.withLock { $0.map { if case .failure(.interrupted("no longer wanted")) = $0 { true } else { false } } } == true)
            #expect(try http.get(new[0], range: nil, limit: 1 << 20).body == Array("bytes of /new/0.jpg".utf8))
            #expect(batches.batchesSent == 2)
        }
    }
}
