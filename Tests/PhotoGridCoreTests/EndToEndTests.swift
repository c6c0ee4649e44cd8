import Foundation
import Testing
@testable import PhotoGridCore
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The built binary, run for real: in tmux for the interactive grid, and with --print.
@Suite(.startsPrograms, .serialized) struct EndToEndTests: PhotogridInTmux {
    func galleryCount() throws -> Int { try FolderScanner().scan(RawPath(Paths.gallery)).count }


    @Test func gridChangesColumnsWithPlusAndMinusAndQuitsCleanly() throws {
        let count = try galleryCount()
        let before = try Subprocess.run(["find", Paths.gallery, "-printf", "%p %s %T@\\n"]).output
        let tmux = try Tmux(columns: 100, rows: 30, command: "\(Paths.binary) \(Paths.gallery)")
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of \(count)") }
        #expect(ok, "status line never showed: \(screen)")
        // Every photo does not fit at any column count, so it starts at 4.
        #expect(status(screen).contains("4 columns"))
        #expect(status(screen).contains("half-block"))
        // The grid fills in with pictures: nothing left loading, half-block cells on the screen.
        (ok, screen) = try tmux.waitFor { !self.status($0).contains("loading") && $0.contains("▀") }
        #expect(ok, "tiles did not load: \(status(screen))")

        try tmux.send("-")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("5 columns") }
        #expect(ok, "- did not zoom out: \(status(screen))")
        try tmux.send("-")
        (ok, _) = try tmux.waitFor { self.status($0).contains("6 columns") }
        #expect(ok)
        // One more - goes out to the days (CullingTests).
        try tmux.send("+")
        (ok, _) = try tmux.waitFor { self.status($0).contains("5 columns") }
        #expect(ok)
        try tmux.send("=", "+", "+", "+")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 column ") }
        #expect(ok, "+ goes down to 1 column: \(status(screen))")
        // One more + opens the photo, as spreading the fingers does; q comes back.
        try tmux.send("+")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("fit") }
        #expect(ok, "+ at 1 column did not open the photo: \(status(screen))")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 column ") }
        #expect(ok)
        try tmux.send("3")
        (ok, _) = try tmux.waitFor { self.status($0).contains("3 columns") }
        #expect(ok, "digits jump to a column count")

        // Focus: right, down, end, home.
        try tmux.send("l")
        (ok, _) = try tmux.waitFor { self.status($0).contains("2 of \(count)") }
        #expect(ok)
        try tmux.send("j")
        (ok, _) = try tmux.waitFor { self.status($0).contains("5 of \(count)") }
        #expect(ok, "j moves down a row of 3")
        try tmux.send("G")
        (ok, _) = try tmux.waitFor { self.status($0).contains("\(count) of \(count)") }
        #expect(ok)
        try tmux.send("g")
        (ok, _) = try tmux.waitFor { self.status($0).contains("1 of \(count)") }
        #expect(ok)

        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "q did not quit: \(screen)")
        #expect(try tmux.value("#{alternate_on}") == "0")
        #expect(try tmux.value("#{cursor_flag}") == "1")
        // The shell's screen is back: nothing of the grid is left on it.
        #expect(!screen.contains("▀") && !screen.contains("columns"))
        // Nothing was written beside the photos.
        #expect(try Subprocess.run(["find", Paths.gallery, "-printf", "%p %s %T@\\n"]).output == before)
    }

    /// Ctrl-C, SIGTERM, SIGHUP end photogrid cleanly; the fatal ones kill it, but its handler
    /// gives the terminal back first: sent from outside (kill), and for real from inside, made
    /// by a debugger: a jump to address 16 (a fault, as a bad pointer gives) and a call of
    /// abort() in the process itself (as a failed precondition ends in).
    /// Afterwards the terminal is as the shell left it: the normal screen, the cursor shown,
    /// echo and line editing on.
    @Test(arguments: [("C-c", 130), ("TERM", 143), ("HUP", 129), ("SEGV", 139), ("ABRT", 134), ("ILL", 132),
                      ("crash:segv", 139), ("crash:abort", 134)])
    func signalsGiveTheTerminalBack(signal: String, status: Int) throws {
        // The Swift runtime's backtracer would otherwise wait 30 s at a prompt on a terminal.
        // Under a sanitizer the backtracer, reading the dead process's memory, trips it.
        let environment = ["SWIFT_BACKTRACE": Paths.sanitizer == nil ? "interactive=no,symbolicate=off" : "enable=no"]
        let tmux = try Tmux(columns: 80, rows: 24, command: "\(Paths.binary) \(Paths.gallery)", environment: environment)
        let tty = try tmux.value("#{pane_tty}")
        var (ok, screen) = try tmux.waitFor { $0.contains(" of ") }
        #expect(ok)
        // The pane's shell runs photogrid as its child.
        let children = try Tmux.command(["pgrep", "-P", "\(try tmux.pid())", "-f", "photogrid"])
        let pid = try #require(Int32(children.split(separator: "\n").first ?? ""))
        switch signal {
        case "C-c": try tmux.send("C-c")
        case "crash:segv": _ = try Subprocess.run(["gdb", "-p", "\(pid)", "-batch", "-ex", "set $pc = 16"])
        case "crash:abort": _ = try Subprocess.run(["gdb", "-p", "\(pid)", "-batch", "-ex", "call (void)abort()"])
        default: _ = try Tmux.command(["kill", "-\(signal)", "\(pid)"])
        }
        (ok, screen) = try tmux.waitFor { $0.contains("[exit \(status)]") }
        #expect(ok, "after \(signal): \(screen)")
        #expect(try tmux.value("#{alternate_on}") == "0")
        #expect(try tmux.value("#{cursor_flag}") == "1")
        #expect(!screen.contains("▀"))
        let modes = Set(try Tmux.command(["stty", "-a", "-F", tty]).split { $0 == " " || $0 == "\n" || $0 == ";" }.map(String.init))
        for mode in ["echo", "icanon", "icrnl", "isig", "opost"] { #expect(modes.contains(mode), "after \(signal): \(mode) is off") }
    }

    /// The window resized 150 times as fast as tmux can, down to one row and one column and
    /// back, with keys in between: photogrid keeps up, quits cleanly, and ends with every tile of
    /// the last size drawn whole and in its place (compared with `--print` of the same screen).
    @Test func aStormOfResizesDownToOneCell() throws {
        let environment = ["COLORTERM": "truecolor"]
        // A small memory budget and no disk cache: tiles keep being made and drawn while the
        // window changes, as they are in a large folder.
        let tmux = try Tmux(columns: 120, rows: 40,
                            command: "\(Paths.binary) --mode halfblock --columns 4 --cache-mb 16 --no-disk-cache \(Paths.gallery)",
                            environment: environment)
        var (ok, screen) = try tmux.waitFor { $0.contains(" of ") }
        #expect(ok)
        let sizes = [(1, 1), (1, 40), (120, 1), (2, 2), (40, 12), (200, 60), (80, 24), (3, 3), (11, 2), (150, 5)]
        var random = SystemRandomNumberGenerator()
        for step in 0..<150 {
            let (columns, rows) = sizes[Int.random(in: 0..<sizes.count, using: &random)]
            try tmux.run(["resize-window", "-t", "t", "-x", "\(columns)", "-y", "\(rows)"])
            try tmux.send(["6", "j", "+", "Enter", "Escape", "l", "G", "g", "-", "k"][step % 10])
        }
        try tmux.run(["resize-window", "-t", "t", "-x", "40", "-y", "12"])
        try tmux.run(["resize-window", "-t", "t", "-x", "100", "-y", "30"])
        // Esc alone, then the rest once the pane is quiet: an Esc followed within 25 ms by a key
        // is read as Alt and that key (ncurses' ESCDELAY), and the `g` would be lost.
        try tmux.send("Escape")
        tmux.waitForQuiet(0.1, limit: 10)
        try tmux.send("g", "4")
        (ok, screen) = try tmux.waitFor { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 30 && lines[29].contains(" 1 of ") && lines[29].contains("4 columns") && !lines[29].contains("loading")
        }
        #expect(ok, "the status line is not on row 30 after the storm: \(screen)")
        tmux.waitForQuiet(0.4)                               // past the repaint after the last resize
        let live = ScreenPixels(text: try tmux.screen(escapes: true), columns: 100, rows: 30)
        // A - at the most columns the window allowed went out to the days, which puts the
        // photos in the date order: the sheet to compare with is printed in the same order.
        let order = status(screen).contains("by date") ? ["--sort", "date"] : []
        let printed = try Subprocess.run([Paths.binary, "--print", "--mode", "halfblock", "--size", "100x30", "--columns", "4"] + order
                                         + [Paths.gallery], environment: environment.merging(["XDG_CACHE_HOME": tmux.cacheHome]) { $1 })
        let reference = ScreenPixels(text: String(decoding: printed.output, as: UTF8.self), columns: 100, rows: 30)
        let layout = GridLayout(screen: ScreenMetrics(columns: 100, rows: 30), columns: 4)
        // Whole rows: the printed sheet has no cut row.
        let tiles = layout.visibleIndexes(topRow: 0, photos: 50).compactMap { layout.placement(of: $0, topRow: 0) }
            .filter { $0.visibleRows == layout.tileRows }
            // Inside each tile's edge cells: the focus frame may take those of the focused tile,
            // and the printed sheet has none.
            .map { ScreenPixels.Rect(column: $0.frame.column + 1, row: $0.row + 1, width: $0.frame.width - 2, height: $0.visibleRows - 2) }
        #expect(tiles.count >= 8)
        #expect(live.wrongTiles(against: reference, tiles: tiles).isEmpty, "tiles cut or misplaced after the storm: \(live.wrongTiles(against: reference, tiles: tiles))")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
    }

    @Test func keysWorkWhilePhotosAreStillLoading() throws {
        // Keys sent straight after start-up, before the tiles can have decoded.
        let tmux = try Tmux(columns: 120, rows: 40, command: "\(Paths.binary) --columns 6 \(Paths.gallery)")
        try tmux.send("+", "l", "l")
        let count = try galleryCount()
        let (ok, screen) = try tmux.waitFor { self.status($0).contains("3 of \(count)") }
        #expect(ok, "\(screen)")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }

    @Test func resizingRelaysOutTheGrid() throws {
        let count = try galleryCount()
        let tmux = try Tmux(columns: 120, rows: 40, command: "\(Paths.binary) --columns 3 \(Paths.gallery)")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("3 columns") }
        #expect(ok)
        // Focus the 8th photo, then shrink the window: the status line moves to the new last row
        // and the grid is laid out for the new width (3 tiles of (60 - 2) / 3 cells).
        try tmux.send("j", "j", "l")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("8 of \(count)") }
        #expect(ok, "\(screen)")
        try tmux.run(["resize-window", "-t", "t", "-x", "60", "-y", "20"])
        (ok, screen) = try tmux.waitFor { screen in
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
            return lines.count >= 20 && lines[19].contains("8 of")
        }
        #expect(ok, "status line not on row 20 after resize: \(screen)")
        let layout = GridLayout(screen: ScreenMetrics(columns: 60, rows: 20), columns: 3)
        (ok, screen) = try tmux.waitFor { screen in
            // The focused tile is on screen: its frame's row and columns hold half-blocks.
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(Array.init)
            var position = GridPosition()
            position.focus(7, photos: count, layout: layout)
            guard let place = layout.placement(of: 7, topRow: position.topRow), place.row < lines.count else { return false }
            // A middle row: the focus frame may take the tile's edge cells at the screen's edges.
            let line = lines[place.row + place.visibleRows / 2]
            let start = place.frame.column, end = place.frame.column + place.frame.width
            return line.count >= end && line[start..<end].contains("▀")
        }
        #expect(ok, "the focused tile is not where the new layout puts it: \(screen)")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }

    @Test func zoomViewOpensZoomsPansStepsAndReturns() throws {
        let count = try galleryCount()
        let tmux = try Tmux(columns: 100, rows: 30, command: "\(Paths.binary) --columns 4 \(Paths.gallery)")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of \(count)") && !self.status($0).contains("loading") }
        #expect(ok)
        try tmux.send("l", "Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 of \(count)") && self.status($0).contains("fit")
                                          && !self.status($0).contains("loading") }
        #expect(ok, "Enter did not open the zoom view: \(status(screen))")
        // The photo fills the view from the top row down to the status line: coloured cells on each,
        // in 24-bit colour (inside tmux, which maps it down itself where its client lacks it).
        (ok, _) = try tmux.waitFor(escapes: true) { screen in
            screen.split(separator: "\n", omittingEmptySubsequences: false).prefix(29).filter { $0.contains("48;2;") }.count >= 28
        }
        #expect(ok, "the photo does not fill the view")
        try tmux.send("+")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("zoom 1.5x") && !self.status($0).contains("loading") }
        #expect(ok, "+ did not zoom in: \(status(screen))")
        let zoomed = screen
        try tmux.send("l", "j", "j")                             // pan (across if it is wider than the view, and down)
        (ok, screen) = try tmux.waitFor { $0 != zoomed && !self.status($0).contains("loading") }
        #expect(ok && self.status(screen).contains("zoom 1.5x"))
        try tmux.send("0", "n")                                  // back to fit, then the next photo
        (ok, screen) = try tmux.waitFor { self.status($0).contains("3 of \(count)") && self.status($0).contains("fit") }
        #expect(ok, "n did not step: \(status(screen))")
        try tmux.send("Right")
        (ok, _) = try tmux.waitFor { self.status($0).contains("4 of \(count)") }
        #expect(ok, "Right at fit steps to the next photo")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("4 of \(count)") && self.status($0).contains("4 columns") }
        #expect(ok, "q did not return to the grid with the photo focused: \(status(screen))")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }

    @Test func notATerminalIsAClearErrorWithStatus2() throws {
        let (status, _, error) = try Paths.photogrid([Paths.gallery])
        #expect(status == 2)
        #expect(error.contains("not a terminal"))
        let (missing, _, message) = try Paths.photogrid(["--print", "/nonexistent/folder"])
        // A folder that is not there is the command line's fault: status 2 (README, "Exit status").
        #expect(missing == 2 && message.contains("no such file or folder"))
        // Without a terminal too, what is wrong with the folder is said first.
        let (missingNoTerminal, _, first) = try Paths.photogrid(["/nonexistent/folder"])
        #expect(missingNoTerminal == 2 && first.contains("no such file or folder"))
        let (badColumns, _, usage) = try Paths.photogrid(["--columns", "9", Paths.gallery])
        #expect(badColumns == 2 && usage.contains("between 1 and 6"))
    }
}
