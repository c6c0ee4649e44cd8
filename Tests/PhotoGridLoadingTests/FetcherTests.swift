import Foundation
import Glibc
import Testing
@testable import GalleryFormats
@testable import PhotoGridDecoding
@testable import PhotoGridDiskCache
@testable import PhotoGridLoading
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridTestFixtures

/// The HTTP client against the suite's own fault-injecting server.
@Suite(.serialized) struct FetcherTests {
    func fetcher(cache: HTTPCache? = nil, retries: Int = 2, stallSeconds: Int = 5) -> Fetcher {
        Fetcher.forTests(cache: cache, retries: retries, stallSeconds: stallSeconds)
    }

    func url(_ server: TestServer, _ path: String) -> RemoteURL { RemoteURL(server.url.dropLast() + path)! }

    @Test(.startsPrograms) func errorsSayWhatWentWrongAndTransientOnesAreRetried() throws {
        let attempts = Locked(0)
        let server = try TestServer { request in
            switch request.path {
            case "/missing": return .respond(status: 404, headers: [], body: Array("no".utf8))
            case "/broken": return .respond(status: 500, headers: [], body: [])
            case "/unusable": return .respond(status: 500, headers: [("Photogrid-Reason", "corrupt JPEG")], body: [])
            case "/busy-then-ok":
                let n = attempts.withLock { $0 += 1; return $0 }
                return n == 1 ? .respond(status: 503, headers: [], body: []) : .respond(status: 200, headers: [], body: Array("ok".utf8))
            case "/truncated": return .truncated(declared: 1000, body: Array(repeating: 1, count: 10))
            case "/reset": return .reset
            case "/big": return .respond(status: 200, headers: [], body: [UInt8](repeating: 7, count: 5000))
            default: return .respond(status: 200, headers: [], body: Array("hello".utf8))
            }
        }
        defer { server.stop() }
        let http = fetcher()
        defer { http.shutdown() }
        #expect(throws: FetchError.status(404, url(server, "/missing").description)) { try http.get(url(server, "/missing"), range: nil, limit: 1 << 20) }
        #expect(server.count("/missing") == 1)                  // a 404 is not worth a second try
        #expect(throws: FetchError.status(500, url(server, "/broken").description)) { try http.get(url(server, "/broken"), range: nil, limit: 1 << 20) }
        #expect(server.count("/broken") == 1)
        // photogrid serve's reason for a photo it cannot use: shown instead of "HTTP 500". (The
        // HTTP parser refuses control characters in a header; what is left is cut for a tile.)
        #expect(throws: FetchError.photoUnusable("corrupt JPEG")) { try http.get(url(server, "/unusable"), range: nil, limit: 1 << 20) }
        #expect(FetchError.serverReason("bad\u{7F} \u{9B}2Jfile" + String(repeating: "x", count: 100))?.count == 60)
        #expect(FetchError.serverReason("bad\u{7F} \u{9B}2Jfile")  == "bad 2Jfile")
        #expect(FetchError.serverReason(" \u{1B}") == nil)
        #expect(try http.get(url(server, "/busy-then-ok"), range: nil, limit: 1 << 20).body == Array("ok".utf8))
        #expect(server.count("/busy-then-ok") == 2)              // 503, then a second try
        #expect(throws: FetchError.self) { try http.get(url(server, "/truncated"), range: nil, limit: 1 << 20) }
        #expect(server.count("/truncated") == 3)                 // interrupted: tried three times in all
        do throws(FetchError) { _ = try http.get(url(server, "/reset"), range: nil, limit: 1 << 20); Issue.record("no error") } catch {
            #expect(error.reason == "download broke off")
        }
        #expect(throws: FetchError.tooLarge(1000)) { try http.get(url(server, "/big"), range: nil, limit: 1000) }
        #expect(try http.get(url(server, "/fine"), range: nil, limit: 1000).body == Array("hello".utf8))
    }

    @Test(.startsPrograms) func redirectsGoOnlyToHTTPAndNeverRoundALoop() throws {
        let server = try TestServer { request in
            switch request.path {
            case "/to-file": return .respond(status: 302, headers: [("Location", "file:///etc/passwd")], body: [])
            case "/loop-a": return .respond(status: 301, headers: [("Location", "/loop-b")], body: [])
            case "/loop-b": return .respond(status: 301, headers: [("Location", "/loop-a")], body: [])
            case "/moved": return .respond(status: 308, headers: [("Location", "/here")], body: [])
            default: return .respond(status: 200, headers: [], body: Array(request.path.utf8))
            }
        }
        defer { server.stop() }
        let http = fetcher()
        defer { http.shutdown() }
        let moved = try http.get(url(server, "/moved"), range: nil, limit: 1000)
        #expect(moved.body == Array("/here".utf8) && moved.url == url(server, "/here"))
        do throws(FetchError) { _ = try http.get(url(server, "/to-file"), range: nil, limit: 1000); Issue.record("followed file://") } catch {
            #expect(error.reason == "bad redirect")
        }
        do throws(FetchError) { _ = try http.get(url(server, "/loop-a"), range: nil, limit: 1000); Issue.record("looped") } catch {
            #expect(error.reason == "bad redirect")
        }
        #expect(server.count("/loop-a") == 1 && server.count("/loop-b") == 1)
    }

    @Test(.startsPrograms) func anUnreachableServerFailsWithinTheConnectTimeout() throws {
        // A port nothing listens on: refused at once.
        let probe = try TestServer { _ in .reset }
        let port = probe.port
        probe.stop()
        let http = fetcher()
        defer { http.shutdown() }
        let start = Date()
        do throws(FetchError) { _ = try http.get(RemoteURL("http://127.0.0.1:\(port)/")!, range: nil, limit: 1000); Issue.record("no error") } catch {
            #expect(error.reason == "unreachable")
        }
        // At once, not after the connect timeout (2 s here).
        #expect(Date().timeIntervalSince(start) < 1)
    }

    @Test(.startsPrograms) func aSlowServerTimesOut() throws {
        let server = try TestServer { _ in .slow(milliseconds: 3000, .respond(status: 200, headers: [], body: [1])) }
        defer { server.stop() }
        let http = fetcher(retries: 0, stallSeconds: 1)
        defer { http.shutdown() }
        let start = Date()
        #expect(throws: FetchError.self) { try http.get(url(server, "/slow"), range: nil, limit: 1000) }
        #expect(Date().timeIntervalSince(start) < 2.5)
    }

    @Test(.startsPrograms) func manyAskingForOneURLMakeOneRequest() throws {
        let server = try TestServer { _ in .slow(milliseconds: 200, .respond(status: 200, headers: [], body: Array("same".utf8))) }
        defer { server.stop() }
        let http = fetcher()
        defer { http.shutdown() }
        let target = url(server, "/photo.jpg")
        let bodies = Locked<[[UInt8]]>([])
        // Eight threads of their own, all asking while the first request is in flight.
        let group = DispatchGroup()
        for _ in 0..<8 {
            group.enter()
            Thread {
                if let body = try? http.get(target, range: nil, limit: 1000).body { bodies.withLock { $0.append(body) } }
                group.leave()
            }.start()
        }
        group.wait()
        #expect(bodies.withLock { $0.count } == 8 && bodies.withLock { $0.allSatisfy { $0 == Array("same".utf8) } })
        #expect(server.count("/photo.jpg") == 1)
    }

    @Test(.startsPrograms) func theDiskCacheServesFreshResponsesAndRevalidatesStaleOnes() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-http-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = HTTPCache(disk: try #require(DiskCache(directory: folder, limitBytes: 1 << 22)))
        let server = try TestServer { request in
            switch request.path {
            case "/fresh.jpg": return .respond(status: 200, headers: [("Cache-Control", "public, max-age=3600")], body: Array("fresh".utf8))
            case "/tagged.json":
                if request.headers["if-none-match"] == "\"v1\"" { return .respond(status: 304, headers: [("ETag", "\"v1\"")], body: []) }
                return .respond(status: 200, headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")], body: Array("tagged".utf8))
            case "/private": return .respond(status: 200, headers: [("Cache-Control", "no-store")], body: Array("secret".utf8))
            default: return .respond(status: 404, headers: [], body: [])
            }
        }
        defer { server.stop() }
        for round in 0..<2 {
            // Each round a new client: a second run of photogrid.
            let http = fetcher(cache: cache)
            defer { http.shutdown() }
            let fresh = try http.get(url(server, "/fresh.jpg"), range: nil, limit: 1000)
            #expect(fresh.body == Array("fresh".utf8) && fresh.fromCache == (round == 1))
            let tagged = try http.get(url(server, "/tagged.json"), range: nil, limit: 1000)
            #expect(tagged.body == Array("tagged".utf8) && tagged.fromCache == (round == 1))
            _ = try http.get(url(server, "/private"), range: nil, limit: 1000)
        }
        #expect(server.count("/fresh.jpg") == 1)                  // the second time, not asked at all
        #expect(server.count("/tagged.json") == 2)                // the second time a 304
        #expect(server.count("/private") == 2)                    // never stored
    }

    /// What a second visit asks of each rendition (may it be used, what is its validator) comes
    /// from a small record beside the response's, without reading the body; a response cached
    /// before there were such records gets one when first asked. The validator is the same as
    /// one made from the whole entry, so that tiles kept on disk under it are still found.
    @Test func aCachedResponsesHeadIsReadWithoutItsBody() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-http-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = HTTPCache(disk: try #require(DiskCache(directory: folder, limitBytes: 1 << 22)))
        let body = Array(repeating: UInt8(7), count: 50_000)
        let entry = HTTPCache.Entry(status: 200, storedAt: Int64(SystemClock().wallSeconds()), maxAge: 3600, etag: nil, lastModified: nil,
                                    contentType: "image/jpeg", body: body)
        let url = RemoteURL("http://127.0.0.1:1/r/a.jpg")!, old = RemoteURL("http://127.0.0.1:1/r/b.jpg")!
        cache.store(entry, for: url, range: nil)
        // Before heads: the entry alone.
        cache.disk.write(HTTPCache.Key(url: old, range: nil), HTTPCache.encode(entry))
        #expect(cache.disk.read(HTTPCache.Key(url: old, range: nil, head: true)) == nil)
        for target in [url, old] {
            let head = try #require(cache.head(for: target, range: nil))
            #expect(head.body.count == 8 && HTTPCache.bodyHash(ofHead: head) == HTTPCache.bodyHash(body))
            var withoutBody = head
            withoutBody.body = entry.body
            #expect(withoutBody == entry)
            #expect(cache.disk.read(HTTPCache.Key(url: target, range: nil, head: true)) != nil)
        }
        var hash = Hash128()
        hash.combine(field: body)
        let http = fetcher(cache: cache)
        defer { http.shutdown() }
        #expect(http.validator(of: url) == Array("hash \(hash.value64)".utf8))
        #expect(http.validator(of: RemoteURL("http://127.0.0.1:1/r/none.jpg")!) == nil)
    }

    /// A head is read from the disk once a run (a second visit's batch planner and each tile ask
    /// for the same ones within milliseconds), and a newer response replaces what is remembered.
    @Test func headsAreRememberedAndReplacedByNewerResponses() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-http-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = HTTPCache(disk: try #require(DiskCache(directory: folder, limitBytes: 1 << 22)))
        let url = RemoteURL("http://127.0.0.1:1/r/a.jpg")!
        func entry(_ etag: String, _ byte: UInt8) -> HTTPCache.Entry {
            HTTPCache.Entry(status: 200, storedAt: Int64(SystemClock().wallSeconds()), maxAge: 3600, etag: etag, lastModified: nil,
                            contentType: "image/jpeg", body: Array(repeating: byte, count: 1000))
        }
        cache.store(entry("\"a\"", 1), for: url, range: nil)
        #expect(cache.head(for: url, range: nil)?.etag == "\"a\"")
        // Its record gone from the disk (trimmed, say): still known this run.
        let record = cache.disk.entryPath(for: HTTPCache.Key(url: url, range: nil, head: true))
        #expect(unlink(record) == 0)
        #expect(cache.head(for: url, range: nil)?.etag == "\"a\"")
        cache.store(entry("\"b\"", 2), for: url, range: nil)
        let head = try #require(cache.head(for: url, range: nil))
        #expect(head.etag == "\"b\"" && HTTPCache.bodyHash(ofHead: head) == HTTPCache.bodyHash(Array(repeating: 2, count: 1000)))
        // Another range of the same URL is another response.
        #expect(cache.head(for: url, range: 0..<16) == nil)
    }

    /// A response used stale is checked only once the first screen is drawn: held until then
    /// (at most the time given), and started at once when released.
    @Test(.startsPrograms) func revalidationsWaitForTheFirstScreen() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-http-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = HTTPCache(disk: try #require(DiskCache(directory: folder, limitBytes: 1 << 22)))
        let server = try TestServer { _ in
            .respond(status: 200, headers: [("ETag", "\"m1\""), ("Cache-Control", "max-age=0, stale-while-revalidate=600")],
                     body: Array("manifest".utf8))
        }
        defer { server.stop() }
        let first = fetcher(cache: cache)
        _ = try first.get(url(server, "/m.json"), range: nil, limit: 1000)
        first.shutdown()
        for held in [30.0, 0.3] {
            let count = server.count("/m.json")
            let http = fetcher(cache: cache)
            defer { http.shutdown() }
            http.holdRevalidations(upTo: held)
            #expect(try http.get(url(server, "/m.json"), range: nil, limit: 1000).fromCache)
            // Held, not sent: the server has not been asked.
            #expect(held < 1 || http.revalidationsHeld == 1)
            #expect(server.count("/m.json") == count, "revalidated before the first screen")
            if held > 1 { http.releaseRevalidations() }         // the screen is complete; else the time runs out
            http.waitForRevalidations(seconds: 5)
            #expect(server.count("/m.json") == count + 1)
        }
    }

    /// A server that says nothing of freshness (nginx, python's http.server) is asked once per
    /// run for a URL, however many tiles want it: later asks in the same run use the copy it
    /// sent or confirmed. The next run asks again, conditionally.
    @Test(.startsPrograms) func aResponseIsConfirmedOncePerRun() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("pg-http-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let cache = HTTPCache(disk: try #require(DiskCache(directory: folder, limitBytes: 1 << 22)))
        let server = try TestServer { request in
            if request.headers["if-modified-since"] == "Sun, 22 Nov 2026 10:00:00 GMT" {
                return .respond(status: 304, headers: [], body: [])
            }
            return .respond(status: 200, headers: [("Last-Modified", "Sun, 22 Nov 2026 10:00:00 GMT")], body: Array("photo".utf8))
        }
        defer { server.stop() }
        for run in 0..<2 {
            let http = fetcher(cache: cache)
            defer { http.shutdown() }
            for _ in 0..<3 {
                #expect(try http.get(url(server, "/photo.jpg"), range: nil, limit: 1000).body == Array("photo".utf8))
            }
            #expect(server.count("/photo.jpg") == run + 1, "run \(run)")
        }
    }

    /// `https://` to a server that speaks plain HTTP: said in plain words, without the TLS
    /// library's codes or the path it was built at.
    @Test(.startsPrograms) func httpsToAPlainServerSaysSoInPlainWords() throws {
        // photogrid serve answers the TLS greeting as the bad HTTP request it is, as web servers do.
        try BlockingServedGallery.with { _, _, port in
            let http = fetcher(retries: 0)
            defer { http.shutdown() }
            let secure = try #require(RemoteURL("https://127.0.0.1:\(port)/"))
            #expect(throws: FetchError.secureConnection("127.0.0.1:\(port) does not speak HTTPS (try http://)")) {
                try http.get(secure, range: nil, limit: 1 << 20)
            }
        }
        #expect(Transfer.gist(of: "SSL routines::wrong version number\nmore") == "SSL routines::wrong version number")
    }
}
