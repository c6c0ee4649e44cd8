import Foundation
import Testing
@testable import PhotoGridCore
@testable import PhotoGridRemote
import PhotoGridSamples
import PhotoGridTestSupport

/// A second visit starts from the manifest in the cache, as `photogrid serve` allows
/// (`stale-while-revalidate`), and checks it in the background: the grid shows at once, takes
/// the server's changes as soon as they come, and shows the cached gallery while the server is
/// away.
@Suite(.serialized) struct StaleManifestTests {
    @Test func theCacheEntryKeepsItsStaleWindow() {
        #expect(HTTPCache.staleWindow(cacheControl: "max-age=0, stale-while-revalidate=604800") == 604800)
        #expect(HTTPCache.staleWindow(cacheControl: "no-cache, stale-while-revalidate=60") == nil)
        #expect(HTTPCache.staleWindow(cacheControl: "max-age=60") == nil)
        #expect(HTTPCache.staleWindow(cacheControl: "stale-while-revalidate=x") == nil)
        var entry = HTTPCache.Entry(status: 200, storedAt: 1000, maxAge: 0, staleWindow: 60, etag: "\"a\"", lastModified: nil,
                                    contentType: "application/json", body: Array("{}".utf8))
        #expect(HTTPCache.decode(HTTPCache.encode(entry)) == entry)
        #expect(entry.mayServeStale(now: 1059) && !entry.mayServeStale(now: 1060) && !entry.isFresh(now: 1000))
        entry.etag = nil
        #expect(!entry.mayServeStale(now: 1001), "nothing to revalidate with: not used stale")
        // An entry written before the window was kept reads as without one.
        var old = HTTPCache.encode(entry)
        old[0] = 1
        old.removeSubrange(25..<33)
        #expect(HTTPCache.decode(old)?.staleWindow == nil && HTTPCache.decode(old)?.body == entry.body)
    }

    /// A folder of `count` photos of the sample gallery, as links.
    static func folder(_ count: Int) throws -> String {
        let folder = RemotePaths.scratch("stale")
        let sources = try FolderScanner().scan(RawPath(RemotePaths.gallery)).map(\.source.description)
        for index in 0..<count { try Self.add(sources[index], index, to: folder) }
        return folder
    }

    static func add(_ source: String, _ index: Int, to folder: String) throws {
        try FileManager.default.linkItem(atPath: source, toPath: folder + "/p\(index).jpg")
    }

    @Test func aChangedGalleryIsShownAtOnceThenAsItIsNow() throws {
        let folder = try Self.folder(3)
        let home = RemotePaths.scratch("stale-client")
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: home) }
        let port = Subprocess.freePort()
        let first = try GalleryServer(GalleryServer.Configuration(folder: folder, port: port))
        try first.start()
        let visit = try RemotePaths.print(["--mode", "halfblock", "--size", "80x24", "--url", first.url], cacheHome: home)
        #expect(visit.status == 0, "\(visit.errorText)")
        first.stop()

        // The server is away: the gallery as last seen, from the cache.
        let away = try RemotePaths.print(["--mode", "halfblock", "--size", "80x24", "--url", first.url], cacheHome: home)
        #expect(away.status == 0 && away.output == visit.output, "\(away.errorText)")

        // A photo added, the server back on the same port with a second's delay on every answer:
        // the grid starts with the three photos it knew, then shows the fourth once the manifest
        // comes, by itself.
        let sources = try FolderScanner().scan(RawPath(RemotePaths.gallery)).map(\.source.description)
        try Self.add(sources[3], 3, to: folder)
        let second = try GalleryServer(GalleryServer.Configuration(folder: folder, port: port, delayMilliseconds: 1000))
        try second.start()
        defer { second.stop() }
        let tmux = try Tmux(columns: 80, rows: 24, command: "\(RemotePaths.binary) --mode halfblock --url \(second.url)",
                            environment: ["XDG_CACHE_HOME": home])
        var (ok, screen) = try tmux.waitFor(seconds: 0.9) { $0.contains("1 of 3") }
        #expect(ok, "the cached gallery was not shown before the server answered: \(screen)")
        (ok, screen) = try tmux.waitFor(seconds: 10) { $0.contains("1 of 4") && $0.contains("1 added, 0 removed") }
        #expect(ok, "the changed gallery was not taken: \(screen)")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }
}
