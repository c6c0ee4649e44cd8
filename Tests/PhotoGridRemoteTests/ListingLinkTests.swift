import Foundation
import GalleryFormats
import Glibc
import PhotoGridCore
import PhotoGridTestSupport
import Testing
@testable import PhotoGridRemote

/// A web listing of a folder with a link to another folder in it: the folder shows once, as
/// locally; a real folder that only shares its names with another shows as itself.
@Suite(.serialized) struct ListingLinkTests {
    /// `Camera/` (two photos), `Favourites -> Camera`, `Copy/` (other photos under the same
    /// names), `Deep/Again -> ../Camera`, `top.jpg` and a hidden `.thumbs/`; in a 0755 folder
    /// another user's nginx worker can read.
    static func makeTree() throws -> String {
        let root = RemotePaths.scratch("links")
        chmod(root, 0o755)
        let samples = RemotePaths.gallery
        let files = FileManager.default
        for folder in ["Camera", "Copy", "Deep", ".thumbs"] { try files.createDirectory(atPath: root + "/" + folder, withIntermediateDirectories: true) }
        try files.copyItem(atPath: samples + "/travel/beach-01.jpg", toPath: root + "/Camera/a.jpg")
        try files.copyItem(atPath: samples + "/travel/beach-02.jpg", toPath: root + "/Camera/b.jpg")
        try files.copyItem(atPath: samples + "/night/night-01.jpg", toPath: root + "/Copy/a.jpg")
        try files.copyItem(atPath: samples + "/night/night-02.jpg", toPath: root + "/Copy/b.jpg")
        try files.copyItem(atPath: samples + "/travel/desert-01.jpg", toPath: root + "/top.jpg")
        try files.copyItem(atPath: samples + "/travel/desert-01.jpg", toPath: root + "/.thumbs/t.jpg")
        try files.createSymbolicLink(atPath: root + "/Favourites", withDestinationPath: "Camera")
        try files.createSymbolicLink(atPath: root + "/Deep/Again", withDestinationPath: "../Camera")
        for path in try files.subpathsOfDirectory(atPath: root) { chmod(root + "/" + path, 0o755) }
        return root
    }

    /// python's http.server on `root`, and its port.
    static func python(_ root: String) throws -> (pid_t, Int) {
        let port = Subprocess.freePort()
        let python = try Subprocess.start(["python3", "-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", root])
        #expect(Subprocess.waitForPort(port))
        return (python, port)
    }

    static let expected = ["top.jpg", "Camera/a.jpg", "Camera/b.jpg", "Copy/a.jpg", "Copy/b.jpg"]

    func load(_ url: String) throws -> [String] {
        let http = Fetcher.forTests()
        defer { http.shutdown() }
        let loaded = try RemoteGalleryLoader(fetcher: http).load(try #require(RemoteURL(url)))
        // What was left out says why, if anything is missing.
        return loaded.photos.map(\.id) + (loaded.leftOut.summary.map { [$0] } ?? [])
    }

    @Test func pythonsListingShowsALinkedFolderOnce() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (python, port) = try Self.python(root)
        defer { Subprocess.stop(python) }
        let ids = try load("http://127.0.0.1:\(port)/")
        #expect(ids == Self.expected, "\(ids)")
    }

    @Test(.enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"), arguments: ["on", "json"])
    func nginxsListingShowsALinkedFolderOnce(format: String) throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Nginx.serving(root, autoindex: format) { (port: Int) throws -> Void in
            #expect(try load("http://127.0.0.1:\(port)/") == Self.expected)
        }
    }

    /// As a user sees it, in tmux: five photos, not seven, and `End` lands on Copy's last.
    @Test func theGridCountsALinkedFolderOnce() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (python, port) = try Self.python(root)
        defer { Subprocess.stop(python) }
        let home = RemotePaths.scratch("links-client")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let tmux = try Tmux(columns: 100, rows: 30, command: "\(RemotePaths.binary) --mode halfblock --url http://127.0.0.1:\(port)/",
                            environment: ["XDG_CACHE_HOME": home])
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of 5") }
        #expect(ok, "\(screen)")
        try tmux.send("G")
        (ok, screen) = try tmux.waitFor { $0.contains("Copy/b.jpg") && $0.contains("5 of 5") }
        #expect(ok, "\(screen)")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }
}
