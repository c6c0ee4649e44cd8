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

    /// Runs `--print` in `terminal`'s kind of kitty until it exits: its status, what it wrote,
    /// the terminal, and the files of its own it left in /dev/shm.
    func printed(_ kind: PtyTerminal.Kind, interrupt: Bool = false) throws -> (status: Int32, out: [UInt8], terminal: PtyTerminal, left: Int) {
        let home = TestImages.scratchFolder("kitty-print")
        defer { _ = try? Subprocess.run(["rm", "-rf", home]) }
        let terminal = try PtyTerminal([Paths.binary, "--print", "--fit", "--columns", "4", Paths.gallery], columns: 120, rows: 40, kind: kind,
                                       environment: ["TERM": "xterm-256color", "HOME": home, "XDG_CACHE_HOME": home, "PATH": "/usr/bin:/bin"],
                                       capture: true)
        if interrupt {
            // Once the sheet is out: the printer then waits for an answer this terminal never gives.
            _ = terminal.waitForCaptured(seconds: 30) { TerminalOutput.kittyCommands($0).contains { $0.keys.hasPrefix("a=T,") } }
            _ = terminal.waitForQuiet(0.3, limit: 10)
            kill(terminal.pid, SIGINT)
        }
        var status: Int32 = 0
        while waitpid(terminal.pid, &status, 0) < 0 && errno == EINTR {}
        _ = terminal.waitForQuiet(0.3, limit: 10)
        let out = terminal.takeCaptured()
        terminal.stop(seconds: 1)
        let prefix = "photogrid-tty-graphics-protocol-\(terminal.pid)-"
        let names = (try? Subprocess.run(["/bin/ls", "/dev/shm"]).output).map { String(decoding: $0, as: UTF8.self).split(separator: "\n").filter { $0.hasPrefix(prefix) } }
        for name in names ?? [] { unlink("/dev/shm/\(name)") }   // not left by a failing test either
        let left = names?.count ?? -1
        return ((status >> 8) & 0xFF, out, terminal, left)
    }

    /// In a kitty on this machine the printed tiles go as files it reads, not through the pty.
    @Test func printHandsALocalKittyItsTilesAsFilesAndLeavesNone() throws {
        let run = try printed(.kittyReadingFiles)
        let pictures = TerminalOutput.kittyCommands(run.out).filter { $0.keys.hasPrefix("a=T,") }
        #expect(run.status == 0, "\(String(decoding: run.out.suffix(300), as: UTF8.self))")
        #expect(pictures.count >= 8 && pictures.allSatisfy { $0.keys.contains("t=t") && $0.keys.contains("f=24") })
        #expect(run.terminal.filesRead == pictures.count, "\(run.terminal.filesRead) of \(pictures.count) files read")
        #expect(run.left == 0)
        #expect(run.out.count < 20_000, "\(run.out.count) bytes through the pty")
    }

    /// A kitty that took the probe's file but never reads the sheet's nor answers after it:
    /// after two seconds photogrid says so, removes them, and exits; or at once on Ctrl-C.
    @Test func printRemovesTheFilesATerminalDidNotRead() throws {
        let run = try printed(.kittyFiles)
        #expect(run.status == 0)
        #expect(String(decoding: run.out, as: UTF8.self).contains("did not answer within 2 s"))
        #expect(TerminalOutput.kittyCommands(run.out).contains { $0.keys.hasPrefix("a=T,") && $0.keys.contains("t=t") })
        #expect(run.terminal.filesRead == 0 && run.left == 0)

        let stopped = try printed(.kittyFiles, interrupt: true)
        #expect(stopped.status == 130)
        #expect(!String(decoding: stopped.out, as: UTF8.self).contains("did not answer"))
        #expect(stopped.left == 0)
    }
}
