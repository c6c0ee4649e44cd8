import Foundation
import Glibc
import Testing
@testable import PhotoGridCore
@testable import PhotoGridGallery
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Acting on photos from the grid, in tmux: marks and `-o`/`-0` for the shell, `o` for another
/// program, `y` for the clipboard. The photos' bytes never change.
@Suite(.startsPrograms, .serialized) struct ActingTests: PhotogridInTmux {
    @Test func marksGoToStdoutWithDashOWhileTheGridIsDrawnOnTheTerminal() throws {
        let root = try BrowsingTests.makeTree()
        defer { TestImages.remove(root) }
        let before = try Subprocess.run(["sh", "-c", "cd '\(root)' && find . -type f -exec md5sum {} + | sort"]).output
        let out = root + "-paths.txt"
        defer { unlink(out) }
        // stdout is a file: the grid must go to the terminal, the paths to the file.
        var tmux = try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) -o --mode halfblock --columns 3 '\(root)' > '\(out)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok, "the grid is not on the terminal: \(screen)")
        try tmux.send("m", "l", "l", "m")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 marked") }
        #expect(ok, "\(status(screen))")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
        let lines = String(decoding: try FileReader.read(RawPath(out)), as: UTF8.self).split(separator: "\n").map(String.init)
        #expect(lines == [root + "/a-lake.jpg", root + "/img_3.jpg"], "\(lines)")

        // -0 with every photo marked: seven paths, each ended by a NUL, in the grid's order.
        tmux = try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) -0 --mode halfblock '\(root)' > '\(out)'")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        try tmux.send("M")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("7 marked") }
        #expect(ok, "\(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        let bytes = try FileReader.read(RawPath(out))
        #expect(bytes.filter { $0 == 0 }.count == 7 && bytes.last == 0)
        #expect(String(decoding: bytes.split(separator: 0).last ?? [], as: UTF8.self) == root + "/Web/z.jpg")

        // Nothing marked: the focused photo. Quit by a signal: no paths at all.
        tmux = try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) -o --mode halfblock '\(root)' > '\(out)'")
        (ok, _) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        try tmux.send("G", "q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        let focused = try FileReader.read(RawPath(out))
        #expect(String(decoding: focused, as: UTF8.self) == root + "/Web/z.jpg\n")
        tmux = try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) -o --mode halfblock '\(root)' > '\(out)'")
        (ok, _) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        try tmux.send("m", "C-c")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 130]") }
        let afterSignal = try FileReader.read(RawPath(out))
        #expect(ok && afterSignal.isEmpty)
        let after = try Subprocess.run(["sh", "-c", "cd '\(root)' && find . -type f -exec md5sum {} + | sort"]).output
        #expect(after == before, "a photo changed")
    }

    @Test func oOpensElsewhereAndYCopiesThePath() throws {
        let root = try BrowsingTests.makeTree()
        defer { TestImages.remove(root) }
        let log = root + "-opened.txt"
        defer { unlink(log) }
        // An opener that writes its arguments down; given with an argument of its own.
        let opener = root + "-opener.sh"
        defer { unlink(opener) }
        try TestImages.writeScript(opener, "#!/bin/sh\nfor a; do echo \"$a\"; done > '\(log)'\n")
        let tmux = try Tmux(columns: 120, rows: 30,
                            command: "PHOTOGRID_OPENER='\(opener) --new-window' \(Paths.binary) --mode halfblock --columns 3 '\(root)'")
        try tmux.run(["set-option", "-g", "set-clipboard", "on"])
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok)
        try tmux.send("l", "m", "l", "m", "o")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("opened 2 photos") }
        #expect(ok, "\(status(screen))")
        let logged = FileWatch.wait(for: log) { $0.hasSuffix("\n") && $0.split(separator: "\n").count == 3 } ?? ""
        #expect(logged == "--new-window\n\(root)/IMG_2.jpg\n\(root)/img_3.jpg\n", "\(logged)")
        try tmux.send("y")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("copied the path") }
        #expect(ok, "\(status(screen))")
        let buffer = try tmux.run(["show-buffer"])
        #expect(buffer == root + "/img_3.jpg")
        // tmux's default: a program's OSC 52 is dropped, so the path goes in as tmux's buffer.
        try tmux.run(["set-option", "-s", "set-clipboard", "external"])
        try tmux.send("h", "y")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("copied the path of IMG_2.jpg (tmux's buffer too)") }
        #expect(ok, "\(status(screen))")
        #expect(try tmux.run(["show-buffer"]) == root + "/IMG_2.jpg")
        // Turned off: nothing can be copied, and it says so rather than "copied".
        try tmux.run(["set-option", "-s", "set-clipboard", "off"])
        try tmux.send("y")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("not copied: tmux's set-clipboard is off") }
        #expect(ok, "\(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }

    /// An opener that never exits costs nothing: the keys go on working at once, and quitting
    /// does not wait for it. One that is not there is named on the status line.
    @Test func anOpenerThatHangsOrIsMissingLeavesTheGridUsable() throws {
        let root = try BrowsingTests.makeTree()
        defer { TestImages.remove(root) }
        let started = root + "-hung.txt"
        let opener = root + "-hangs.sh"
        defer { unlink(started); unlink(opener) }
        try TestImages.writeScript(opener, "#!/bin/sh\necho $$ > '\(started)'\nexec sleep 300\n")
        let tmux = try Tmux(columns: 120, rows: 30,
                            command: "PHOTOGRID_OPENER='\(opener)' \(Paths.binary) --mode halfblock --columns 3 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok)
        try tmux.send("o")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("opened") }
        #expect(ok, "\(status(screen))")
        let written = FileWatch.wait(for: started) { pid_t($0.trimmingCharacters(in: .whitespacesAndNewlines)) != nil } ?? ""
        let pid = pid_t(written.trimmingCharacters(in: .whitespacesAndNewlines)) ?? 0
        #expect(pid > 0, "the opener did not start")
        defer { if pid > 0 { kill(pid, SIGKILL) } }
        #expect(kill(pid, 0) == 0, "the opener is not running")
        try tmux.send("l", "l")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("3 of 7") }
        #expect(ok, "keys stopped working while the opener runs: \(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "photogrid did not quit while the opener runs")

        let missing = try Tmux(columns: 120, rows: 30,
                               command: "PHOTOGRID_OPENER='no-such-viewer --flag' \(Paths.binary) --mode halfblock --columns 3 '\(root)'")
        (ok, screen) = try missing.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok)
        try missing.send("o")
        (ok, screen) = try missing.waitFor { self.status($0).contains("no-such-viewer not found") }
        #expect(ok, "\(status(screen))")
        try missing.send("l")
        (ok, screen) = try missing.waitFor { self.status($0).contains("2 of 7") }
        #expect(ok)
        try missing.send("q")
        (ok, _) = try missing.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }
}

/// The mouse in tmux: reports written into the pane as a terminal would send them (tmux's
/// terminfo has X10 reports, `kmous=\E[M`, which ncurses decodes).
@Suite(.startsPrograms, .serialized) struct MouseTests: PhotogridInTmux {
    /// A press and a release of the left button at a cell (0-based), X10-encoded.
    static func click(_ column: Int, _ row: Int) -> String {
        func report(_ button: Int) -> String {
            "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + button))) + String(UnicodeScalar(UInt8(33 + column))) + String(UnicodeScalar(UInt8(33 + row)))
        }
        return report(0) + report(3)
    }

    static func wheel(down: Bool, _ column: Int, _ row: Int) -> String {
        "\u{1B}[M" + String(UnicodeScalar(UInt8(32 + (down ? 65 : 64)))) + String(UnicodeScalar(UInt8(33 + column))) + String(UnicodeScalar(UInt8(33 + row)))
    }


    @Test func aClickFocusesADoubleClickOpensAndTheWheelScrolls() throws {
        let count = try FolderScanner().scan(RawPath(Paths.gallery)).count
        let tmux = try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) --mode halfblock --columns 3 \(Paths.gallery)")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of \(count)") }
        #expect(ok)
        let layout = GridLayout(screen: ScreenMetrics(columns: 120, rows: 30), columns: 3)
        let second = layout.frames[1]
        // A click on the second tile focuses it; one in the gap between tiles does nothing.
        try tmux.run(["send-keys", "-t", tmux.session, "-l", Self.click(second.column + 2, 2)])
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 of \(count)") }
        #expect(ok, "a click did not focus the photo: \(status(screen))")
        try tmux.run(["send-keys", "-t", tmux.session, "-l", Self.click(second.column - 1, 2)])
        // Keys are taken in order: once the details a key after it opens are up, the click has been
        // handled, and the focus must not have moved.
        try tmux.send("i")
        (ok, screen) = try tmux.waitFor { $0.contains("Details") }
        #expect(ok && status(screen).contains("2 of \(count)"), "a click in a gap moved the focus: \(status(screen))")
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !$0.contains("Details") }
        // The wheel: a row down, the focus kept on screen in its column.
        try tmux.run(["send-keys", "-t", tmux.session, "-l", Self.wheel(down: true, 10, 2)])
        (ok, screen) = try tmux.waitFor { self.status($0).contains("5 of \(count)") }
        #expect(ok, "the wheel did not scroll a row: \(status(screen))")
        // A double click opens the photo under it; the wheel then steps; a double click goes back.
        try tmux.run(["send-keys", "-t", tmux.session, "-l", Self.click(second.column + 2, 2) + Self.click(second.column + 2, 2)])
        (ok, screen) = try tmux.waitFor { self.status($0).contains("fit") && self.status($0).contains("n/p photo") }
        #expect(ok, "a double click did not open the photo: \(status(screen))")
        let opened = status(screen)
        try tmux.run(["send-keys", "-t", tmux.session, "-l", Self.wheel(down: true, 10, 2)])
        (ok, screen) = try tmux.waitFor { self.status($0).contains("fit") && self.status($0) != opened }
        #expect(ok, "the wheel did not step in the photo view: \(status(screen))")
        try tmux.send("q", "q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
        // Mouse reports are off again: the shell's screen is back.
        #expect(try tmux.value("#{mouse_any_flag}") == "0")
    }

    /// In a terminal wider than X10's reports reach (223 columns), a click far right is read
    /// from SGR's: photogrid asks for them.
    @Test func clicksPastColumn223ComeInSGR() throws {
        let count = try FolderScanner().scan(RawPath(Paths.gallery)).count
        let tmux = try Tmux(columns: 300, rows: 40, command: "\(Paths.binary) --mode halfblock --columns 4 \(Paths.gallery)")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of \(count)") }
        #expect(ok)
        #expect(try tmux.value("#{mouse_sgr_flag}") == "1", "SGR mouse reports were not asked for")
        let layout = GridLayout(screen: ScreenMetrics(columns: 300, rows: 40), columns: 4)
        let last = layout.frames[3]
        #expect(last.column + 2 > 223)
        let cell = "\(last.column + 3);3"
        try tmux.run(["send-keys", "-t", tmux.session, "-l", "\u{1B}[<0;\(cell)M\u{1B}[<0;\(cell)m"])
        (ok, screen) = try tmux.waitFor { self.status($0).contains("4 of \(count)") }
        #expect(ok, "a click at column \(last.column + 3) did not focus the fourth photo: \(status(screen))")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }
}

/// The slideshow in the photo view, in tmux: a photo a second with `--slideshow 1`.
@Suite(.startsPrograms, .serialized) struct SlideshowTests: PhotogridInTmux {
    @Test func sStartsAndStopsTheSlideshowAndItGoesRound() throws {
        let root = try BrowsingTests.makeTree()
        defer { TestImages.remove(root) }
        let tmux = try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) --mode halfblock --slideshow 1 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok)
        try tmux.send("G", "h", "Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("6 of 7") && self.status($0).contains("fit") }
        #expect(ok, "\(status(screen))")
        try tmux.send("s")
        // The last photo, then round to the first, with no key pressed.
        (ok, screen) = try tmux.waitFor(seconds: 10) { self.status($0).contains("7 of 7") }
        #expect(ok, "the slideshow did not go on: \(status(screen))")
        (ok, screen) = try tmux.waitFor(seconds: 10) { self.status($0).contains("1 of 7") }
        #expect(ok, "the slideshow did not go round: \(status(screen))")
        try tmux.send("s")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("slideshow stopped") }
        #expect(ok, "\(status(screen))")
        // That it then stays put is timed: GridControllerTests checks it on a clock it moves.
        try tmux.send("q", "q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }
}

/// Videos: a tile that says so, recognised by content too, and Enter plays it with the terminal
/// handed over and taken back.
@Suite(.startsPrograms, .serialized) struct VideoTests: PhotogridInTmux {
    @Test func enterPlaysAVideoWithTheTerminalAndTheGridComesBack() throws {
        let root = TestImages.scratchFolder("videos")
        defer { TestImages.remove(root) }
        try FileManager.default.copyItem(atPath: Paths.gallery + "/landscapes/lake-01.jpg", toPath: root + "/a.jpg")
        // An MP4's first box, then a gigabyte of nothing: a video, never read whole, not "too large".
        let fd = open(root + "/b-clip.mp4", O_WRONLY | O_CREAT, 0o644)
        let header: [UInt8] = [0, 0, 0, 24] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("mp42isom".utf8)
        _ = header.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
        ftruncate(fd, 1 << 30)
        close(fd)
        let played = root + "-played.txt"
        let player = root + "-player.sh"
        defer { unlink(played); unlink(player) }
        try TestImages.writeScript(player, "#!/bin/sh\necho \"$1\" > '\(played)'\necho PLAYING THE VIDEO\nsleep 2\n")
        let tmux = try Tmux(columns: 120, rows: 30,
                            command: "PHOTOGRID_PLAYER='\(player)' \(Paths.binary) --mode halfblock --columns 2 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 2") && $0.contains("MP4 video") }
        #expect(ok, "the video's tile does not say it is one: \(screen)")
        try tmux.send("l", "Enter")
        (ok, screen) = try tmux.waitFor { $0.contains("PLAYING THE VIDEO") }
        #expect(ok, "the player did not get the terminal: \(screen)")
        #expect(try tmux.value("#{alternate_on}") == "0", "the grid's screen was not given up")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 of 2") && !$0.contains("PLAYING") }
        #expect(ok, "the grid did not come back: \(screen)")
        #expect((try? String(contentsOfFile: played, encoding: .utf8)) == root + "/b-clip.mp4\n")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }

    /// A player that fails gives the grid back with its status on the status line.
    @Test func aPlayerThatFailsGivesTheGridBackAndSaysSo() throws {
        let root = TestImages.scratchFolder("failing-player")
        defer { TestImages.remove(root) }
        try FileManager.default.copyItem(atPath: Paths.gallery + "/landscapes/lake-01.jpg", toPath: root + "/a.jpg")
        let header: [UInt8] = [0, 0, 0, 24] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("mp42isom".utf8)
        FileManager.default.createFile(atPath: root + "/b-clip.mp4", contents: Data(header + [UInt8](repeating: 0, count: 4096)))
        let tmux = try Tmux(columns: 120, rows: 30,
                            command: "PHOTOGRID_PLAYER=false \(Paths.binary) --mode halfblock --columns 2 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 2") }
        #expect(ok)
        try tmux.send("l", "Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("the player stopped with status 1") }
        #expect(ok, "\(status(screen))")
        #expect(try tmux.value("#{alternate_on}") == "1", "the grid's screen was not taken back")
        try tmux.send("h")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 2") }
        #expect(ok, "keys do not work after the player failed: \(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }
}
