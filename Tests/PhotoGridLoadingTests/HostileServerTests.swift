import Foundation
import Testing
@testable import GalleryFormats
@testable import PhotoGridCore
@testable import PhotoGridLoading
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Servers that misbehave on purpose: a body that never ends, one longer than its length says,
/// a gzip bomb, a gallery larger than photogrid takes. Each is refused or bounded, with a
/// message that says which, and in bounded time.
@Suite(.startsPrograms) struct HostileServerTests {
    func fetcher() -> Fetcher {
        Fetcher.forTests()
    }

    func url(_ server: TestServer, _ path: String) -> RemoteURL { RemoteURL(server.url.dropLast() + path)! }

    @Test func anEndlessBodyStopsAtTheLimit() throws {
        let server = try TestServer { _ in .endless }
        defer { server.stop() }
        let http = fetcher()
        defer { http.shutdown() }
        let started = Date()
        #expect(throws: FetchError.tooLarge(4 << 20)) { try http.get(url(server, "/photo.jpg"), range: nil, limit: 4 << 20) }
        // And a gallery URL that streams forever: refused at the document limit, with the reason.
        do throws(RemoteGalleryLoader.LoadError) {
            _ = try RemoteGalleryLoader(fetcher: http).load(url(server, "/"))
            Issue.record("an endless gallery loaded")
        } catch {
            #expect("\(error)".contains("larger than 64 MB"), "\(error)")
        }
        #expect(Date().timeIntervalSince(started) < 20)
    }

    /// Only the declared length is the body; the bytes after it must not be read as the next
    /// response, and the next requests still work.
    @Test func aBodyLongerThanItsLengthIsCutThere() throws {
        let server = try TestServer { request in
            request.path == "/long" ? .longerThanDeclared(declared: 10, body: Array("0123456789HTTP/1.1 200 OK\r\n\r\nforged".utf8))
                                    : .respond(status: 200, headers: [], body: Array("fine".utf8))
        }
        defer { server.stop() }
        let http = fetcher()
        defer { http.shutdown() }
        #expect(try http.get(url(server, "/long"), range: nil, limit: 1000).body == Array("0123456789".utf8))
        for _ in 0..<3 { #expect(try http.get(url(server, "/fine"), range: nil, limit: 1000).body == Array("fine".utf8)) }
    }

    /// 100 MB of zeros as 100 KB of gzip, sent although nobody asked: never inflated.
    @Test func aGzipBombIsRefusedNotInflated() throws {
        let bomb = try Subprocess.run(["sh", "-c", "head -c 100000000 /dev/zero | gzip -1"]).output
        #expect(bomb.count < 1_000_000)
        let server = try TestServer { _ in
            .respond(status: 200, headers: [("Content-Type", "application/json"), ("Content-Encoding", "gzip")], body: bomb)
        }
        defer { server.stop() }
        let http = fetcher()
        defer { http.shutdown() }
        #expect(throws: FetchError.encoded("gzip")) { try http.get(url(server, "/photo.jpg"), range: nil, limit: 128 << 20) }
        do throws(RemoteGalleryLoader.LoadError) {
            _ = try RemoteGalleryLoader(fetcher: http).load(url(server, "/gallery.json"))
            Issue.record("a gzip bomb loaded")
        } catch {
            #expect("\(error)".contains("gzip-compressed"), "\(error)")
        }
    }

    /// A gallery of more photos than photogrid takes: the first ones, and the title says so.
    @Test func aGalleryLargerThanTheLimitIsCutAndSaysSo() throws {
        let photos = (0..<5000).map { #"{"id": "p\#($0)", "original": "p\#($0).jpg"}"# }.joined(separator: ",")
        let manifest = Array(#"{"photogrid": 1, "title": "Huge", "photos": [\#(photos)]}"#.utf8)
        let server = try TestServer { _ in .respond(status: 200, headers: [("Content-Type", "application/json")], body: manifest) }
        defer { server.stop() }
        let http = fetcher()
        defer { http.shutdown() }
        var limits = RemoteGalleryLoader.Limits()
        limits.photos = 1000
        let loaded = try RemoteGalleryLoader(fetcher: http, limits: limits).load(url(server, "/gallery.json"))
        #expect(loaded.photos.count == 1000 && loaded.cut)
        #expect(loaded.photos.last?.id == "p999")
        let source = RemoteCommand.source(loaded, fetcher: http)
        #expect(source.title == "Huge (its first 1000 photos)")
    }
}
