import Foundation
import Testing
@testable import PhotoGridCanvas
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// kitty pictures through tmux, end to end: the built binary in a real tmux with
/// `allow-passthrough` on, what it writes to the pane kept with `pipe-pane` (the pictures, which
/// tmux passes on and does not keep) and the pane's text read back (the placeholders, which it
/// keeps), with a pty attached as the terminal. No kitty is attached here: whether the pictures
/// show is checked by hand, in a kitty window (docs/benchmarks.md, issue 12).
@Suite(.startsPrograms, .serialized) struct KittyTmuxTests: PhotogridInTmux {
    func placeholders(_ screen: String) -> Int { screen.unicodeScalars.filter { $0.value == 0x10EEEE }.count }

    /// How many pictures have been sent so far, once photogrid has written nothing to the pane
    /// for `quiet` seconds.
    func settledSends(_ tmux: Tmux, quiet: Double = 0.5) -> Int {
        tmux.waitForQuiet(quiet, limit: 15)
        let text = (try? String(contentsOfFile: tmux.paneLog!, encoding: .isoLatin1)) ?? ""
        return text.components(separatedBy: "_Ga=T,U=1,i=").count - 1
    }

    @Test func theGridIsPlaceholderTextAndEachPictureIsSentOnce() throws {
        // What photogrid writes to the pane is in `tmux.paneLog`.
        let command = "tmux set -g allow-passthrough on; \(Paths.binary) --mode kitty \(Paths.gallery)"
        let tmux = try Tmux(columns: 100, rows: 30, command: command)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("kitty") && !self.status($0).contains("loading") }
        #expect(ok, "photogrid did not start: \(screen)")
        // No terminal shows the session yet: tmux would drop the pictures, so none are sent,
        // and the tiles wait without text (a second without a write: nothing more is coming).
        #expect(settledSends(tmux, quiet: 1) == 0)
        #expect(placeholders(try tmux.screen()) == 0)

        // A terminal attaches (a pty that reads everything tmux sends it): the pictures follow.
        let client = try PtyTerminal(["tmux", "-L", tmux.socket, "-f", "/dev/null", "attach", "-t", tmux.session],
                                     columns: 100, rows: 31, kind: .text,
                                     environment: ["TERM": "xterm-256color", "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"],
                                     capture: true)
        defer { client.stop() }
        (ok, screen) = try tmux.waitFor { self.placeholders($0) > 1000 && !self.status($0).contains("loading") }
        #expect(ok, "no placeholders once attached: \(status(screen))")
        // The top-left tile's first row (under the focus frame's top side, the screen's first
        // row holds the next tile's): each cell from the first placeholder on names picture row
        // 0 and its own column.
        let first = Array((screen.split(separator: "\n").first.map(String.init) ?? "").unicodeScalars)
        let start = first.firstIndex { $0.value == 0x10EEEE } ?? first.endIndex
        let cells = first[start...].split { $0.value == 0x10EEEE }.prefix(10)
        #expect(cells.count == 10)
        let marks = KittyPlaceholders.diacritics
        for (column, cell) in cells.enumerated() {
            let named = cell.prefix(2).compactMap { marks.firstIndex(of: $0.value) }
            #expect(named == [0, column], "cell \(column) names \(named)")
        }
        let firstScreen = settledSends(tmux)
        #expect(firstScreen > 0)
        // What reached the terminal: each picture, out of tmux's passthrough, whole (tmux passes
        // them on as the pty reads them, after photogrid has written them).
        func pictures(_ bytes: [UInt8]) -> Int { String(decoding: bytes, as: UTF8.self).components(separatedBy: "\u{1B}_Ga=T,U=1,i=").count - 1 }
        _ = client.waitForCaptured(seconds: 30) { pictures($0) >= firstScreen }
        #expect(pictures(client.takeCaptured()) == firstScreen)

        // A page down sends the new rows' pictures; back up sends none again.
        try tmux.send("C-f")
        (ok, screen) = try tmux.waitFor { !self.status($0).hasPrefix(" sample-gallery  ·  1 of") && !self.status($0).contains("loading") }
        let afterDown = settledSends(tmux)
        #expect(afterDown > firstScreen, "page down sent nothing: \(status(screen))")
        try tmux.send("C-b")
        (ok, screen) = try tmux.waitFor { self.placeholders($0) > 1000 && !self.status($0).contains("loading") }
        #expect(settledSends(tmux) == afterDown, "paging back sent pictures again")

        // Leaving frees this run's pictures one by one, never every picture of the terminal.
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "did not quit: \(screen)")
        #expect(placeholders(screen) == 0)
        let text = (try? String(contentsOfFile: tmux.paneLog!, encoding: .isoLatin1)) ?? ""
        #expect(text.contains("_Ga=d,d=I,i=") && !text.contains("d=A"))
    }
}
