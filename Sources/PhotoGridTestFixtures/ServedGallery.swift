import PhotoGridTestSupport
import GalleryFormats
import Foundation
import PhotoGridServe
import PhotoGridLoading
import PhotoGridDiskCache
import PhotoGridModel
import PhotoGridSystem

/// A `GalleryFixture` served on a free port, with photogrid's own client (libcurl on its
/// transfer loop) to ask it things. `with` stops the server and the client and removes the
/// folder, whatever the test did.
package final class ServedGallery: Sendable {
    package let fixture: GalleryFixture
    package let server: GalleryServer
    package let port: Int
    package let client = TransferLoop(settings: TransferSettings())

    /// One response, whole.
    package struct Reply: Sendable {
        package var status: Int
        package var head: ResponseHead
        package var body: [UInt8]
        package func header(_ name: String) -> String? { head.header(name) }
    }

    package enum Method { case GET, HEAD, POST }

    private init(configuration: GalleryServer.Configuration, fixture: GalleryFixture) throws {
        self.fixture = fixture
        server = try GalleryServer(configuration)
        port = try server.start()
    }

    package static func with<T>(cache: Bool = false, _ adjust: (inout GalleryServer.Configuration) -> Void = { _ in },
                        _ body: (ServedGallery) async throws -> T) async throws -> T {
        try Subprocess.refuseInFastRun("photogrid's server")
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        var configuration = GalleryServer.Configuration(folder: fixture.folder, port: 0)
        if cache { configuration.cacheDirectory = fixture.base + "/cache" }
        adjust(&configuration)
        let served = try ServedGallery(configuration: configuration, fixture: fixture)
        do {
            let result = try await body(served)
            try await served.shutDown()
            return result
        } catch {
            try? await served.shutDown()
            throw error
        }
    }

    private func shutDown() async throws {
        client.shutdown()
        server.stop()
    }

    package var base: String { "http://127.0.0.1:\(port)" }

    /// `path` as it goes on the wire: percent-encode it first where needed.
    package func request(_ path: String, method: Method = .GET, headers: [(String, String)] = [], body: [UInt8]? = nil) async throws -> Reply {
        guard let url = RemoteURL(base + path) else { throw FetchError.badURL(base + path) }
        var request = TransferRequest(url: url, limit: 64 << 20)
        request.followsRedirects = false
        var lines = headers.map { "\($0.0): \($0.1)" }
        switch method {
        case .GET: break
        case .HEAD: request.method = .head
        case .POST:
            let type = headers.first { $0.0.lowercased() == "content-type" }?.1 ?? "application/octet-stream"
            lines.removeAll { $0.lowercased().hasPrefix("content-type:") }
            request.method = .post(body: body ?? [], type: type)
        }
        request.headers = lines
        let client = self.client
        return try await withCheckedThrowingContinuation { continuation in
            client.start(Transfer(request, .collect { outcome in
                continuation.resume(with: outcome.map { Reply(status: $0.0.status, head: $0.0, body: $0.1) })
            }))
        }
    }

    /// The id as it appears in URLs.
    package static func encoded(_ id: String) -> String { RemoteURL.percentEncode(path: id) }
}

/// The same gallery served for a test that talks to it with blocking calls (`RawHTTP`, a
/// subprocess): a synchronous test, so that no thread of Swift's cooperative pool is held while
/// it waits (the async tests share two of them here, and starving them let a kept-alive
/// connection sit past a server deadline).
package enum BlockingServedGallery {
    package static func with<T>(_ adjust: (inout GalleryServer.Configuration) -> Void = { _ in },
                        _ body: (_ fixture: GalleryFixture, _ server: GalleryServer, _ port: Int) throws -> T) throws -> T {
        try Subprocess.refuseInFastRun("photogrid's server")
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        var configuration = GalleryServer.Configuration(folder: fixture.folder, port: 0)
        adjust(&configuration)
        let server = try GalleryServer(configuration)
        let port = try server.start()
        defer { server.stop() }
        return try body(fixture, server, port)
    }
}
