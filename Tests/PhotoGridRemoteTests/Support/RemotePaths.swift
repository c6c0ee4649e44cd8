import Foundation
import PhotoGridSamples
import PhotoGridTestSupport
@testable import PhotoGridRemote

/// The built binary and the sample gallery, for the remote end-to-end tests.
enum RemotePaths {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().path
    static var binary: String { ProcessInfo.processInfo.environment["PHOTOGRID_BIN"] ?? root + "/.build/debug/photogrid" }
    static let gallery = root + "/sample-gallery"

    /// A new folder under /tmp, for a test's own disk cache.
    static func scratch(_ name: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("pg-\(name)-\(UUID().uuidString.prefix(8))").path
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// `photogrid --print` with its own disk cache: status, stdout, stderr.
    static func print(_ arguments: [String], cacheHome: String) throws -> Subprocess.Result {
        try Subprocess.run([binary, "--print"] + arguments, environment: ["XDG_CACHE_HOME": cacheHome, "PATH": "/usr/bin:/bin"])
    }

    /// The sixels of `--print --url` of `folder` served by a plain `photogrid serve` (no token,
    /// no TLS), with `frame` options: what a gallery behind a token or TLS must show too.
    static func openlyServedSixels(_ folder: String, frame: [String]) throws -> [[UInt8]] {
        let open = try GalleryServer(GalleryServer.Configuration(folder: folder, port: 0))
        try open.start()
        defer { open.stop() }
        let home = scratch("open-client")
        defer { try? FileManager.default.removeItem(atPath: home) }
        return TerminalOutput.sixels(try print(frame + ["--url", open.url], cacheHome: home).output)
    }
}
