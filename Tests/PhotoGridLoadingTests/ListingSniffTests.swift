import Foundation
import Glibc
import Testing
@testable import GalleryFormats
@testable import PhotoGridDecoding
@testable import PhotoGridLoading
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Files of a web listing whose names say nothing are shown for what their first bytes are, as
/// in a folder on disk: a JPEG without an extension, a PNG named `.dat`; a text file stays out.
@Suite(.startsPrograms, .serialized) struct ListingSniffTests {
    static func makeTree() throws -> String {
        let root = RemotePaths.scratch("sniff")
        chmod(root, 0o755)
        let files = FileManager.default
        try files.copyItem(atPath: RemotePaths.gallery + "/travel/beach-01.jpg", toPath: root + "/IMG_0001")
        try files.copyItem(atPath: RemotePaths.gallery + "/travel/beach-02.jpg", toPath: root + "/b.jpg")
        // A PNG of 2x2 grey pixels (written by python's zlib and struct).
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0x00, 0x00, 0x00, 0x0D, 0x49, 0x48, 0x44, 0x52,
                            0x00, 0x00, 0x00, 0x02, 0x00, 0x00, 0x00, 0x02, 0x08, 0x02, 0x00, 0x00, 0x00, 0xFD, 0xD4, 0x9A,
                            0x73, 0x00, 0x00, 0x00, 0x0E, 0x49, 0x44, 0x41, 0x54, 0x78, 0x9C, 0x63, 0x68, 0x00, 0x03, 0x06,
                            0x08, 0x05, 0x00, 0x2A, 0x0E, 0x06, 0x01, 0x15, 0x9E, 0x42, 0xD7, 0x00, 0x00, 0x00, 0x00, 0x49,
                            0x45, 0x4E, 0x44, 0xAE, 0x42, 0x60, 0x82]
        try Data(png).write(to: URL(fileURLWithPath: root + "/screen.dat"))
        try Data("just some notes, not a picture\n".utf8).write(to: URL(fileURLWithPath: root + "/NOTES"))
        // An MP4's first box: a video, a tile that says so.
        try Data([0, 0, 0, 0x18] + Array("ftypisom".utf8) + [UInt8](repeating: 0, count: 12)).write(to: URL(fileURLWithPath: root + "/clip"))
        for path in try files.subpathsOfDirectory(atPath: root) { chmod(root + "/" + path, 0o755) }
        return root
    }

    func load(_ url: String) throws -> RemoteGalleryLoader.Loaded {
        let http = Fetcher.forTests()
        defer { http.shutdown() }
        return try RemoteGalleryLoader(fetcher: http).load(try #require(RemoteURL(url)))
    }

    func check(_ loaded: RemoteGalleryLoader.Loaded) {
        #expect(loaded.photos.map(\.id) == ["b.jpg", "IMG_0001", "screen.dat"])
        #expect(loaded.others.map(\.name) == ["clip"])
        #expect(loaded.others.first?.format.isVideo == true)
    }

    /// python's http.server ignores `Range` and sends whole files.
    @Test func pythonsListing() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (python, port) = try ListingLinkTests.python(root)
        defer { Subprocess.stop(python) }
        check(try load("http://127.0.0.1:\(port)/"))
    }

    /// nginx answers the range: 16 bytes a file.
    @Test(.enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"))
    func nginxsListing() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Nginx.serving(root, autoindex: "on") { (port: Int) throws -> Void in
            check(try load("http://127.0.0.1:\(port)/"))
        }
    }

    /// As a user sees it: the extensionless JPEG is a picture in its tile, not a grey one.
    @Test func theGridShowsAnExtensionlessPhoto() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (python, port) = try ListingLinkTests.python(root)
        defer { Subprocess.stop(python) }
        let home = RemotePaths.scratch("sniff-client")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let tmux = try Tmux(columns: 100, rows: 30, command: "\(RemotePaths.binary) --mode halfblock --url http://127.0.0.1:\(port)/",
                            environment: ["XDG_CACHE_HOME": home])
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of 4") }
        #expect(ok, "\(screen)")
        // In natural order: b.jpg, clip, IMG_0001, screen.dat.
        try tmux.send("l")
        try tmux.send("l")
        (ok, screen) = try tmux.waitFor { $0.contains("IMG_0001") && $0.contains("3 of 4") }
        #expect(ok, "\(screen)")
        #expect(!screen.contains("unsupported"), "\(screen)")
    }
}
