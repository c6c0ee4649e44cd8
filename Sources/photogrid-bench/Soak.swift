import Glibc
import PhotoGridCore
import PhotoGridSamples
import PhotoGridTestSupport

/// `photogrid-bench soak DIR [MINUTES]`: photogrid driven in tmux with random keys and resizes
/// for MINUTES (default 6) over a folder of 10,000 photos (hard links to DIR's) and over the same
/// folder served by `photogrid serve`, with a small memory budget. It reports the memory peak
/// against the budget, checks that every tile of the final screen shows its photo (against a
/// `--print` of the same screen), and that nothing is left running.
enum Soak {
    static let budgetMB = 64
    static let keys = ["j", "k", "l", "h", "Space", "b", "C-d", "C-u", "G", "g", "+", "-", "1", "2", "3", "4", "5", "6",
                       "Enter", "n", "p", "Escape", "i", "C-r", "PageDown", "PageUp", "Down", "Up", "Left", "Right"]
    static let sizes = [(120, 40), (80, 24), (200, 60), (1, 1), (1, 30), (60, 1), (3, 3), (40, 12), (160, 48)]

    struct Outcome {
        var keys = 0, resizes = 0, startKB = 0, peakKB = 0, halfwayKB = 0, endKB = 0
        /// The memory cache's own peak, as photogrid reports it on exit (PHOTOGRID_STATS).
        var cachePeakBytes: Int?
        var tilesChecked = 0, worstTile = 0.0, wrongTiles: [String] = []
        var leftRunning = false, crashed = false
    }

    package static func run(source: String, photogrid: String, minutes: Double) throws {
        print("# photogrid soak\n")
        for line in Machine.describe() { print("- \(line)") }
        let (folder, originals) = try tenThousand(source)
        defer { _ = system("rm -rf '\(folder)'") }
        print("- 10,000 photos: hard links to the \(originals) photos of \(source); memory budget `--cache-mb \(budgetMB)`; "
              + "random keys every 0-60 ms and a resize every 25 keys or so, down to 1x1\n")
        print(Table.row(["run", "minutes", "keys", "resizes", "RSS: first screen", "halfway", "end", "peak", "cache peak / budget",
                         "tiles checked", "worst tile difference", "left running"]))
        print(Table.rule(12))
        let share = minutes / 3
        var failed = false
        func report(_ name: String, _ outcome: Outcome) {
            let cache = outcome.cachePeakBytes.map { "\($0 >> 20) / \(budgetMB) MB" } ?? "not reported"
            print(Table.row([name, Table.fixed(share, 1), "\(outcome.keys)", "\(outcome.resizes)", "\(outcome.startKB / 1024) MB",
                             "\(outcome.halfwayKB / 1024) MB", "\(outcome.endKB / 1024) MB", "\(outcome.peakKB / 1024) MB", cache,
                             outcome.tilesChecked > 0 ? "\(outcome.tilesChecked)" : "n/a",
                             outcome.tilesChecked > 0 ? Table.fixed(outcome.worstTile, 1) : "n/a", outcome.leftRunning ? "yes" : "no"]))
            failed = failed || outcome.crashed || outcome.leftRunning || !outcome.wrongTiles.isEmpty
                || (outcome.cachePeakBytes ?? Int.max) > budgetMB << 20
            for wrong in outcome.wrongTiles { print("  - wrong tile: \(wrong)") }
        }
        let common = "--cache-mb \(budgetMB) --no-disk-cache"
        report("folder, half-blocks", try soak(command: "\(photogrid) --mode halfblock \(common) \(folder)", minutes: share,
                                               reference: [photogrid, "--print", "--mode", "halfblock", "--no-disk-cache", folder]))
        report("folder, sixel", try soak(command: "\(photogrid) --mode sixel \(common) \(folder)", minutes: share, reference: nil))

        let port = Subprocess.freePort()
        let serverHome = FirstScreen.scratch("soak-server")
        defer { _ = system("rm -rf '\(serverHome)'") }
        let server = try Subprocess.start([photogrid, "serve", folder, "--port", "\(port)", "--delay-ms", "10"],
                                          environment: ["XDG_CACHE_HOME": serverHome, "PATH": "/usr/bin:/bin"])
        guard Subprocess.waitForPort(port, seconds: 60) else { throw BenchError("photogrid serve did not start") }
        let url = "http://127.0.0.1:\(port)/"
        report("photogrid serve, 10 ms a response, half-blocks",
               try soak(command: "\(photogrid) --mode halfblock \(common) --url \(url)", minutes: share,
                        reference: [photogrid, "--print", "--mode", "halfblock", "--no-disk-cache", "--url", url]))
        Subprocess.stop(server)
        let serverGone = !Subprocess.waitForPort(port, seconds: 0.5)
        print("\n- photogrid serve stopped on SIGTERM and freed its port: \(serverGone ? "yes" : "no")")
        if failed || !serverGone { throw BenchError("the soak found problems (above)") }
    }

    /// A scratch folder of 10,000 hard links to the JPEGs at the top of `source`, and how many those are.
    static func tenThousand(_ source: String) throws -> (folder: String, originals: Int) {
        let folder = FirstScreen.scratch("soak")
        let originals = try FolderScanner().scan(RawPath(source)).filter { $0.format == .jpeg && !$0.relativePath.description.contains("/") }
        guard !originals.isEmpty else { throw BenchError("no JPEGs at the top of \(source)") }
        for k in 0..<10_000 { link(originals[k % originals.count].source.description, folder + "/" + String(format: k, digits: 5) + ".jpg") }
        return (folder, originals.count)
    }

    /// One soak in a tmux pane of 120x40.
    static func soak(command: String, minutes: Double, reference: [String]?) throws -> Outcome {
        var outcome = Outcome()
        let stats = FirstScreen.scratch("soak-stats") + "/stats"
        defer { _ = system("rm -rf '\(String(stats.dropLast(6)))'") }
        let tmux = try Tmux(columns: 120, rows: 40, command: command,
                            environment: ["COLORTERM": "truecolor", "SWIFT_BACKTRACE": "interactive=no", "PHOTOGRID_STATS": stats],
                            keepOutput: false)
        guard try tmux.waitFor(seconds: 60, { $0.contains(" of ") }).0 else { throw BenchError("photogrid did not start: \(command)") }
        let children = try Tmux.command(["pgrep", "-P", "\(try tmux.pid())"])
        guard let pid = Int32(children.split(separator: "\n").first ?? "") else { throw BenchError("no photogrid process") }
        _ = try tmux.waitFor(seconds: 60) { !$0.contains("loading") }
        outcome.startKB = residentKB(pid)
        var random = SystemRandomNumberGenerator()
        let deadline = Timing.now() + minutes * 60
        var lastSample = 0.0
        while Timing.now() < deadline {
            let key = keys[Int.random(in: 0..<keys.count, using: &random)]
            try tmux.send(key)
            outcome.keys += 1
            if Int.random(in: 0..<25, using: &random) == 0 {
                let (columns, rows) = sizes[Int.random(in: 0..<sizes.count, using: &random)]
                try tmux.run(["resize-window", "-t", "t", "-x", "\(columns)", "-y", "\(rows)"])
                outcome.resizes += 1
            }
            usleep(UInt32.random(in: 0...60_000, using: &random))
            if Timing.now() - lastSample > 1 {
                lastSample = Timing.now()
                guard kill(pid, 0) == 0 else { outcome.crashed = true; break }
                let resident = residentKB(pid)
                outcome.peakKB = max(outcome.peakKB, resident)
                if outcome.halfwayKB == 0 && Timing.now() > deadline - minutes * 30 { outcome.halfwayKB = resident }
                outcome.endKB = resident
            }
        }
        guard !outcome.crashed else {
            print("  - photogrid died: \(try tmux.screen().split(separator: "\n").suffix(5).joined(separator: " / "))")
            return outcome
        }
        // A known screen: the grid at 120x40, 4 columns, the first photo focused, no panel. The
        // status line must be on the last row: a screen drawn at an earlier size can carry the
        // same status text, and tmux, resized this fast, sometimes leaves the terminal's size
        // at an earlier one (the window is resized again then: only the terminal's SIGWINCH
        // tells a program).
        try tmux.run(["resize-window", "-t", "t", "-x", "120", "-y", "40"])
        // Esc closes the top view each time: the details panel, the photo view, and (once
        // more) anything a lost key left (the soak's keys open nothing deeper). Counting `i`
        // presses to close the panel with another `i` went wrong once Esc closed it too.
        // Each alone: an Esc followed within 25 ms by a key is read as Alt and that key (ncurses'
        // ESCDELAY), and the `g` was seen to be lost so.
        for key in ["Escape", "Escape", "Escape", "g", "4"] {
            try tmux.send(key)
            usleep(100_000)
        }
        var settled = false
        for _ in 0..<3 where !settled {
            (settled, _) = try tmux.waitFor(seconds: 40) { screen in
                let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
                guard lines.count >= 40 else { return false }
                // " 1 of": "3591 of 10000" holds "1 of 10000" too.
                return lines[39].contains(" 1 of 10000") && lines[39].contains("4 columns") && !lines[39].contains("loading")
            }
            if !settled {
                try tmux.run(["resize-window", "-t", "t", "-x", "119", "-y", "40"])
                try tmux.run(["resize-window", "-t", "t", "-x", "120", "-y", "40"])
            }
        }
        usleep(500_000)                                  // past photogrid's repaint once resizing stops
        if !settled { outcome.wrongTiles.append("the final screen did not settle") }
        outcome.peakKB = max(outcome.peakKB, residentKB(pid))
        if let reference, settled {
            // A - at six columns goes out to the months, which puts the photos in the date order
            // for the rest of the run: the sheet to compare with is printed in the same order.
            let live = try tmux.screen(escapes: true)
            let status = live.split(separator: "\n", omittingEmptySubsequences: false).last { $0.contains(" of ") } ?? ""
            let order = status.contains("by date") ? ["--sort", "date"] : []
            try compare(live, with: Array(reference.prefix(1)) + order + reference.dropFirst(), into: &outcome)
        }
        if !outcome.wrongTiles.isEmpty {
            // Whose size is off: the window's own (tmux) or the terminal's as the program reads it.
            let tty = try tmux.value("#{pane_tty}")
            let pty = (try? Subprocess.run(["stty", "-F", tty, "size"]))
                .map { String(decoding: $0.output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "" } ?? "?"
            outcome.wrongTiles.append("pane \(try tmux.value("#{pane_width}x#{pane_height}")), terminal size (rows columns) \(pty)")
        }
        try tmux.send("q")
        let (quit, _) = try tmux.waitFor(seconds: 30) { $0.contains("[exit 0]") }
        usleep(200_000)
        outcome.leftRunning = !quit || kill(pid, 0) == 0
        if let text = try? FileReader.readText(stats),
           let line = text.split(separator: "\n").first(where: { $0.hasPrefix("cache-peak-bytes ") }) {
            outcome.cachePeakBytes = Int(line.split(separator: " ").last ?? "")
        }
        return outcome
    }

    /// Each tile of the live screen against the same tile of a `--print` of that screen: close
    /// to it, and closer to it than to any other tile.
    static func compare(_ live: String, with reference: [String], into outcome: inout Outcome) throws {
        let home = FirstScreen.scratch("soak-print")
        defer { _ = system("rm -rf '\(home)'") }
        let printed = try Subprocess.run(reference + ["--size", "120x40", "--columns", "4"],
                                         environment: ["XDG_CACHE_HOME": home, "COLORTERM": "truecolor", "PATH": "/usr/bin:/bin"])
        guard printed.status == 0 else { throw BenchError("--print failed: \(printed.errorText)") }
        let a = ScreenPixels(text: live, columns: 120, rows: 40)
        let b = ScreenPixels(text: String(decoding: printed.output, as: UTF8.self), columns: 120, rows: 40)
        let layout = GridLayout(screen: ScreenMetrics(columns: 120, rows: 40), columns: 4)
        // Whole rows (the printed sheet has no cut row), inside each tile's edge cells (the focus
        // frame may take those of the focused tile; the sheet has none).
        let tiles = layout.visibleIndexes(topRow: 0, photos: 10_000).compactMap { layout.placement(of: $0, topRow: 0) }
            .filter { $0.visibleRows == layout.tileRows }
        let rects = tiles.map { ScreenPixels.Rect(column: $0.frame.column + 1, row: $0.row + 1, width: $0.frame.width - 2, height: $0.visibleRows - 2) }
        outcome.tilesChecked += rects.count
        outcome.worstTile = rects.map { a.difference(b, $0, $0) }.max() ?? 0
        for (index, difference) in a.wrongTiles(against: b, tiles: rects) {
            outcome.wrongTiles.append("tile \(index): difference \(Table.fixed(difference, 1))")
        }
        if !outcome.wrongTiles.isEmpty {
            // Both screens, to look at: `cat` them in a 24-bit terminal.
            let base = "/tmp/photogrid-soak-\(getpid())-\(Int(Timing.now()))"
            writeText(live, to: base + "-live.txt")
            writeText(String(decoding: printed.output, as: UTF8.self), to: base + "-printed.txt")
            outcome.wrongTiles.append("screens kept in \(base)-live.txt and -printed.txt")
        }
    }

    static func writeText(_ text: String, to path: String) {
        guard let file = fopen(path, "w") else { return }
        fputs(text, file)
        fclose(file)
    }

    static func residentKB(_ pid: Int32) -> Int {
        guard let status = try? FileReader.readText("/proc/\(pid)/status"),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }) else { return 0 }
        return Int(line.split(separator: " ").dropFirst().first ?? "0") ?? 0
    }
}
