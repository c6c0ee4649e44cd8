import Foundation
import Testing
@testable import PhotoGridGallery
@testable import PhotoGridLoading
@testable import PhotoGridMetadata
@testable import PhotoGridServe
@testable import PhotoGridSystem
import PhotoGridTestFixtures
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

    /// A server of the photos' manifest (with `photogrid serve`'s Cache-Control) and the photos,
    /// whose gallery a test changes as it goes: how many photos, a delay on the manifest, or
    /// away (every connection reset). A server restarted on one port would race the other
    /// tests' connections for that port.
    final class ChangingGallery: Sendable {
        struct State { var count = 3; var delay = 0; var away = false }
        let state = Locked(State())
        let photos: [[UInt8]]

        init() throws {
            photos = try FolderScanner().scan(RawPath(RemotePaths.gallery)).prefix(5).map { try FileReader.read($0.source.file!) }
        }

        func respond(_ request: TestServer.Request) -> TestServer.Behavior {
            let now = state.withLock { $0 }
            if now.away { return .reset }
            if request.path == "/" {
                let list = (0..<now.count).map { #"{"id": "p\#($0).jpg", "original": "p\#($0).jpg"}"# }.joined(separator: ", ")
                let etag = "\"m\(now.count)\""
                let headers = [("ETag", etag), ("Cache-Control", GalleryResponder.manifestCaching), ("Content-Type", "application/json")]
                let answer: TestServer.Behavior = request.headers["if-none-match"] == etag
                    ? .respond(status: 304, headers: headers, body: [])
                    : .respond(status: 200, headers: headers, body: Array(#"{"photogrid": 1, "photos": [\#(list)]}"#.utf8))
                return now.delay > 0 ? .slow(milliseconds: now.delay, answer) : answer
            }
            guard let index = Int(request.path.dropFirst(2).dropLast(4)), photos.indices.contains(index) else {
                return .respond(status: 404, headers: [], body: [])
            }
            return .respond(status: 200, headers: [("Cache-Control", "max-age=86400"), ("ETag", "\"p\(index)\""), ("Content-Type", "image/jpeg")],
                            body: photos[index])
        }
    }

    @Test(.startsPrograms) func aChangedGalleryIsShownAtOnceThenAsItIsNow() throws {
        let gallery = try ChangingGallery()
        let server = try TestServer { gallery.respond($0) }
        defer { server.stop() }
        let home = RemotePaths.scratch("stale-client")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let visit = try RemotePaths.print(["--mode", "halfblock", "--size", "80x24", "--url", server.url], cacheHome: home)
        #expect(visit.status == 0, "\(visit.errorText)")

        // The server is away: the gallery as last seen, from the cache.
        gallery.state.withLock { $0.away = true }
        let away = try RemotePaths.print(["--mode", "halfblock", "--size", "80x24", "--url", server.url], cacheHome: home)
        #expect(away.status == 0 && away.output == visit.output, "\(away.errorText)")

        // A photo added, the server back with three seconds' delay on the manifest: the grid
        // starts with the three photos it knew, then shows the fourth once the manifest comes,
        // by itself. (The delay is long enough for a loaded machine to see what comes before
        // the answer: with one second, a run of the whole suite once saw the answer first.)
        gallery.state.withLock { $0 = ChangingGallery.State(count: 4, delay: 3000, away: false) }
        let tmux = try Tmux(columns: 80, rows: 24, command: "\(RemotePaths.binary) --mode halfblock --url \(server.url)",
                            environment: ["XDG_CACHE_HOME": home])
        var (ok, screen) = try tmux.waitFor(seconds: 2.5) { $0.contains("1 of 3") }
        #expect(ok, "the cached gallery was not shown before the server answered: \(screen)")
        (ok, screen) = try tmux.waitFor(seconds: 10) { $0.contains("1 of 4") && $0.contains("1 added, 0 removed") }
        #expect(ok, "the changed gallery was not taken: \(screen)")
        // Ctrl-R asks the server for the gallery again without stopping the grid: the notice
        // at once, while the server takes its time, then the answer.
        try tmux.send("C-r")
        (ok, screen) = try tmux.waitFor(seconds: 2.5) { $0.contains("asking for the gallery again") }
        #expect(ok, "Ctrl-R did not answer at once: \(screen)")
        (ok, screen) = try tmux.waitFor(seconds: 10) { $0.contains("1 of 4") && $0.contains("no photos added or removed") }
        #expect(ok, "Ctrl-R's answer did not come: \(screen)")
        // And with a fifth photo, Ctrl-R shows it.
        gallery.state.withLock { $0.count = 5 }
        try tmux.send("C-r")
        (ok, screen) = try tmux.waitFor(seconds: 10) { $0.contains("1 of 5") && $0.contains("1 added, 0 removed") }
        #expect(ok, "Ctrl-R did not bring the fifth photo: \(screen)")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }
}
