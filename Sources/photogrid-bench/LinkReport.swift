import Glibc
import PhotoGridCore
import PhotoGridTestSupport

/// `photogrid-bench link DIR [MBIT] [RUNS] [TIMG] [CHAFA]`: photogrid in a pty read no faster than MBIT megabits
/// a second (20 unless given), as a terminal at the end of an SSH link or a VPN reads it, beside
/// the same pty read as fast as bytes come (a terminal on this machine): 4 columns on 240x67
/// cells of 10x20, disk cache cold, kitty through the pty and sixel. The first screen, to its
/// last byte before 0.8 s of quiet; the sharp pictures that follow on a slow link, to their last
/// byte from the start; then five PgDn 200 ms apart, from the last key to the last byte before
/// 0.8 s of quiet (issue 37), with the bytes that came after the last key and, of those, the
/// rest of the picture that was being written when it came.
enum LinkReport {
    static let columns = 240, rows = 67

    struct Run { var first = 0.0, firstBytes = 0, sharp = 0.0, sharpBytes = 0, afterKeys = 0.0, keysBytes = 0, lastKeyBytes = 0, inFlight = 0 }

    package static func run(source: String, photogrid: String, megabits: Double, runs: Int, timg: String? = nil, chafa: String? = nil) throws {
        print("# photogrid over a slow link\n")
        for line in Machine.describe() { print("- \(line)") }
        print("- \(source), 4 columns on 240x67 cells of 10x20, disk cache cold, median of \(runs) runs; times to the last byte written\n")
        print(Table.row(["mode", "link", "first screen", "bytes", "sharp pictures", "bytes", "five PgDn: after the last key", "bytes",
                         "of which after the last key", "of which the picture in flight"]))
        print(Table.rule(10))
        let rate = Int(megabits * 1_000_000 / 8)
        for (name, kind) in [("kitty, through the pty", PtyTerminal.Kind.kitty), ("sixel (xterm)", .sixelXterm(columns: columns, rows: rows))] {
            // Over SSH (the session says so, as sshd's does), the same link not said to be remote,
            // and a terminal on this machine.
            let mbit = "\(Table.fixed(megabits, 0)) Mbit/s"
            for (link, bytesPerSecond, ssh) in [(mbit + ", SSH", Optional(rate), true), (mbit, Optional(rate), false), ("local", nil, false)] {
                var all: [Run] = []
                for _ in 0..<runs {
                    let cache = FirstScreen.scratch("link")
                    defer { _ = system("rm -rf '\(cache)'") }
                    all.append(try once(photogrid: photogrid, folder: source, kind: kind, kitty: name.hasPrefix("kitty"), cache: cache,
                                        bytesPerSecond: bytesPerSecond, ssh: ssh))
                }
                func median(_ key: (Run) -> Double) -> Double { Timing.median(all.map(key)) }
                let sharp = median(\.sharp)
                print(Table.row([name, link, KittyReport.ms(median(\.first)), KittyReport.kb(all[0].firstBytes),
                                 sharp > 0 ? KittyReport.ms(sharp) : "", sharp > 0 ? KittyReport.kb(all[0].sharpBytes) : "",
                                 KittyReport.ms(median(\.afterKeys)), KittyReport.kb(all[0].keysBytes),
                                 KittyReport.kb(Int(median { Double($0.lastKeyBytes) })), KittyReport.kb(Int(median { Double($0.inFlight) }))]))
            }
        }
        try peers(source: source, rate: rate, megabits: megabits, runs: runs, timg: timg, chafa: chafa)
    }

    /// The peers on the same link: the first 12 photos (what photogrid's first screen shows at 4
    /// columns) with `--grid=4`, to the last byte.
    static func peers(source: String, rate: Int, megabits: Double, runs: Int, timg: String?, chafa: String?) throws {
        guard timg != nil || chafa != nil else { return }
        let files = try FolderScanner().scan(RawPath(source)).prefix(12).map(\.source.description)
        print("\n## The peers: the first 12 photos at 4 columns, through the same pty (median of \(runs))\n")
        print(Table.row(["program", "link", "time", "bytes"]))
        print(Table.rule(4))
        var commands: [(String, [String], PtyTerminal.Kind)] = []
        if let timg {
            commands.append(("timg -pk", [timg, "--threads=2", "-pk", "--grid=4"] + files, .answeringXterm(columns: columns, rows: rows, kitty: true)))
            commands.append(("timg -ps", [timg, "--threads=2", "-ps", "--grid=4"] + files, .answeringXterm(columns: columns, rows: rows, kitty: false)))
        }
        if let chafa {
            commands.append(("chafa -f kitty", [chafa, "-f", "kitty", "--grid", "4"] + files, .answeringXterm(columns: columns, rows: rows, kitty: true)))
            commands.append(("chafa -f sixels", [chafa, "-f", "sixels", "--grid", "4"] + files, .answeringXterm(columns: columns, rows: rows, kitty: false)))
        }
        for (name, command, kind) in commands {
            for (link, bytesPerSecond) in [("\(Table.fixed(megabits, 0)) Mbit/s", Optional(rate)), ("local", nil)] {
                var times: [Double] = [], bytes = 0
                for _ in 0..<runs {
                    let started = SystemClock().seconds()
                    let terminal = try PtyTerminal(command, columns: columns, rows: rows, kind: kind,
                                                   environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "PATH": "/usr/bin:/bin"],
                                                   capture: true, bytesPerSecond: bytesPerSecond)
                    // Every query answered as it comes; a second of quiet, in case one is not.
                    terminal.waitForQuiet(1, limit: 120)
                    times.append(SystemClock().seconds() - terminal.quietFor - started)
                    bytes = terminal.takeCaptured().count
                    terminal.stop(seconds: 10)
                }
                print(Table.row([name, link, KittyReport.ms(Timing.median(times)), KittyReport.kb(bytes)]))
            }
        }
    }

    static func once(photogrid: String, folder: String, kind: PtyTerminal.Kind, kitty: Bool, cache: String, bytesPerSecond: Int?, ssh: Bool) throws -> Run {
        let started = SystemClock().seconds()
        var environment = ["TERM": "xterm-256color", "COLORTERM": "truecolor", "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": cache]
        if ssh { environment["SSH_CONNECTION"] = "192.0.2.10 50000 192.0.2.1 22" }
        // BENCH_ARGS: more of photogrid's options, to measure what one of them costs (--no-stacks).
        let extra = getenv("BENCH_ARGS").map { String(cString: $0).split(separator: " ").map(String.init) } ?? []
        let terminal = try PtyTerminal([photogrid, folder, "--columns", "4"] + extra, columns: columns, rows: rows, kind: kind,
                                       environment: environment,
                                       capture: true, bytesPerSecond: bytesPerSecond)
        defer { terminal.stop(seconds: 30) }
        var run = Run()
        // The first screen is whole once nothing comes for 0.8 s (frames of a slow link follow one
        // another without a pause); the sharp pictures, where they follow, start a second after.
        terminal.waitForQuiet(0.8, limit: 120)
        run.first = SystemClock().seconds() - terminal.quietFor - started
        run.firstBytes = terminal.takeCaptured().count
        terminal.waitForQuiet(2.5, limit: 120)
        let sharpBytes = terminal.takeCaptured().count
        if sharpBytes > 0 {
            run.sharp = SystemClock().seconds() - terminal.quietFor - started
            run.sharpBytes = sharpBytes
        }
        var last = 0.0
        _ = terminal.takeArrivals()
        for _ in 0..<5 {
            terminal.send("\u{1B}[6~")
            last = SystemClock().seconds()
            usleep(200_000)
        }
        terminal.waitForQuiet(0.8, limit: 120)
        run.afterKeys = max(0, SystemClock().seconds() - terminal.quietFor - last)
        let captured = terminal.takeCaptured()
        run.keysBytes = captured.count
        // What came after the last key: on a slow link, at the link's rate from the start, what
        // the screen landed on costs (the floor of the time after the last key).
        run.lastKeyBytes = terminal.takeArrivals().filter { $0.seconds > last }.reduce(0) { $0 + $1.bytes }
        // Of which the rest of the picture being written when the key came (a write is not cut):
        // what comes before the first picture that starts after it (sixel's DCS, kitty's `a=`).
        let after = captured.suffix(run.lastKeyBytes)
        let start: [UInt8] = kitty ? Array("\u{1B}_Ga=".utf8) : [0x1B, 0x50]
        run.inFlight = after.firstRange(of: start).map { $0.lowerBound - after.startIndex } ?? after.count
        return run
    }
}
