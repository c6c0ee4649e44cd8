import Glibc
import PhotoGridCore
import PhotoGridSamples
import PhotoGridTestSupport

/// `photogrid-bench kitty DIR [RUNS] [TIMG] [CHAFA]`: photogrid in a pty that answers like kitty
/// (10x20 cells, 240x67) beside the same answering like a sixel xterm and in half-blocks, at 6 columns from a cold disk cache: the
/// first screen (cold and with the disk cache warm), a page down and the page back up, in time to the last byte and bytes written;
/// then one row down and back up in-process; and the first screen of `timg -pk` and `chafa -f
/// kitty` on the same 18 photos (issue 12).
enum KittyReport {
    static let columns = 240, rows = 67

    struct Run { var first = 0.0, firstBytes = 0, firstPictures = 0, down = 0.0, downBytes = 0, up = 0.0, upBytes = 0, upPictures = 0 }

    package static func run(source: String, photogrid: String, runs: Int, timg: String?, chafa: String?) throws {
        print("# photogrid in kitty mode\n")
        for line in Machine.describe() { print("- \(line)") }
        print("- \(source), 6 columns on 240x67 cells of 10x20, disk cache cold, median of \(runs) runs; times to the last byte written\n")
        print(Table.row(["mode", "first screen", "bytes", "pictures", "second visit", "bytes", "pictures", "page down", "bytes",
                         "page back up", "bytes", "pictures sent again"]))
        print(Table.rule(12))
        var figures: [String: Run] = [:]
        for (name, kind) in [("kitty, files", PtyTerminal.Kind.kittyFiles), ("kitty, through the pty", .kitty),
                             ("sixel (xterm)", .sixelXterm(columns: columns, rows: rows)), ("half-block 24-bit", .text)] {
            var all: [Run] = [], warm: [Run] = []
            for _ in 0..<runs {
                let cache = FirstScreen.scratch("kitty")
                defer { _ = system("rm -rf '\(cache)'") }
                all.append(try once(photogrid: photogrid, folder: source, kind: kind, cache: cache))
                // The same again with the disk cache the first run filled: a second visit.
                warm.append(try once(photogrid: photogrid, folder: source, kind: kind, cache: cache, keys: false))
            }
            func median(_ key: (Run) -> Double) -> Double { Timing.median(all.map(key)) }
            let run = Run(first: median(\.first), firstBytes: all[0].firstBytes, firstPictures: all[0].firstPictures, down: median(\.down), downBytes: all[0].downBytes,
                          up: median(\.up), upBytes: all[0].upBytes, upPictures: all.map(\.upPictures).max() ?? 0)
            figures[name] = run
            print(Table.row([name, ms(run.first), kb(run.firstBytes), "\(run.firstPictures)", ms(Timing.median(warm.map(\.first))),
                             kb(warm[0].firstBytes), "\(warm[0].firstPictures)", ms(run.down), kb(run.downBytes),
                             ms(run.up), kb(run.upBytes), "\(run.upPictures)"]))
        }
        if let f = figures["kitty, files"], let k = figures["kitty, through the pty"], let h = figures["half-block 24-bit"] {
            print("\n- first screen / half-blocks': kitty with files \(Table.fixed(f.first / h.first, 2))x, through the pty "
                  + "\(Table.fixed(k.first / h.first, 2))x (target at most 1.3x)")
        }

        print("\n## One row with the memory cache warm (in-process, no terminal; median of 5)\n")
        print(Table.row(["mode", "key", "time", "bytes written"]))
        print(Table.rule(4))
        defer { TemporaryFiles.removeLeftovers() }
        for mode in [RenderMode.kitty(.file), .kitty(.inline), .halfBlock(.trueColor)] {
            let interaction = try Interaction(folder: source, mode: mode)
            defer { interaction.stop() }
            let down = interaction.scrollOneRow(times: 5)
            // Back up over rows whose pictures the terminal already holds.
            let up = Interaction.median((0..<5).map { _ -> Interaction.Figure in
                _ = interaction.measure(.character("j"))
                return interaction.measure(.character("k"))
            })
            for (key, figure) in [("one row down (j)", down), ("one row back up (k)", up)] {
                let name = mode == .kitty(.file) ? "kitty, files" : mode == .kitty(.inline) ? "kitty, through the pty" : mode.description
                print(Table.row([name, key, Table.fixed(figure.seconds * 1000, 2) + " ms", "\(figure.bytes)"]))
            }
        }

        let files = try FolderScanner().scan(RawPath(source)).prefix(18).map(\.source.description)
        print("\n## The same 18 photos' first screen beside the peers (kitty protocol, to a pipe, median of \(runs))\n")
        print(Table.row(["program", "time", "bytes"]))
        print(Table.rule(3))
        var peers: [(String, [String])] = []
        if let timg { peers.append(("timg -pk", [timg, "--threads=2", "-pk", "--grid=6", "-g", "240x67"] + files)) }
        if let chafa { peers.append(("chafa -f kitty", [chafa, "-f", "kitty", "--grid", "6", "-s", "240x67"] + files)) }
        for (name, command) in peers {
            var times: [Double] = [], bytes = 0
            for _ in 0..<runs {
                let result = try Subprocess.run(command, environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm-kitty"])
                guard result.status == 0 else { throw BenchError("\(name) failed: \(result.errorText)") }
                times.append(result.outputSeconds)
                bytes = result.output.count
            }
            print(Table.row([name, ms(Timing.median(times)), kb(bytes)]))
        }
    }

    /// One cold run in the pty: the first screen, then page down, then page up.
    static func once(photogrid: String, folder: String, kind: PtyTerminal.Kind, cache: String, keys: Bool = true) throws -> Run {
        let started = SystemClock().seconds()
        let terminal = try PtyTerminal([photogrid, folder, "--columns", "6"], columns: columns, rows: rows, kind: kind,
                                       environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "PATH": "/usr/bin:/bin",
                                                     "XDG_CACHE_HOME": cache],
                                       capture: true)
        defer { terminal.stop() }
        var run = Run()
        terminal.waitForQuiet(1, limit: 60)
        run.first = SystemClock().seconds() - terminal.quietFor - started
        let firstBytes = terminal.takeCaptured()
        run.firstBytes = firstBytes.count
        // Pictures written: kitty transmissions, or sixel sequences (a tile in strips is several).
        run.firstPictures = occurrences(of: Array("\u{1B}_Ga=t,".utf8), in: firstBytes) + occurrences(of: Array("\u{1B}P".utf8), in: firstBytes)
        guard keys else { return run }
        (run.down, run.downBytes, _) = press(terminal, "\u{1B}[6~")
        (run.up, run.upBytes, run.upPictures) = press(terminal, "\u{1B}[5~")
        return run
    }

    /// Types `keys`, waits for the screen to settle: seconds to the last byte, bytes, pictures sent.
    static func press(_ terminal: PtyTerminal, _ keys: String) -> (Double, Int, Int) {
        let before = terminal.bytesWritten
        let start = SystemClock().seconds()
        terminal.send(keys)
        while terminal.bytesWritten == before, SystemClock().seconds() - start < 20 { usleep(2_000) }
        terminal.waitForQuiet(1, limit: 60)
        let seconds = SystemClock().seconds() - terminal.quietFor - start
        let bytes = terminal.takeCaptured()
        return (seconds, bytes.count, occurrences(of: Array("\u{1B}_Ga=t,".utf8), in: bytes))
    }

    static func occurrences(of needle: [UInt8], in bytes: [UInt8]) -> Int {
        guard bytes.count >= needle.count else { return 0 }
        return (0...(bytes.count - needle.count)).filter { bytes[$0] == needle[0] && bytes[$0..<($0 + needle.count)].elementsEqual(needle) }.count
    }

    static func ms(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
    static func kb(_ bytes: Int) -> String { "\((bytes + 512) / 1024) KB" }
}
