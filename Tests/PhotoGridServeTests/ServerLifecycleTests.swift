import Foundation
import Glibc
import Testing
@testable import PhotoGridServe
import PhotoGridTestFixtures

/// Starting, counting, delaying, connections and stopping.
@Suite struct ServerLifecycleTests {
    @Test(.startsPrograms) func requestsAreCountedByPathAsRequested() async throws {
        try await ServedGallery.with { served in
            #expect(served.server.totalRequests == 0)
            _ = try await served.request("/")
            _ = try await served.request("/manifest.json?page=2")
            _ = try await served.request("/manifest.json")
            let original = "/originals/" + ServedGallery.encoded(GalleryFixture.awkward)
            _ = try await served.request(original)
            _ = try await served.request(original, method: .HEAD)
            _ = try await served.request("/nothing")
            #expect(served.server.requestCount(path: "/") == 1)
            #expect(served.server.requestCount(path: "/manifest.json") == 2)
            #expect(served.server.requestCount(path: original) == 2)
            #expect(served.server.requestCount(path: "/nothing") == 1)
            #expect(served.server.requestCount(path: "/originals/hills-03.jpg") == 0)
            #expect(served.server.totalRequests == 6)
        }
    }

    @Test(.startsPrograms) func theDelayComesBeforeEveryResponse() async throws {
        try await ServedGallery.with({ $0.delayMilliseconds = 300 }) { served in
            for path in ["/", "/nothing", "/originals/" + GalleryFixture.rotated] {
                let start = ContinuousClock.now
                _ = try await served.request(path)
                #expect(ContinuousClock.now - start >= .milliseconds(300), "\(path)")
            }
        }
    }

    @Test func stopFreesThePort() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let first = try GalleryServer(.init(folder: fixture.folder, port: 0))
        let port = try first.start()
        #expect(try first.start() == port)                     // starting again is a no-op
        #expect(first.url == "http://127.0.0.1:\(port)/")
        #expect(try RawHTTP.get(port: port, "/").status == 200)
        first.stop()
        #expect(throws: RawHTTP.Failure.self) { try RawHTTP.get(port: port, "/") }
        #expect(throws: GalleryServer.ServeError.stopped) { try first.start() }

        let second = try GalleryServer(.init(folder: fixture.folder, port: port))
        #expect(try second.start() == port)
        #expect(try RawHTTP.get(port: port, "/").status == 200)
        second.stop()
    }

    @Test func aPortInUseIsAClearError() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let first = try GalleryServer(.init(folder: fixture.folder, port: 0))
        let port = try first.start()
        defer { first.stop() }
        let second = try GalleryServer(.init(folder: fixture.folder, port: port))
        do {
            try second.start()
            Issue.record("two servers on port \(port)")
        } catch let error as GalleryServer.ServeError {
            #expect(error.description == "cannot listen on 127.0.0.1 port \(port): the port is in use (another server? choose another port)")
        }
        second.stop()
    }

    @Test func foldersThatCannotBeServedAreClearErrors() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        #expect(throws: GalleryServer.ServeError.folderNotFound(fixture.base + "/missing")) {
            try GalleryServer(.init(folder: fixture.base + "/missing"))
        }
        let file = fixture.path(GalleryFixture.rotated)
        #expect(throws: GalleryServer.ServeError.notAFolder(file)) { try GalleryServer(.init(folder: file)) }
        #expect(throws: GalleryServer.ServeError.self) { try GalleryServer(.init(folder: fixture.folder, renditionSizes: [])) }
        #expect(throws: GalleryServer.ServeError.self) { try GalleryServer(.init(folder: fixture.folder, port: 70000)) }
        #expect(throws: GalleryServer.ServeError.cacheUnusable(file + "/cache")) {
            try GalleryServer(.init(folder: fixture.folder, cacheDirectory: file + "/cache"))
        }
    }

    @Test func anEmptyFolderIsAnEmptyGallery() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let empty = fixture.base + "/empty"
        try FileManager.default.createDirectory(atPath: empty, withIntermediateDirectories: true)
        let server = try GalleryServer(.init(folder: empty, port: 0))
        let port = try server.start()
        defer { server.stop() }
        let json = try ManifestServingTests.parse(try RawHTTP.get(port: port, "/manifest.json").body)
        #expect((json["photos"] as? [Any])?.isEmpty == true)
        #expect((json["sections"] as? [Any])?.isEmpty == true)
        #expect(json["title"] as? String == "empty")
    }

    @Test(.startsPrograms) func connectionsStayOpenUntilTheClientCloses() async throws {
        try await ServedGallery.with { served in
            let original = "/originals/" + GalleryFixture.rotated
            // Three requests in one write on one connection (pipelined); the last asks to close.
            let replies = try RawHTTP.exchange(port: served.port,
                "GET / HTTP/1.1\r\nHost: x\r\n\r\n"
                + "GET \(original) HTTP/1.1\r\nHost: x\r\nRange: bytes=0-3\r\n\r\n"
                + "GET /nothing HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            #expect(replies.map(\.status) == [200, 206, 404])
            #expect(replies[1].body == [0xFF, 0xD8, 0xFF, 0xE0])
            #expect(replies[0].headers["connection"] == nil)
            #expect(replies[2].headers["connection"] == "close")

            // HTTP/1.0 closes after one response unless asked to keep the connection.
            let old = try RawHTTP.exchange(port: served.port, "GET /nothing HTTP/1.0\r\n\r\nGET / HTTP/1.0\r\n\r\n")
            #expect(old.map(\.status) == [404])
        }
    }

    @Test func listeningOnEveryAddressIsReachedThroughLoopback() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let server = try GalleryServer(.init(folder: fixture.folder, host: "0.0.0.0", port: 0))
        let port = try server.start()
        defer { server.stop() }
        #expect(server.url == "http://127.0.0.1:\(port)/")
        #expect(try RawHTTP.get(port: port, "/").status == 200)
    }

    @Test func theStartLineSaysWhatToRun() {
        #expect(ServeCommand.startLine(photos: 40, folder: "Photos", url: "http://127.0.0.1:8477/")
                == "photogrid: serving 40 photos of Photos at http://127.0.0.1:8477/ — browse with: photogrid --url http://127.0.0.1:8477/")
        #expect(ServeCommand.startLine(photos: 1, folder: "a\u{1B}[2Jb", url: "u").hasPrefix("photogrid: serving 1 photo of a"))
        #expect(!ServeCommand.startLine(photos: 1, folder: "a\u{1B}[2Jb", url: "u").contains("\u{1B}"))
        #expect(GalleryServer.defaultPort == 8477)
    }
}
