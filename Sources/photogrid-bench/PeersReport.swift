import Glibc
import PhotoGridCore
import PhotoGridTestSupport

/// `photogrid-bench peers DIR [RUNS] TIMG`: the first 18 photos of DIR, 6x3 on 240x67 cells of
/// 10x20 pixels, as `--print --fit` draws them in kitty and in sixel mode beside `timg -pk` and
/// `timg -ps`, side by side in one run, each in a pty of 2400x1340 pixels that answers the peers'
/// queries as they come; photogrid with an empty disk cache. Time from the start to the last byte
/// written, median of RUNS, alternating (each run a pair, photogrid first in every other one);
/// bytes as the pty read them; CPU (user and system, as /usr/bin/time reports it) of the last run.
/// "time / timg" is the ratio of the medians; "paired" the median of each pair's own ratio, with
/// the pairs' range: this machine's speed drifts by a third within minutes, and a pair's two
/// runs share a moment of it where the medians may not.
enum PeersReport {
    static let columns = 240, rows = 67

    package static func run(source: String, photogrid: String, runs: Int, timg: String) throws {
        let files = try FolderScanner().scan(RawPath(source)).prefix(18).map(\.source.description)
        // The same 18 for photogrid: a folder of links to them, in the same order.
        let folder = FirstScreen.scratch("peers")
        defer { _ = system("rm -rf '\(folder)'") }
        for (i, file) in files.enumerated() {
            _ = symlink(file, folder + "/" + (i < 10 ? "0" : "") + "\(i)-" + RawPath(file).lastComponent.description)
        }
        print("# photogrid --print --fit beside timg\n")
        for line in Machine.describe() { print("- \(line)") }
        print("- \(source): its first \(files.count) photos, 6x3 on 240x67 cells of 10x20, median of \(runs) runs, alternating\n")
        print(Table.row(["mode", "photogrid", "bytes", "CPU", "timg", "bytes", "CPU", "time / timg", "paired", "bytes / timg"]))
        print(Table.rule(10))
        // "kitty, files": a kitty on this machine, which photogrid's probe finds reading its files
        // (`t=t`), and which reads and deletes each picture's file as kitty does; timg sends
        // through the pty there too.
        for (kitty, local) in [(true, false), (true, true), (false, false)] {
            let mode = kitty ? "kitty" : "sixel"
            // BENCH_ARGS: more of photogrid's options, to measure what one of them costs (--no-disk-cache).
            let extra = getenv("BENCH_ARGS").map { String(cString: $0).split(separator: " ").map(String.init) } ?? []
            let ours = [photogrid, "--print"] + (local ? [] : ["--mode", mode]) + ["--fit", "--size", "\(columns)x\(rows)", "--cell-size", "10x20",
                        "--columns", "6"] + extra + [folder]
            let theirs = [timg, "--threads=2", kitty ? "-pk" : "-ps", "--grid=6x3"] + files
            // PEERS_KEEP: a folder to keep photogrid's last output in, for scripts/peer-quality
            // (timg's is not kept: the pty mixes the echo of its late query answers into it).
            let kept = getenv("PEERS_KEEP").map { String(cString: $0) }
            var times: ([Double], [Double]) = ([], []), bytes = (0, 0), cpu = (0.0, 0.0)
            for run in 0..<runs {
                let cache = FirstScreen.scratch("peers-cache")
                defer { _ = system("rm -rf '\(cache)'") }
                let ourFirst = run % 2 == 0
                let early = ourFirst ? nil : try counted(theirs, kitty: kitty, cache: cache, keep: nil)
                let a = try counted(ours, kitty: kitty, files: local, cache: cache, keep: local ? nil : kept.map { "\($0)/photogrid.\(mode)" })
                let b = try early ?? counted(theirs, kitty: kitty, cache: cache, keep: nil)
                times.0.append(a.seconds); times.1.append(b.seconds)
                bytes = (a.bytes, b.bytes)
                cpu = (a.cpu, b.cpu)
            }
            let (mine, peer) = (Timing.median(times.0), Timing.median(times.1))
            let pairs = zip(times.0, times.1).map { $0 / $1 }
            let paired = Table.fixed(Timing.median(pairs), 2) + "x (" + Table.fixed(pairs.min() ?? 0, 2) + "-" + Table.fixed(pairs.max() ?? 0, 2) + ")"
            print(Table.row([mode + (local ? ", files" : ""), KittyReport.ms(mine), KittyReport.kb(bytes.0), KittyReport.ms(cpu.0), KittyReport.ms(peer),
                             KittyReport.kb(bytes.1), KittyReport.ms(cpu.1),
                             Table.fixed(mine / peer, 2) + "x", paired, Table.fixed(Double(bytes.0) / Double(max(1, bytes.1)), 2) + "x"]))
        }
    }

    /// A run that wrote no picture (timg -ps did, about one run in twenty, and sat until the pty
    /// was closed six seconds later) is run again, at most twice, and said on stderr: counted, it
    /// moved the median its way.
    static func counted(_ command: [String], kitty: Bool, files: Bool = false, cache: String, keep: String?) throws -> (seconds: Double, bytes: Int, cpu: Double) {
        var run = try once(command, kitty: kitty, files: files, cache: cache, keep: keep)
        for _ in 0..<2 where run.bytes < 1024 {
            let said = Array("\(RawPath(command[0]).lastComponent): a run wrote \(run.bytes) bytes in \(Int(run.seconds * 1000)) ms; run again\n".utf8)
            _ = said.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
            run = try once(command, kitty: kitty, files: files, cache: cache, keep: keep)
        }
        return run
    }

    /// One run in the pty: seconds to the last byte written, the bytes, and seconds of CPU; what
    /// it wrote kept in the file `keep`, if given.
    static func once(_ command: [String], kitty: Bool, files: Bool = false, cache: String, keep: String? = nil) throws -> (seconds: Double, bytes: Int, cpu: Double) {
        let timeFile = cache + "/cpu"
        let started = SystemClock().seconds()
        let kind: PtyTerminal.Kind = files ? .kittyReadingFiles : .answeringXterm(columns: columns, rows: rows, kitty: kitty)
        let terminal = try PtyTerminal(["/usr/bin/time", "-f", "%U %S", "-o", timeFile] + command, columns: columns, rows: rows, kind: kind,
                                       environment: ["TERM": kitty ? "xterm-kitty" : "xterm-256color", "COLORTERM": "truecolor",
                                                     "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": cache], capture: keep != nil)
        var status: Int32 = 0
        while waitpid(terminal.pid, &status, 0) < 0 && errno == EINTR {}
        // What it wrote last may still be on its way through the pty.
        _ = terminal.waitForQuiet(0.3, limit: 10)
        let last = SystemClock().seconds() - terminal.quietFor
        let bytes = terminal.bytesWritten
        if let keep { try? AtomicFile.write(terminal.takeCaptured(), to: RawPath(keep)) }
        terminal.stop(seconds: 1)
        let cpu = ((try? FileReader.readText(timeFile)) ?? "").split(whereSeparator: \.isWhitespace).compactMap { Double($0) }.reduce(0, +)
        return (last - started, bytes, cpu)
    }
}
