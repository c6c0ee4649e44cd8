import Foundation
import Glibc
import Testing
import PhotoGridSamples
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// File names, captions and camera strings written to take over a terminal: an OSC that sets
/// the window title, a DCS, a C1 CSI, a right-to-left override, a screen-clearing camera make,
/// a 250-byte name. In a real terminal (tmux) none of them acts: the title stays, the screen
/// stays, and each shows as inert text.
@Suite(.startsPrograms, .serialized) struct HostileTextTests {
    static let names: [String] = [
        "\u{1B}]0;pwned\u{07}.jpg",
        "\u{1B}P1$tpwn\u{1B}\\.jpg",
        "\u{9B}31mred.jpg",
        "\u{202E}gpj.exe.jpg",
        String(repeating: "long-name-", count: 24) + ".jpg",
    ]

    func makeFolder() throws -> String {
        let root = TestImages.scratchFolder("hostile")
        let plain = try MetadataFixtures.jpeg()
        for name in Self.names { TestImages.write(plain, to: root + "/" + name) }
        let exif = ExifFields(imageDescription: "Harbour\u{1B}]0;pwned\u{07} at dusk\u{1B}[2J\u{1B}[H",
                              make: "Evil\u{1B}[2J", model: "Cam\u{1B}P0;1q\u{1B}\\", latitude: 1, longitude: 2)
        TestImages.write(try MetadataFixtures.jpeg(exif: exif, xmp: "\u{1B}]8;;http://evil\u{1B}\\click"), to: root + "/zz-caption.jpg")
        return root
    }

    @Test func namesAndCaptionsNeverReachTheTerminalAsSequences() throws {
        let root = try makeFolder()
        defer { TestImages.remove(root) }
        let tmux = try Tmux(columns: 120, rows: 40, command: "\(Paths.binary) --mode halfblock --columns 3 '\(root)'")
        let title = try tmux.value("#{pane_title}")
        var (ok, screen) = try tmux.waitFor { $0.contains("of 6") }
        #expect(ok, "\(screen)")
        // Walk the focus over every photo (each name in turn on the status line), then back to
        // the fourth in byte order, zz-caption.jpg, whose EXIF and XMP carry sequences: its
        // details, and its zoom view.
        for _ in 0..<5 { try tmux.send("l") }
        try tmux.send("h", "h", "i")
        (ok, screen) = try tmux.waitFor { $0.contains("Harbour") && $0.contains("Evil") }
        #expect(ok, "the details panel did not show the caption and camera: \(screen)")
        #expect(screen.contains("^[]0;pwned^G"), "the OSC is not shown inert: \(screen)")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { $0.contains("fit") }
        #expect(ok)
        // Esc closes the details panel, then the photo view.
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !$0.contains("Harbour") }
        // Esc alone, its effect waited for: an Esc followed within 25 ms by a key is Alt and that key.
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { $0.contains("columns") }
        try tmux.send("g")
        (ok, screen) = try tmux.waitFor { $0.contains("1 of 6") }
        #expect(ok)
        #expect(try tmux.value("#{pane_title}") == title, "a name or caption set the window title")
        // Nothing cleared the screen from under the grid: the status line is still at the bottom.
        #expect(screen.split(separator: "\n").last?.contains("of 6") == true)
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
    }

    /// `--print` of the folder: no byte sequence from a name or caption is in the output.
    @Test func printedFramesCarryNoSequenceFromTheFiles() throws {
        let root = try makeFolder()
        defer { TestImages.remove(root) }
        for mode in ["halfblock", "sixel"] {
            let (status, output, error) = try Paths.photogrid(["--print", "--mode", mode, "--columns", "2", "--size", "120x60", root])
            #expect(status == 0, "\(error)")
            let text = String(decoding: output, as: UTF8.self)
            for sequence in ["\u{1B}]0;pwned", "\u{1B}P1$t", "\u{9B}31m", "\u{202E}", "\u{1B}[2J", "\u{1B}]8;;http://evil"] {
                #expect(!text.contains(sequence), "\(mode): \(sequence.debugDescription) reached the output")
            }
        }
    }
}
