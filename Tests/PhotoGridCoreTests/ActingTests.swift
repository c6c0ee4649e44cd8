import Foundation
import Glibc
import Testing
@testable import PhotoGridCore
import PhotoGridSamples

/// Acting on photos from the grid, in tmux: marks and `-o`/`-0` for the shell, `o` for another
/// program, `y` for the clipboard. The photos' bytes never change.
@Suite(.serialized) struct ActingTests {
    func status(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).last { $0.contains(" of ") }.map(String.init) ?? ""
    }

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
        FileManager.default.createFile(atPath: opener, contents: Data("#!/bin/sh\nfor a; do echo \"$a\"; done > '\(log)'\n".utf8),
                                       attributes: [.posixPermissions: 0o755])
        let tmux = try Tmux(columns: 120, rows: 30,
                            command: "PHOTOGRID_OPENER='\(opener) --new-window' \(Paths.binary) --mode halfblock --columns 3 '\(root)'")
        try tmux.run(["set-option", "-g", "set-clipboard", "on"])
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok)
        try tmux.send("l", "m", "l", "m", "o")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("opened 2 photos") }
        #expect(ok, "\(status(screen))")
        var logged = ""
        for _ in 0..<50 where logged.isEmpty { usleep(100_000); logged = (try? String(contentsOfFile: log, encoding: .utf8)) ?? "" }
        #expect(logged == "--new-window\n\(root)/IMG_2.jpg\n\(root)/img_3.jpg\n", "\(logged)")
        try tmux.send("y")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("copied the path") }
        #expect(ok, "\(status(screen))")
        let buffer = try tmux.run(["show-buffer"])
        #expect(buffer == root + "/img_3.jpg")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }
}
