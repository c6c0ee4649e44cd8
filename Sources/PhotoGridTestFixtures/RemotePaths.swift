import Foundation
import PhotoGridCore
import PhotoGridSamples
import PhotoGridTestSupport
import PhotoGridServe
import PhotoGridLoading
import PhotoGridDiskCache
import PhotoGridModel
import PhotoGridSystem

/// The built binary and the sample gallery, for the remote end-to-end tests.
package enum RemotePaths {
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    package static var binary: String { ProcessInfo.processInfo.environment["PHOTOGRID_BIN"] ?? root + "/.build/debug/photogrid" }
    package static let gallery = root + "/sample-gallery"

    /// A new folder under /tmp, for a test's own disk cache, home or working folder: inside one
    /// folder of the test process's own, removed when it exits (they were left behind, hundreds
    /// a day on a machine that runs the suite).
    package static func scratch(_ name: String) -> String {
        let path = scratchRoot + "/pg-\(name)-\(UUID().uuidString.prefix(8))"
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// The test process's folder for `scratch`, made at the first call.
    static let scratchRoot: String = {
        let root = processScratch()
        try? FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
        atexit { try? FileManager.default.removeItem(atPath: RemotePaths.processScratch()) }
        return root
    }()

    static func processScratch() -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("photogrid-tests-\(getpid())").path
    }

    /// `photogrid --print` with its own disk cache: status, stdout, stderr.
    package static func print(_ arguments: [String], cacheHome: String, environment: [String: String] = [:]) throws -> Subprocess.Result {
        try Subprocess.run([binary, "--print"] + arguments,
                           environment: ["XDG_CACHE_HOME": cacheHome, "PATH": "/usr/bin:/bin"].merging(environment) { $1 })
    }

    /// The sixels of `--print --url` of `folder` served by a plain `photogrid serve` (no token,
    /// no TLS), with `frame` options: what a gallery behind a token or TLS must show too.
    package static func openlyServedSixels(_ folder: String, frame: [String]) throws -> [[UInt8]] {
        let open = try GalleryServer(GalleryServer.Configuration(folder: folder, port: 0))
        try open.start()
        defer { open.stop() }
        let home = scratch("open-client")
        defer { try? FileManager.default.removeItem(atPath: home) }
        return TerminalOutput.sixels(try print(frame + ["--url", open.url], cacheHome: home).output)
    }

    /// Whether two frames' sixels show the same pictures: as many, each of the same size and
    /// within a mean error of 6 levels (which tier a remote tile is cut from depends on which
    /// download finished first, which moves pixels by a level or two; `RemoteGalleryTests`).
    package static func samePictures(_ a: [[UInt8]], _ b: [[UInt8]]) -> Bool {
        let first = a.compactMap(Sixel.decode), second = b.compactMap(Sixel.decode)
        guard !first.isEmpty, first.count == a.count, first.count == second.count else { return false }
        return zip(first, second).allSatisfy { x, y in
            x.width == y.width && x.height == y.height && TestImages.meanAbsoluteError(x, y) < 6
        }
    }

    /// The frame the remote tests print: sixel, 120x40 cells of 10x20 pixels, five columns, labels.
    package static let frame = ["--mode", "sixel", "--size", "120x40", "--cell-size", "10x20", "--columns", "5", "--labels"]
}
