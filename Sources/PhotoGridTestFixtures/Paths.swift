import PhotoGridSamples
import PhotoGridTestSupport
import Foundation

/// Where things are for the end-to-end tests.
package enum Paths {
    package static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().path
    package static var binary: String {
        ProcessInfo.processInfo.environment["PHOTOGRID_BIN"] ?? root + "/.build/debug/photogrid"
    }
    package static let gallery = root + "/sample-gallery"
    /// Set by scripts/sanitize ("address", "thread"): the binary is instrumented, so memory
    /// figures are the sanitizer's, and the Swift runtime's backtracer is kept out of crashes.
    package static let sanitizer = ProcessInfo.processInfo.environment["PHOTOGRID_SANITIZER"]

    /// Runs photogrid outside any terminal, returning status, stdout and stderr.
    package static func photogrid(_ arguments: [String], environment: [String: String]? = nil) throws -> (Int32, [UInt8], String) {
        let result = try Subprocess.run([binary] + arguments, environment: environment)
        return (result.status, result.output, result.errorText)
    }
}
