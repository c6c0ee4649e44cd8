import Foundation
import Testing
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `L` as a user keys it in tmux: the label in the sidecar as exiftool reads it, and the filter
/// finding just that photo at once.
@Suite(.startsPrograms, .serialized) struct LabelTests: PhotogridInTmux {
    static let exiftool = (try? Subprocess.run(["exiftool", "-ver"]))?.status == 0

    @Test(.enabled(if: LabelTests.exiftool, "exiftool is not installed"))
    func lThenRLabelsRedAndTheFilterFindsIt() throws {
        let folder = TestImages.scratchFolder("label-keys")
        let home = TestImages.scratchFolder("label-keys-cache")
        defer { TestImages.remove(folder); TestImages.remove(home) }
        TestImages.copySamples(into: folder)
        let tmux = try start("'\(folder)'", environment: ["XDG_CACHE_HOME": home])
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 3") }
        #expect(ok, "\(screen)")
        try tmux.send("l", "L")
        (ok, screen) = try tmux.waitFor { $0.contains("r red, y yellow") }
        #expect(ok, "L asks which: \(screen)")
        try tmux.send("r")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("red label, in b.jpg.xmp") }
        #expect(ok, "\(screen)")
        let read = try Subprocess.run(["exiftool", "-s", "-s", "-s", "-XMP-xmp:Label", folder + "/b.jpg.xmp"])
        #expect(String(decoding: read.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "Red",
                "exiftool: \(String(decoding: read.output, as: UTF8.self)) \(read.errorText)")
        try tmux.send("\\")
        try tmux.send("label:red")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 1") && self.status($0).contains("b.jpg") && self.status($0).contains("2 hidden") }
        #expect(ok, "the filter shows just that photo: \(screen)")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
        // A second start finds it by the catalog and the sidecar, without a key.
        let again = try start("--print --filter label:red --labels --size 80x24 '\(folder)'", environment: ["XDG_CACHE_HOME": home])
        (ok, screen) = try again.waitFor { $0.contains("[exit 0]") }
        #expect(ok && screen.contains("b.jpg") && !screen.contains("a.jpg") && !screen.contains("c.jpg"), "\(screen)")
    }
}
