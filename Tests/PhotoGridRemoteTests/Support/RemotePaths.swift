import Foundation
import PhotoGridSamples
import PhotoGridTestSupport

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
}
