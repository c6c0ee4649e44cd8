import Foundation
import Glibc
import Testing
@testable import GalleryFormats
@testable import PhotoGridLoading
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

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

    @Test(.startsPrograms) func pythonsListingShowsALinkedFolderOnce() throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let (python, port) = try Self.python(root)
        defer { Subprocess.stop(python) }
        let ids = try load("http://127.0.0.1:\(port)/")
        #expect(ids == Self.expected, "\(ids)")
    }

    @Test(.startsPrograms, .enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"), arguments: ["on", "json"])
    func nginxsListingShowsALinkedFolderOnce(format: String) throws {
        let root = try Self.makeTree()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Nginx.serving(root, autoindex: format) { (port: Int) throws -> Void in
            #expect(try load("http://127.0.0.1:\(port)/") == Self.expected)
        }
    }

    /// The order a loaded server answered in once: the link `Favourites/` read before the folder
    /// it leads to, then `Deep/Again/` (a third way to it) after both. Camera's photos show once,
    /// under Camera, whichever copy was met first.
    @Test func aLinkReadBeforeItsFolderStillShowsItOnce() throws {
        let tree = HeldBackTree(holding: "/Camera/", until: "/Favourites/")
        let loaded = try RemoteGalleryLoader(fetcher: tree).load(try #require(RemoteURL("http://nas.test/")))
        #expect(loaded.photos.map(\.id) == Self.expected)
        #expect(tree.answered.withLock { $0 }.firstIndex(of: "/Favourites/")! < tree.answered.withLock { $0 }.firstIndex(of: "/Camera/")!)
    }

    /// As a user sees it, in tmux: five photos, not seven, and `End` lands on Copy's last.
    @Test(.startsPrograms) func theGridCountsALinkedFolderOnce() throws {
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

/// The tree of `makeTree` as nginx's JSON listings, served without a server, one answer held
/// back until another has been given: the seam where an order a busy server gives now and then
/// is given every time.
final class HeldBackTree: Fetching, @unchecked Sendable {
    /// Listings by path; a file's bytes say which photo it is (the links' files are the same).
    let listings: [String: String] = [
        "/": #"[{"name":"Camera","type":"directory"},{"name":"Copy","type":"directory"},{"name":"Deep","type":"directory"},{"name":"Favourites","type":"directory"},{"name":"top.jpg","type":"file"}]"#,
        "/Camera/": #"[{"name":"a.jpg","type":"file"},{"name":"b.jpg","type":"file"}]"#,
        "/Favourites/": #"[{"name":"a.jpg","type":"file"},{"name":"b.jpg","type":"file"}]"#,
        "/Copy/": #"[{"name":"a.jpg","type":"file"},{"name":"b.jpg","type":"file"}]"#,
        "/Deep/": #"[{"name":"Again","type":"directory"}]"#,
        "/Deep/Again/": #"[{"name":"a.jpg","type":"file"},{"name":"b.jpg","type":"file"}]"#,
    ]
    let held: String, until: String
    let answered = Locked<[String]>([])
    private let waiting = Locked<[@Sendable () -> Void]>([])

    init(holding held: String, until: String) { (self.held, self.until) = (held, until) }

    func get(_ url: RemoteURL, range: Range<Int>?, limit: Int, then: @escaping FetchCompletion) -> FetchStart {
        let path = url.path
        let body: [UInt8]
        if let listing = listings[path] {
            body = Array(listing.utf8)
        } else {
            // A file: the same bytes where a link leads to the same file.
            let real = path.replacingOccurrences(of: "/Favourites/", with: "/Camera/").replacingOccurrences(of: "/Deep/Again/", with: "/Camera/")
            body = [0xFF, 0xD8, 0xFF] + Array(real.utf8)
        }
        let answer: @Sendable () -> Void = { [answered] in
            answered.withLock { $0.append(path) }
            then(.success(FetchResult(status: 200, body: body, contentType: "application/json", url: url)))
        }
        if path == held {
            waiting.withLock { $0.append(answer) }
        } else {
            // Answered on another thread, as a transfer loop does; the held one right after `until`.
            Thread.detachNewThread { [waiting, until] in
                answer()
                if path == until { waiting.withLock { list in defer { list = [] }; return list }.forEach { $0() } }
            }
        }
        return .pending(FetchTicket {})
    }
}
