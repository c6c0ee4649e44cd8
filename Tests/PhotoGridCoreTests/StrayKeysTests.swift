import Glibc
import Testing
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Keys that arrive as escape sequences photogrid does not bind, sent into a tmux pane as a
/// terminal would: none may act as the keys its bytes spell (Alt+x rejected a photo and wrote
/// its sidecar when ncurses passed it on as Esc then `x`).
@Suite(.startsPrograms, .serialized) struct StrayKeysTests: PhotogridInTmux {
    func files(_ folder: String) -> [String] {
        (DirectoryEntry.names(in: RawPath(folder)) ?? []).map { String(decoding: $0, as: UTF8.self) }.sorted()
    }

    @Test func sequencesItDoesNotBindChangeNothingAndWriteNothing() throws {
        let folder = TestImages.scratchFolder("stray-keys")
        defer { TestImages.remove(folder) }
        for name in ["a", "b", "c", "d", "e", "f"] {
            TestImages.write(try MetadataFixtures.jpeg(exif: ExifFields(dateTimeOriginal: "2022:03:14 09:00:00")), to: folder + "/\(name).jpg")
        }
        let before = files(folder)
        let tmux = try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) --mode halfblock --no-mouse --no-stacks --columns 3 \(folder)",
                            environment: ["COLORTERM": "truecolor", "XDG_DATA_HOME": folder + "/.data"])
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 6") }
        #expect(ok, "\(screen)")
        let start = status(screen)
        // Alt+x (reject), Alt+j (down), Alt+d (trash), CSI-u Ctrl+a (was `5` then `u`),
        // modifyOtherKeys Ctrl+Tab and Shift+Enter (were `5`, `9`; `2`, `1`, `3`), an SGR mouse
        // press with the mouse not asked for (was `M`: mark all), an X10 one (a space: page down).
        let stray = ["\u{1B}x", "\u{1B}j", "\u{1B}d", "\u{1B}[97;5u", "\u{1B}[27;5;9~", "\u{1B}[27;2;13~",
                     "\u{1B}[<0;45;5M\u{1B}[<0;45;5m", "\u{1B}[M !!", "\u{1B}[1;5D", "\u{1B}OP", "\u{1B}[3~"]
        for sequence in stray { try tmux.run(["send-keys", "-t", tmux.session, "-l", sequence]) }
        // Keys are read in order: once the details a key after them open, they have all been read.
        try tmux.send("i")
        (ok, screen) = try tmux.waitFor { $0.contains("Details") }
        #expect(ok, "\(screen)")
        #expect(status(screen).contains("1 of 6") && status(screen).contains("3 columns"), "stray keys acted: \(status(screen)) (was \(start))")
        #expect(!status(screen).contains("marked") && !status(screen).contains("rejected"), "\(status(screen))")
        #expect(files(folder) == before, "a file was written: \(files(folder))")
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !$0.contains("Details") }
        #expect(ok)
        // A bound key still works in its CSI-u form (`l`), and in modifyOtherKeys' (`l` again).
        try tmux.run(["send-keys", "-t", tmux.session, "-l", "\u{1B}[108u"])
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 of 6") }
        #expect(ok, "CSI 108 u is l: \(status(screen))")
        try tmux.run(["send-keys", "-t", tmux.session, "-l", "\u{1B}[27;1;108~"])
        (ok, screen) = try tmux.waitFor { self.status($0).contains("3 of 6") }
        #expect(ok, "CSI 27;1;108 ~ is l: \(status(screen))")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
        #expect(files(folder) == before)
    }
}
