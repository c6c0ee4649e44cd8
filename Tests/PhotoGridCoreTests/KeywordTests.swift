import Foundation
import Testing
@testable import PhotoGridCore
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `t` as a user keys it: keywords typed, completed with Tab, written to the marked photos'
/// sidecars as exiftool reads them, and found by the filter.
@Suite(.startsPrograms, .serialized) struct KeywordTests: PhotogridInTmux {
    static let exiftool = (try? Subprocess.run(["exiftool", "-ver"]))?.status == 0

    @Test func whatIsTypedIsAddedOrTakenOff() {
        let (adding, removing) = KeywordView.parse(" iceland, new york ,-glacier, iceland,, - ")
        #expect(adding == ["iceland", "new york"] && removing == ["glacier"])
        let known = ["Iceland", "ice cave", "glacier", "Greenland"]
        #expect(KeywordView.complete("gla", from: known) == ("glacier, ", 1))
        #expect(KeywordView.complete("new york, ic", from: known) == ("new york, ice", 2), "as far as they agree")
        #expect(KeywordView.complete("-gre", from: known) == ("-Greenland, ", 1))
        #expect(KeywordView.complete("zz", from: known) == ("zz", 0))
    }

    @Test(.enabled(if: KeywordTests.exiftool, "exiftool is not installed"))
    func tAddsAKeywordToTheMarkedPhotosAndTheFilterFindsThem() throws {
        let folder = TestImages.scratchFolder("keyword-keys")
        let home = TestImages.scratchFolder("keyword-keys-cache")
        defer { TestImages.remove(folder); TestImages.remove(home) }
        TestImages.copySamples(into: folder)
        let tmux = try start("'\(folder)'", environment: ["XDG_CACHE_HOME": home])
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 3") }
        #expect(ok, "\(screen)")
        try tmux.send("m", "l", "m")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 marked") }
        #expect(ok, "\(screen)")
        try tmux.send("t")
        (ok, screen) = try tmux.waitFor { $0.contains("keywords for 2 marked photos") }
        #expect(ok, "\(screen)")
        try tmux.send("iceland")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 photos: keywords +iceland") }
        #expect(ok, "\(screen)")
        for name in ["a", "b"] {
            let read = try Subprocess.run(["exiftool", "-s", "-s", "-s", "-XMP-dc:Subject", folder + "/\(name).jpg.xmp"])
            #expect(String(decoding: read.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines) == "iceland",
                    "\(name): \(String(decoding: read.output, as: UTF8.self)) \(read.errorText)")
        }
        #expect(access(folder + "/c.jpg.xmp", F_OK) != 0, "the photo not marked is not touched")
        try tmux.send("\\")
        try tmux.send("keyword:iceland")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains(" of 2") && self.status($0).contains("1 hidden") }
        #expect(ok, "the filter shows those two: \(screen)")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
    }
}
