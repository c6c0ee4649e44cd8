import Glibc
import PhotoGridCore
import PhotoGridSamples
import PhotoGridTestSupport

/// `photogrid-bench remote DIR [RUNS]`: the first screen of a remote gallery over loopback,
/// beside the same photos from the disk. The server is `photogrid serve` (renditions made on the
/// server), once answering at once and once 50 ms late on every response (`--delay-ms`), as a
/// far-away server would; and python's http.server, which has only the originals.
enum RemoteReport {
    package static func run(source: String, photogrid: String, runs: Int) throws {
        print("# photogrid benchmark: remote galleries\n")
        for line in Machine.describe() { print("- \(line)") }
        let inputs = try Inputs(from: source)
        defer { inputs.remove() }
        for line in inputs.summary { print("- \(line)") }
        print("- each figure the median of \(runs) runs (a first visit with renditions still to make: one run); a first screen "
              + "is 6 columns on 240x67 cells of 10x20 pixels (18 photos), timed to the end of photogrid's output (`--print`), "
              + "the disk's as the servers' (its first visit with an empty disk cache)")
        print("- a server's first visits (\(firstRuns(runs)) runs) alternate with as many first visits from the disk, and its "
              + "second visits (\(secondRuns(runs)) runs) with as many warm runs from the disk, so that each ratio is of "
              + "medians of the same moments\n")
        let bench = FirstScreen(photogrid: photogrid, runs: runs)
        print(Table.row(["photos", "mode", "from", "first visit, renditions to make", "first visit",
                         "the disk's first visit then", "first / disk", "second visit", "the disk's warm run then",
                         "second / warm"]))
        print(Table.rule(10))
        for (name, folder) in [("progressive (as shipped)", inputs.progressive), ("12 MP baseline, no EXIF thumbnail", inputs.camera)] {
            for mode in ["halfblock", "sixel"] {
                let local = try Timing.median((0..<bench.runs).map { _ in try visit([folder], bench: bench, mode: mode, clientHome: nil) })
                let warmHome = FirstScreen.scratch("warm")
                defer { _ = system("rm -rf '\(warmHome)'") }
                _ = try visit([folder], bench: bench, mode: mode, clientHome: warmHome)
                let warm = try Timing.median((0..<secondRuns(runs)).map { _ in
                    try visit([folder], bench: bench, mode: mode, clientHome: warmHome)
                })
                print(Table.row([name, mode, "the disk", "", Report.ms(local), "", "", Report.ms(warm, digits: 1), "", ""]))
                for delay in [0, 50] {
                    let figures = try serve(folder, delay: delay, bench: bench, mode: mode, warmDisk: (folder, warmHome))
                    print(Table.row([name, mode, "photogrid serve, \(delay) ms a response", Report.ms(figures.making),
                                     Report.ms(figures.first), Report.ms(figures.cold),
                                     Table.fixed(figures.first / figures.cold, 2) + "x", Report.ms(figures.second, digits: 1),
                                     Report.ms(figures.warm, digits: 1), Table.fixed(figures.second / figures.warm, 2) + "x"]))
                }
                if Subprocess.which("python3") {
                    let (first, second) = try python(folder, bench: bench, mode: mode)
                    print(Table.row([name, mode, "python3 -m http.server (originals only)", "", Report.ms(first), "", "",
                                     Report.ms(second, digits: 1), "", ""]))
                }
            }
        }
    }

    /// Second visits take 8-20 ms, where this machine's run-to-run spread is a few: more runs
    /// (with 21, two runs of the same build gave ratios 0.08x apart).
    static func secondRuns(_ runs: Int) -> Int { max(runs, 41) }

    /// First visits take 70-400 ms and move with the machine as much: with five runs each, taken
    /// minutes apart, the ratio of progressive half-blocks' at 50 ms went from 1.26x to 1.43x
    /// between two runs of the same build (1.09x measured alternating).
    static func firstRuns(_ runs: Int) -> Int { max(runs, 11) }

    /// A server of our own with `delay` on every response: the first visit while it makes its
    /// renditions, first visits once it has them (each with an empty client cache), and second
    /// visits (the client's disk cache filled).
    static func serve(_ folder: String, delay: Int, bench: FirstScreen, mode: String, warmDisk: (folder: String, home: String))
        throws -> (making: Double, first: Double, cold: Double, second: Double, warm: Double) {
        let serverHome = FirstScreen.scratch("server")
        defer { _ = system("rm -rf '\(serverHome)'") }
        let port = Subprocess.freePort()
        let server = try Subprocess.start([bench.photogrid, "serve", folder, "--port", "\(port)", "--delay-ms", "\(delay)"],
                                          environment: ["XDG_CACHE_HOME": serverHome, "PATH": "/usr/bin:/bin"])
        defer { Subprocess.stop(server) }
        guard Subprocess.waitForPort(port) else { throw BenchError("photogrid serve did not start on port \(port)") }
        let target = ["--url", "http://127.0.0.1:\(port)/"]
        let making = try visit(target, bench: bench, mode: mode, clientHome: nil)
        var firsts: [Double] = [], colds: [Double] = []
        for _ in 0..<firstRuns(bench.runs) {
            firsts.append(try visit(target, bench: bench, mode: mode, clientHome: nil))
            colds.append(try visit([warmDisk.folder], bench: bench, mode: mode, clientHome: nil))
        }
        let home = FirstScreen.scratch("client")
        defer { _ = system("rm -rf '\(home)'") }
        _ = try visit(target, bench: bench, mode: mode, clientHome: home)
        var seconds: [Double] = [], warms: [Double] = []
        for _ in 0..<secondRuns(bench.runs) {
            seconds.append(try visit(target, bench: bench, mode: mode, clientHome: home))
            warms.append(try visit([warmDisk.folder], bench: bench, mode: mode, clientHome: warmDisk.home))
        }
        return (making, Timing.median(firsts), Timing.median(colds), Timing.median(seconds), Timing.median(warms))
    }

    /// python's http.server on the folder: a listing, and each photo fetched whole and made
    /// small here.
    static func python(_ folder: String, bench: FirstScreen, mode: String) throws -> (first: Double, second: Double) {
        let port = Subprocess.freePort()
        let server = try Subprocess.start(["python3", "-m", "http.server", "\(port)", "--bind", "127.0.0.1", "--directory", folder])
        defer { Subprocess.stop(server) }
        guard Subprocess.waitForPort(port) else { throw BenchError("python3 -m http.server did not start on port \(port)") }
        let target = ["--url", "http://127.0.0.1:\(port)/"]
        let first = try Timing.median((0..<bench.runs).map { _ in try visit(target, bench: bench, mode: mode, clientHome: nil) })
        let home = FirstScreen.scratch("client")
        defer { _ = system("rm -rf '\(home)'") }
        _ = try visit(target, bench: bench, mode: mode, clientHome: home)
        let second = try Timing.median((0..<bench.runs).map { _ in try visit(target, bench: bench, mode: mode, clientHome: home) })
        return (first, second)
    }

    /// One `--print` run with the client's disk cache in `clientHome`, or an empty one, timed
    /// to the end of its output: without /usr/bin/time in front, which holds the output open
    /// until photogrid exits (after its output, photogrid writes the disk cache and waits for a
    /// manifest's revalidation).
    static func visit(_ target: [String], bench: FirstScreen, mode: String, clientHome: String?) throws -> Double {
        let home = clientHome ?? FirstScreen.scratch("client")
        defer { if clientHome == nil { _ = system("rm -rf '\(home)'") } }
        return try bench.run(target: target, mode: mode, cacheHome: home, measuringMemory: false).outputSeconds
    }
}
