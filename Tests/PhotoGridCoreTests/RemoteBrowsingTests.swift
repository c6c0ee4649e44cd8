import Foundation
import Glibc
import Testing
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridServe
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Browsing a remote gallery in a terminal (tmux), counted on the server: what the pipeline's
/// rules (coalescing, dropping what is no longer wanted, prefetching near the screen) mean in
/// requests.
@Suite(.startsPrograms, .serialized) struct RemoteBrowsingTests {
    static let photoCount = 200

    /// A folder of `photoCount` photos, p000.jpg to p199.jpg, hard links to the sample gallery's.
    static func bigFolder() throws -> String {
        let folder = RemotePaths.scratch("big")
        let sources = try FolderScanner().scan(RawPath(RemotePaths.gallery)).map(\.source.description)
        for index in 0..<photoCount {
            let name = folder + "/p" + String(String(1000 + index).dropFirst()) + ".jpg"
            guard link(sources[index % sources.count], name) == 0 else { throw POSIXError(.init(rawValue: errno)!) }
        }
        return folder
    }

    /// The photo index of a rendition path ("/renditions/p123.jpg/256.jpg"), if it is one.
    static func index(ofRendition path: String) -> Int? {
        let parts = path.split(separator: "/")
        guard parts.count == 3, parts[0] == "renditions", parts[1].hasPrefix("p") else { return nil }
        return Int(parts[1].dropFirst().prefix(3))
    }

    /// The user jumps to the end straight away, with a slow server: what the first screen had
    /// not started fetching is never asked for, nothing in the middle of the gallery is, and
    /// each rendition is asked for once.
    @Test func jumpingToTheEndDropsTheFirstScreenAndNothingUnseenIsFetched() throws {
        let folder = try Self.bigFolder()
        let renditions = RemotePaths.scratch("renditions")
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: renditions) }
        let server = try GalleryServer(GalleryServer.Configuration(folder: folder, port: 0, cacheDirectory: renditions,
                                                                   delayMilliseconds: 1000))
        try server.start()
        defer { server.stop() }

        let tmux = try Tmux(columns: 80, rows: 24, command: "\(RemotePaths.binary) --mode halfblock --columns 4 --url \(server.url)")
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of \(Self.photoCount)") }
        #expect(ok, "\(screen)")
        try tmux.send("G")
        (ok, screen) = try tmux.waitFor(seconds: 30) { screen in
            let status = screen.split(separator: "\n").last { $0.contains(" of ") }.map(String.init) ?? ""
            return status.contains("\(Self.photoCount) of \(Self.photoCount)") && !status.contains("loading")
        }
        #expect(ok, "the last screen did not finish loading: \(screen)")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)

        // Renditions are asked for in batches (docs/remote-gallery.md, "Batches"); the server
        // counts each item under its own path as it starts making it.
        let requests = server.requestsByPath.filter { $0.key != "/batch" }
        let asked = requests.compactMap { path, count in Self.index(ofRendition: path).map { ($0, count) } }
        #expect(requests.values.allSatisfy { $0 == 1 }, "asked more than once: \(requests.filter { $0.value > 1 })")
        // The first screen's batch, then the end's: the first was cancelled when G moved on.
        #expect(server.requestCount(path: "/batch") >= 2)
        // With renditions on offer, no original is touched, not even its head for a thumbnail.
        #expect(!requests.keys.contains { $0.hasPrefix("/originals/") }, "\(requests.keys.sorted())")
        // The last screen (4 columns, 3 rows of tiles on 23 rows) was fetched.
        let end = Set(asked.map(\.0).filter { $0 >= Self.photoCount - 8 })
        #expect(end == Set((Self.photoCount - 8)..<Self.photoCount), "\(end.sorted())")
        // The first screen was asked for beside the manifest (the opening batch), before any
        // key: its renditions may all have been made. Of what was prefetched after it, only
        // what the server had started making before the client cancelled its batch: at most a
        // batch's share of the server's workers (the server waits its second before it starts any).
        let firstScreen = FirstScreen(screen: ScreenMetrics(columns: 80, rows: 24), mode: .halfBlock(.trueColor), columns: 4, fit: .fill)
        let early = asked.filter { (firstScreen.count..<40).contains($0.0) }.map(\.0).sorted()
        #expect(early.count <= BatchStream.concurrency, "\(early)")
        // Nothing from the middle of the gallery, which was never on screen or near it.
        let middle = asked.filter { (40..<150).contains($0.0) }.map(\.0).sorted()
        #expect(middle.isEmpty, "\(middle)")
    }
}
