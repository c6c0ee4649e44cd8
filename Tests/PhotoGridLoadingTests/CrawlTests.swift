import Foundation
import Glibc
import Testing
@testable import GalleryFormats
@testable import PhotoGridGallery
@testable import PhotoGridLoading
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// A NAS's year/month/event tree behind a web listing: read whole however deep, in the order
/// the grid shows, and whatever could not be read said (issue 36).
@Suite(.serialized) struct CrawlTests {
    /// a.jpg at the top; a branch six folders deep; a folder nginx may not read; two more.
    static func makeTree() throws -> String {
        let root = RemotePaths.scratch("crawl")
        let files = FileManager.default
        let photo = RemotePaths.gallery + "/travel/beach-01.jpg"
        let deep = root + "/b/c/d/e/f/g"
        for folder in [deep, root + "/locked", root + "/m1", root + "/m2"] { try files.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        for path in ["a.jpg", "b/b.jpg", "b/c/d/e/f/g/deep.jpg", "locked/hidden.jpg", "m1/one.jpg", "m2/two.jpg"] {
            try files.copyItem(atPath: photo, toPath: root + "/" + path)
        }
        for path in try files.subpathsOfDirectory(atPath: root) { chmod(root + "/" + path, 0o755) }
        chmod(root, 0o755)
        // nginx's worker runs as another user: this folder answers 403.
        chmod(root + "/locked", 0o000)
        return root
    }

    static func remove(_ root: String) {
        chmod(root + "/locked", 0o755)
        try? FileManager.default.removeItem(atPath: root)
    }

    func load(_ port: Int, limits: RemoteGalleryLoader.Limits = .init()) throws -> RemoteGalleryLoader.Loaded {
        let http = Fetcher.forTests()
        defer { http.shutdown() }
        return try RemoteGalleryLoader(fetcher: http, limits: limits).load(try #require(RemoteURL("http://127.0.0.1:\(port)/")))
    }

    @Test(.startsPrograms, .enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"))
    func aDeepTreeIsReadWholeAndWhatIsLeftOutIsSaid() throws {
        let root = try Self.makeTree()
        defer { Self.remove(root) }
        try Nginx.serving(root, autoindex: "on") { (port: Int) throws -> Void in
            let loaded = try load(port)
            #expect(loaded.photos.map(\.id) == ["a.jpg", "b/b.jpg", "b/c/d/e/f/g/deep.jpg", "m1/one.jpg", "m2/two.jpg"])
            #expect(loaded.leftOut.summary == "left out: 1 folder photogrid cannot read (locked: HTTP 403)")
            // At most three folders: the rest are counted, and the cap said.
            var small = RemoteGalleryLoader.Limits()
            small.folders = 3
            let capped = try load(port, limits: small)
            #expect(capped.leftOut.pastCap > 0)
            #expect(capped.leftOut.summary?.contains("past the first 3 (photogrid reads at most that many)") == true, "\(capped.leftOut)")
            // --print says it on stderr, beside its frame.
            let home = RemotePaths.scratch("crawl-client")
            defer { try? FileManager.default.removeItem(atPath: home) }
            let printed = try RemotePaths.print(RemotePaths.frame + ["--url", "http://127.0.0.1:\(port)/"], cacheHome: home)
            #expect(printed.status == 0, "\(printed.errorText)")
            #expect(printed.errorText.contains("left out: 1 folder photogrid cannot read (locked: HTTP 403)"), "\(printed.errorText)")
        }
    }

    /// The order folders are read in is the grid's: a folder not yet read holds back only the
    /// photos that come after it.
    @Test func settledPhotosAreThoseNoFolderLeftCanComeBefore() {
        #expect(NaturalOrder.precedesAllUnder(Array("2015/02/".utf8), Array("2015/01/e/x.jpg".utf8)))
        #expect(NaturalOrder.precedesAllUnder(Array("2015/02/".utf8), Array("2015/z.jpg".utf8)))   // a folder's own photos first
        #expect(!NaturalOrder.precedesAllUnder(Array("2015/02/".utf8), Array("2015/10/x.jpg".utf8)))
        #expect(NaturalOrder.precedesAllUnder(Array("2015/".utf8), Array("2016.jpg".utf8)))        // the top's photos before any folder
        #expect(!NaturalOrder.precedesAllUnder(Array("2015/".utf8), Array("2016/a.jpg".utf8)))
    }

    /// In the grid: every photo of the tree, and what was left out on the status line.
    @Test(.startsPrograms, .enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"))
    func theGridHoldsTheWholeTreeAndSaysWhatIsLeftOut() throws {
        let root = try Self.makeTree()
        defer { Self.remove(root) }
        try Nginx.serving(root, autoindex: "on") { (port: Int) throws -> Void in
            let home = RemotePaths.scratch("crawl-grid")
            defer { try? FileManager.default.removeItem(atPath: home) }
            let tmux = try Tmux(columns: 100, rows: 30, command: "\(RemotePaths.binary) --mode halfblock --url http://127.0.0.1:\(port)/",
                                environment: ["XDG_CACHE_HOME": home])
            let (ok, screen) = try tmux.waitFor { $0.contains("1 of 5") && $0.contains("left out: 1 folder") }
            #expect(ok, "\(screen)")
        }
    }

    /// A year/month tree behind a server that takes 250 ms a request: the grid starts before the
    /// tree is read, its list grows as folders come (the status line counting), and ends whole.
    @Test(.startsPrograms) func aSlowTreeAppearsAsItIsRead() throws {
        let root = RemotePaths.scratch("crawl-slow")
        defer { try? FileManager.default.removeItem(atPath: root) }
        var total = 0
        for year in 2020...2023 {
            for month in 1...12 {
                let folder = root + "/\(year)/\(String(format: "%02d", month))"
                try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
                for n in 0..<2 {
                    // Names of their own: folders of the same names and bytes are taken for copies.
                    try FileManager.default.copyItem(atPath: RemotePaths.gallery + "/travel/beach-0\(n + 1).jpg",
                                                     toPath: folder + "/IMG_\(year)\(month)_\(n).jpg")
                    total += 1
                }
            }
        }
        let port = Subprocess.freePort()
        let server = try Subprocess.start(["python3", RemotePaths.root + "/scripts/lib/slow-server.py", "\(port)", root, "0.25", "0"])
        defer { Subprocess.stop(server) }
        #expect(Subprocess.waitForPort(port))
        let home = RemotePaths.scratch("crawl-slow-client")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let tmux = try Tmux(columns: 100, rows: 30, command: "\(RemotePaths.binary) --mode halfblock --url http://127.0.0.1:\(port)/",
                            environment: ["XDG_CACHE_HOME": home])
        // Started with part of the tree, still reading.
        var (ok, screen) = try tmux.waitFor { $0.contains("reading the folder") }
        #expect(ok, "\(screen)")
        let first = Self.count(screen)
        #expect(first.map { $0 < total } == true, "\(screen)")
        // Grown while still reading, then whole.
        (ok, screen) = try tmux.waitFor { screen in
            screen.contains("reading the folder") && Self.count(screen).map { $0 > (first ?? .max) } == true
        }
        #expect(ok, "\(screen)")
        (ok, screen) = try tmux.waitFor { $0.contains(" of \(total) ") && !$0.contains("reading the folder") }
        #expect(ok, "\(screen)")
    }

    /// N in the status line's "1 of N".
    static func count(_ screen: String) -> Int? {
        guard let range = screen.range(of: #" of [0-9]+ "#, options: .regularExpression) else { return nil }
        return Int(screen[range].dropFirst(4).dropLast())
    }
}
