import Foundation
import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridCore
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridServe
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `photogrid --print --url` against real servers on 127.0.0.1: `photogrid serve`, python's
/// http.server, and nginx with `autoindex on` and `autoindex_format json`.
@Suite(.startsPrograms, .serialized) struct RemoteGalleryTests {

    /// The local frame of the sample gallery, to compare remote ones with.
    static func localFrame() throws -> (images: [RGBImage], status: String) {
        let home = RemotePaths.scratch("local")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try RemotePaths.print(RemotePaths.frame + [RemotePaths.gallery], cacheHome: home)
        #expect(result.status == 0, "\(result.errorText)")
        return (TerminalOutput.sixels(result.output).compactMap(Sixel.decode), String(decoding: result.output, as: UTF8.self))
    }

    /// A remote frame shows the same photos in the same places as the local one: as many tiles,
    /// each of the same size and close to its local twin, and closer to it than to any other
    /// tile of the frame (so a photo in the wrong place fails however soft the tolerance).
    /// The tolerance is not zero: renditions are JPEGs of their own, and which tier a tile is
    /// cut from depends on which download finished first (a smaller tier is made from a larger
    /// one already in memory), which moves pixels by a level or two.
    func expectSamePicture(_ result: Subprocess.Result, as local: (images: [RGBImage], status: String), maxError: Double,
                           sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 0, "\(result.errorText)", sourceLocation: sourceLocation)
        let images = TerminalOutput.sixels(result.output).compactMap(Sixel.decode)
        #expect(images.count == local.images.count, sourceLocation: sourceLocation)
        #expect(local.images.count >= 10, sourceLocation: sourceLocation)
        for (index, (remote, here)) in zip(images, local.images).enumerated() {
            guard remote.width == here.width && remote.height == here.height else {
                Issue.record("tile \(index): \(remote.width)x\(remote.height), locally \(here.width)x\(here.height)",
                             sourceLocation: sourceLocation)
                continue
            }
            let error = TestImages.meanAbsoluteError(remote, here)
            #expect(error < maxError, "tile \(index): mean error \(error)", sourceLocation: sourceLocation)
            for (other, image) in local.images.enumerated() where other != index && image.width == here.width && image.height == here.height {
                #expect(TestImages.meanAbsoluteError(remote, image) > error, "tile \(index) looks like local tile \(other)",
                        sourceLocation: sourceLocation)
            }
        }
        // The labels name the same photos in the same order.
        let labels = String(decoding: result.output, as: UTF8.self)
        for part in ["autumn-01.jpg", "autumn-02.jpg", "hills-01.jpg"] {
            #expect(labels.contains(part) && local.status.contains(part), sourceLocation: sourceLocation)
        }
        func order(_ text: String) -> [Int] { ["autumn-01.jpg", "autumn-02.jpg", "hills-01.jpg"].compactMap { text.range(of: $0)?.lowerBound.utf16Offset(in: text) } }
        #expect(order(labels) == order(labels).sorted() && order(local.status) == order(local.status).sorted(), sourceLocation: sourceLocation)
    }

    /// Every file below a folder with its size and mtime: what must not change.
    static func snapshot(_ folder: String) throws -> [UInt8] {
        try Subprocess.run(["find", folder, "-printf", "%p %s %T@\\n"]).output
    }

    @Test func aServedFolderPrintsLikeTheFolderAndASecondVisitComesFromDisk() throws {
        let folderBefore = try Self.snapshot(RemotePaths.gallery)
        defer { #expect((try? Self.snapshot(RemotePaths.gallery)) == folderBefore, "serving or browsing wrote into the folder") }
        let renditions = RemotePaths.scratch("renditions")
        let home = RemotePaths.scratch("client")
        defer { try? FileManager.default.removeItem(atPath: renditions); try? FileManager.default.removeItem(atPath: home) }
        let server = try GalleryServer(GalleryServer.Configuration(folder: RemotePaths.gallery, port: 0, cacheDirectory: renditions))
        try server.start()
        defer { server.stop() }
        let local = try Self.localFrame()
        let first = try RemotePaths.print(RemotePaths.frame + ["--url", server.url], cacheHome: home)
        expectSamePicture(first, as: local, maxError: 6)
        // One batch for the screen (docs/remote-gallery.md, "Batches"), the opening, asked for
        // beside the manifest: each photo on screen asked for once in it, no original, nothing
        // asked alone.
        let requests = server.requestsByPath
        #expect(server.totalRequests == 2, "\(requests)")
        #expect(requests["/batch"] == 1)
        #expect(server.openingBatches == 1)
        let renditionPaths = requests.keys.filter { $0.hasPrefix("/renditions/") }
        let photos = try FolderScanner().scan(RawPath(RemotePaths.gallery)).count
        let onScreen = GridLayout(screen: ScreenMetrics(columns: 120, rows: 40), columns: 5).visibleIndexes(topRow: 0, photos: photos).count
        #expect(renditionPaths.count == onScreen, "\(requests.keys.sorted())")
        #expect(requests.values.allSatisfy { $0 == 1 }, "\(requests.filter { $0.value > 1 })")
        #expect(requests.keys.allSatisfy { $0 == "/" || $0 == "/batch" || $0.hasPrefix("/renditions/") }, "\(requests.keys.sorted())")
        // A second visit: the photos come from the disk cache; only the manifest is asked
        // again (it is shown from the cache and revalidated meanwhile: a 304).
        let before = server.totalRequests
        let stats = home + "/stats"
        let second = try Subprocess.run([RemotePaths.binary, "--print"] + RemotePaths.frame + ["--url", server.url],
                                        environment: ["XDG_CACHE_HOME": home, "PATH": "/usr/bin:/bin", "PHOTOGRID_STATS": stats])
        expectSamePicture(second, as: local, maxError: 6)
        #expect(server.totalRequests - before == 1, "\(server.requestsByPath.filter { $0.value > 1 })")
        #expect(server.requestCount(path: "/") == 2)
        #expect(server.openingBatches == 1)                     // a gallery seen before opens from the cache
        // And its tiles are the first visit's, read from the disk cache: nothing decoded or encoded.
        let work = (try? String(contentsOfFile: stats, encoding: .utf8)) ?? ""
        #expect(work.contains("decodes 0\n") && work.contains("encodes 0\n") && work.contains("tiles-from-disk \(onScreen)\n"), "\(work)")
    }

    /// A gallery that fits on one screen at fewer columns starts there, with larger tiles: the
    /// opening batch, asked for before the gallery's size is known, still brings its screen.
    @Test func aSmallGallerysFirstVisitIsOneRoundTripToo() throws {
        let folder = RemotePaths.scratch("small-gallery")
        let home = RemotePaths.scratch("small-client")
        defer { try? FileManager.default.removeItem(atPath: folder); try? FileManager.default.removeItem(atPath: home) }
        for name in ["autumn-01.jpg", "autumn-02.jpg", "hills-01.jpg"] {
            #expect(try Subprocess.run(["cp", RemotePaths.gallery + "/landscapes/" + name, folder]).status == 0)
        }
        let screen = ScreenMetrics(columns: 120, rows: 40, cellWidth: 10, cellHeight: 20)
        let columns = GridLayout.startColumns(photos: 3, screen: screen)
        #expect(columns < 4)
        let server = try GalleryServer(GalleryServer.Configuration(folder: folder, port: 0))
        try server.start()
        defer { server.stop() }
        let frame = ["--mode", "sixel", "--size", "120x40", "--cell-size", "10x20", "--labels"]
        let result = try RemotePaths.print(RemotePaths.frame + ["--url", server.url], cacheHome: home)
        #expect(result.status == 0, "\(result.errorText)")
        let text = String(decoding: result.output, as: UTF8.self)
        #expect(["autumn-01.jpg", "autumn-02.jpg", "hills-01.jpg"].allSatisfy { text.contains($0) })
        #expect(TerminalOutput.sixels(result.output).compactMap(Sixel.decode).count >= 3)
        // The manifest and the opening, nothing else: each photo's rendition asked for once, in it.
        let requests = server.requestsByPath
        #expect(server.totalRequests == 2 && server.openingBatches == 1, "\(requests)")
        #expect(requests.keys.filter { $0.hasPrefix("/renditions/") }.count == 3, "\(requests.keys.sorted())")
        #expect(requests.values.allSatisfy { $0 == 1 }, "\(requests)")
    }

    @Test func pythonsHTTPServerListingBrowsesLikeTheFolder() throws {
        let port = Subprocess.freePort()
        let python = try Subprocess.start(["python3", "-m", "http.server", "\(port)", "--bind", "127.0.0.1",
                                           "--directory", RemotePaths.gallery])
        defer { Subprocess.stop(python) }
        #expect(Subprocess.waitForPort(port))
        let home = RemotePaths.scratch("python")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try RemotePaths.print(RemotePaths.frame + ["--url", "http://127.0.0.1:\(port)/"], cacheHome: home)
        // No renditions: each photo whole, made small here exactly as from the disk.
        expectSamePicture(result, as: try Self.localFrame(), maxError: 4)
    }

    @Test(.enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"),
          arguments: ["on", "json"])
    func nginxAutoindexBrowsesLikeTheFolder(format: String) throws {
        // A copy, in a folder nginx's worker (another user) can read wherever the checkout lies.
        let served = RemotePaths.scratch("nginx-root")
        defer { try? FileManager.default.removeItem(atPath: served) }
        chmod(served, 0o755)
        let copied = try Subprocess.run(["cp", "-R", RemotePaths.gallery + "/.", served])
        #expect(copied.status == 0)
        try Nginx.serving(served, autoindex: format) { port in
            let home = RemotePaths.scratch("nginx-client")
            defer { try? FileManager.default.removeItem(atPath: home) }
            let result = try RemotePaths.print(RemotePaths.frame + ["--url", "http://127.0.0.1:\(port)/"], cacheHome: home)
            expectSamePicture(result, as: try Self.localFrame(), maxError: 4)
        }
    }

    /// `photogrid export`, served as it is by nginx (no listing, no photogrid on the server):
    /// browsed with `--url .../manifest.json`, the same frame as the folder's.
    @Test(.enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"))
    func anExportServedByNginxBrowsesLikeTheFolder() throws {
        let served = RemotePaths.scratch("export-root")
        defer { try? FileManager.default.removeItem(atPath: served) }
        chmod(served, 0o755)
        let output = served + "/gallery"
        // The sizes this frame's tiles take (smaller sizes would do for none of them), to keep it short.
        let exported = try Subprocess.run([RemotePaths.binary, "export", "--sizes", "512,1024", RemotePaths.gallery, output])
        #expect(exported.status == 0, "\(exported.errorText)")
        #expect(exported.errorText.contains("exported") && exported.errorText.contains("0 unchanged"), "\(exported.errorText)")
        try Nginx.serving(served) { port in
            let home = RemotePaths.scratch("export-client")
            defer { try? FileManager.default.removeItem(atPath: home) }
            let result = try RemotePaths.print(RemotePaths.frame + ["--url", "http://127.0.0.1:\(port)/gallery/manifest.json"], cacheHome: home)
            expectSamePicture(result, as: try Self.localFrame(), maxError: 6)
        }
    }
}
