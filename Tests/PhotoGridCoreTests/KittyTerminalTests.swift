import Glibc
import Testing
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The built binary in a pseudo-terminal that answers like kitty, counting what it is sent.
@Suite(.startsPrograms, .serialized) struct KittyTerminalTests {
    func count(_ bytes: [UInt8], _ prefix: String) -> Int {
        TerminalOutput.kittyCommands(bytes).filter { $0.keys.hasPrefix(prefix) }.count
    }

    /// Types `keys` and waits for what they cause to be written: first anything, then quiet.
    func press(_ terminal: PtyTerminal, _ keys: String) -> Bool {
        let before = terminal.bytesWritten
        terminal.send(keys)
        return terminal.waitForBytes(beyond: before, seconds: 20) && terminal.waitForQuiet(1.0, limit: 60)
    }

    @Test func pagingDownAndBackSendsNoPictureAgain() throws {
        let home = TestImages.scratchFolder("kitty")
        defer { _ = try? Subprocess.run(["rm", "-rf", home]) }
        let terminal = try PtyTerminal([Paths.binary, Paths.gallery], columns: 120, rows: 40, kind: .kitty,
                                       environment: ["TERM": "xterm-256color", "HOME": home, "XDG_CACHE_HOME": home, "PATH": "/usr/bin:/bin"],
                                       capture: true)
        defer { terminal.stop() }
        #expect(terminal.waitForQuiet(1.5, limit: 60), "the first screen never settled")
        let first = terminal.takeCaptured()
        // The probe found kitty: pictures sent (a=t) and placed (a=p), no sixel, no half-blocks.
        let sent = count(first, "a=t,")
        #expect(sent > 0 && count(first, "a=p,") > 0)
        #expect(!first.contains(0x90) && !String(decoding: first, as: UTF8.self).contains("▀"))
        #expect(String(decoding: first, as: UTF8.self).contains("kitty"))

        #expect(press(terminal, "\u{1B}[6~"))                   // page down: new photos are sent
        let down = terminal.takeCaptured()
        #expect(count(down, "a=t,") > 0)
        #expect(press(terminal, "\u{1B}[5~"))                   // and back up: placed, not sent
        let up = terminal.takeCaptured()
        #expect(count(up, "a=t,") == 0, "paging back sent \(count(up, "a=t,")) pictures again")
        #expect(count(up, "a=p,") > 0)
        #expect(up.count < 50_000, "paging back wrote \(up.count) bytes")

        // A column count seen before places what the terminal holds.
        #expect(press(terminal, "+"))
        _ = terminal.takeCaptured()
        #expect(press(terminal, "-"))
        #expect(count(terminal.takeCaptured(), "a=t,") == 0)

        // Quitting frees every picture in the terminal.
        terminal.stop()
        #expect(count(terminal.takeCaptured(), "a=d,d=A") >= 1)
    }

    /// A terminal that answers the kitty graphics query and then ignores the picture sent after
    /// it: photogrid takes the next mode down (sixel here) from the start.
    @Test func aTerminalThatIgnoresPicturesGetsTheNextModeDown() throws {
        let home = TestImages.scratchFolder("kitty-claims")
        defer { _ = try? Subprocess.run(["rm", "-rf", home]) }
        let terminal = try PtyTerminal([Paths.binary, Paths.gallery], columns: 120, rows: 40, kind: .kittyClaimingSixel,
                                       environment: ["TERM": "xterm-256color", "HOME": home, "XDG_CACHE_HOME": home, "PATH": "/usr/bin:/bin"],
                                       capture: true)
        defer { terminal.stop() }
        #expect(terminal.waitForQuiet(1.5, limit: 60), "the first screen never settled")
        let first = terminal.takeCaptured()
        let text = String(decoding: first, as: UTF8.self)
        #expect(count(first, "a=t,") == 0 && count(first, "a=p,") == 0, "kitty pictures sent to a terminal that ignores them")
        #expect(text.contains("\u{1B}P") && text.contains("sixel"), "no sixel on screen")
    }
}
