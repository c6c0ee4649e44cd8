import GalleryFormats
import AsyncHTTPClient
import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
@testable import PhotoGridRemote

/// A `GalleryFixture` served on a free port, with an AsyncHTTPClient on its own event loop group
/// to ask it things. `with` stops the server, shuts the client and its group down and removes
/// the folder, whatever the test did.
final class ServedGallery: Sendable {
    let fixture: GalleryFixture
    let server: GalleryServer
    let port: Int
    private let group: MultiThreadedEventLoopGroup
    let client: HTTPClient

    /// One response, whole.
    struct Reply {
        var status: Int
        var headers: HTTPHeaders
        var body: [UInt8]
        func header(_ name: String) -> String? { headers.first(name: name) }
    }

    private init(configuration: GalleryServer.Configuration, fixture: GalleryFixture) throws {
        self.fixture = fixture
        server = try GalleryServer(configuration)
        port = try server.start()
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        client = HTTPClient(eventLoopGroup: group)
    }

    static func with<T>(cache: Bool = false, _ adjust: (inout GalleryServer.Configuration) -> Void = { _ in },
                        _ body: (ServedGallery) async throws -> T) async throws -> T {
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
        try await client.shutdown()
        try await group.shutdownGracefully()
        server.stop()
    }

    var base: String { "http://127.0.0.1:\(port)" }

    /// `path` as it goes on the wire: percent-encode it first where needed.
    func request(_ path: String, method: HTTPMethod = .GET, headers: [(String, String)] = [], body: [UInt8]? = nil) async throws -> Reply {
        var request = HTTPClientRequest(url: base + path)
        request.method = method
        if let body { request.body = .bytes(ByteBuffer(bytes: body)) }
        for (name, value) in headers { request.headers.add(name: name, value: value) }
        let response = try await client.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 64 << 20)
        return Reply(status: Int(response.status.code), headers: response.headers, body: Array(buffer: body))
    }

    /// The id as it appears in URLs.
    static func encoded(_ id: String) -> String { RemoteURL.percentEncode(path: id) }
}

/// The same gallery served for a test that talks to it with blocking calls (`RawHTTP`, a
/// subprocess): a synchronous test, so that no thread of Swift's cooperative pool is held while
/// it waits (the async tests share two of them here, and starving them let a kept-alive
/// connection sit past a server deadline).
enum BlockingServedGallery {
    static func with<T>(_ adjust: (inout GalleryServer.Configuration) -> Void = { _ in },
                        _ body: (_ fixture: GalleryFixture, _ server: GalleryServer, _ port: Int) throws -> T) throws -> T {
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
