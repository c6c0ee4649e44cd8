import Glibc
import Testing
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `--files` and `--files0`: the photos another program chose, in its order, from a file or
/// from stdin, with the keys then read from the terminal.
@Suite(.startsPrograms, .serialized) struct FileListTests: PhotogridInTmux {
    /// Two JPEGs, a PNG and a text file in a scratch folder.
    static func folder(_ name: String) -> String {
        let folder = TestImages.scratchFolder(name)
        TestImages.copySamples([("landscapes/autumn-01.jpg", "a.jpg"), ("landscapes/autumn-02.jpg", "b.jpg"), ("other-formats/screenshot-01.png", "c.png")],
                               into: folder)
        TestImages.write(Array("notes".utf8), to: folder + "/notes.txt")
        return folder
    }

    /// `--print --labels` of a list: the names under the tiles, and what was said on stderr.
    static func printed(_ shell: String) throws -> (status: Int32, labels: String, error: String) {
        let result = try Subprocess.run(["/bin/sh", "-c", shell], environment: ["COLORTERM": "truecolor", "PATH": "/usr/bin:/bin"])
        let text = String(decoding: result.output, as: UTF8.self)
        // The lines of names: those without half blocks.
        let labels = text.split(separator: "\n").filter { !$0.contains("▀") && !$0.contains("▄") }.joined(separator: "\n")
        return (result.status, labels, result.errorText)
    }

    @Test func findsPrintZeroIntoFilesZero() throws {
        let folder = Self.folder("files0")
        defer { TestImages.remove(folder) }
        let (status, labels, error) = try Self.printed(
            "find '\(folder)' -name '*.jpg' -print0 | '\(Paths.binary)' --print --mode halfblock --size 80x24 --columns 4 --labels --files0 -")
        #expect(status == 0, "\(error)")
        #expect(labels.contains("a.jpg") && labels.contains("b.jpg"), "\(labels)")
        #expect(!labels.contains("c.png"), "only what find chose: \(labels)")
    }

    @Test func aListKeepsItsOrderAndSaysWhatItLeftOut() throws {
        let folder = Self.folder("files-lines")
        defer { TestImages.remove(folder) }
        TestImages.write(Array("b.jpg\r\nmissing.jpg\nnotes.txt\n\nc.png\na.jpg\n".utf8), to: folder + "/list.txt")
        let (status, labels, error) = try Self.printed(
            "cd '\(folder)' && '\(Paths.binary)' --print --mode halfblock --size 80x24 --columns 4 --labels --files list.txt")
        #expect(status == 0, "\(error)")
        let b = labels.range(of: "b.jpg"), c = labels.range(of: "c.png"), a = labels.range(of: "a.jpg")
        #expect(b != nil && c != nil && a != nil && b!.lowerBound < c!.lowerBound && c!.lowerBound < a!.lowerBound, "in the list's order: \(labels)")
        #expect(error.contains("the list list.txt: 1 not found, 1 not pictures"), "\(error)")
        // Nothing in it that is a photo: said, and an error.
        TestImages.write(Array("notes.txt\nnothing.jpg\n".utf8), to: folder + "/none.txt")
        let none = try Self.printed("cd '\(folder)' && '\(Paths.binary)' --print --files none.txt")
        #expect(none.status == 1 && none.error.contains("no photos in the list none.txt (1 not found, 1 not pictures)"), "\(none.error)")
        // With a folder argument too: refused.
        let both = try Self.printed("cd '\(folder)' && '\(Paths.binary)' --print --files list.txt .")
        #expect(both.status != 0 && both.error.contains("give no folder besides it"), "\(both.error)")
    }

    @Test func fromStdinTheKeysComeFromTheTerminal() throws {
        let folder = Self.folder("files-tty")
        defer { TestImages.remove(folder) }
        let tmux = try Tmux(columns: 100, rows: 30, command: "sh -c \"printf '%s\\\\n' '\(folder)/b.jpg' '\(folder)/a.jpg' | \(Paths.binary) --mode halfblock --files -\"",
                            environment: ["COLORTERM": "truecolor"])
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 2") && self.status($0).contains("b.jpg") }
        #expect(ok, "\(screen)")
        try tmux.send("l")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 of 2") && self.status($0).contains("a.jpg") }
        #expect(ok, "a key read from the terminal: \(screen)")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
    }
}
