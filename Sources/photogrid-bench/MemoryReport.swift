import Glibc
import PhotoGridCore
import PhotoGridSamples
import PhotoGridTestSupport

/// `photogrid-bench memory DIR`: peak memory and idle CPU against the budget, in a pty that
/// answers like a sixel xterm and in one that answers like a terminal without graphics, both
/// 240x67 cells of 10x20 pixels, over 10,000 photos (hard links to DIR's), at 1, 3 and 6 columns
/// and budgets of 32 MB, 64 MB and the default: 40 page-downs 100 ms apart, the CPU used in the
/// 3 s after the 3 s that follow the last key, then a memory-pressure halving (through
/// PHOTOGRID_MEMORY_EVENTS) and the same again. Peak memory is the kernel's (VmHWM).
///
/// `photogrid-bench hold DIR [MINUTES]`: a key held down (bursts of a key every 30-100 ms)
/// over the same folder in each mode with `--cache-mb 64`, resident memory sampled every second.
enum MemoryReport {
    struct Outcome {
        var firstScreen = 0.0, settled = 0.0, idleCPU = 0.0, idleCPUAfterPressure = 0.0
        var peakKB = 0, budgetAfter = 0, encodes = 0, decodes = 0, shortfalls = 0
    }

    static let columns = 240, rows = 67
    static let pageDown = "\u{1B}[6~"

    package static func run(source: String, photogrid: String, terminals: [Bool] = [true, false], columnCounts: [Int] = [1, 3, 6],
                    budgets: [Int] = [32, 64, 512]) throws {
        print("# photogrid memory and idle CPU against the budget\n")
        for line in Machine.describe() { print("- \(line)") }
        let (folder, originals) = try Soak.tenThousand(source)
        defer { _ = system("rm -rf '\(folder)'") }
        print("- 10,000 photos: hard links to the \(originals) photos of \(source); a pty of \(columns)x\(rows) cells of 10x20 px; "
              + "the disk cache on, cold; 40 page-downs 100 ms apart, then still; then a memory-pressure halving and 40 more\n")
        print(Table.row(["terminal", "columns", "budget", "first screen", "quiet after last key", "CPU in 3 s, idle",
                         "after halving", "peak RSS (VmHWM)", "peak - budget", "decodes", "encodes", "shortfalls"]))
        print(Table.rule(12))
        var failed: [String] = []
        for sixel in terminals {
            for columns in columnCounts {
                for budget in budgets {
                    let outcome = try measure(photogrid: photogrid, folder: folder, sixel: sixel, columns: columns, budget: budget)
                    let over = outcome.peakKB / 1024 - budget
                    print(Table.row([sixel ? "sixel xterm" : "no graphics", "\(columns)", "\(budget) MB",
                                     Table.fixed(outcome.firstScreen, 2) + " s", Table.fixed(outcome.settled, 2) + " s",
                                     Table.fixed(outcome.idleCPU, 2) + " s", Table.fixed(outcome.idleCPUAfterPressure, 2) + " s",
                                     "\(outcome.peakKB / 1024) MB", "\(over) MB", "\(outcome.decodes)", "\(outcome.encodes)",
                                     "\(outcome.shortfalls)"]))
                    if over >= 100 || outcome.idleCPU >= 0.1 || outcome.idleCPUAfterPressure >= 0.1 {
                        failed.append("\(sixel ? "sixel" : "half-blocks") \(columns) columns \(budget) MB")
                    }
                }
            }
        }
        print("\n- targets: peak under the budget plus 100 MB; under 0.1 s of CPU per 3 s idle, before and after the halving")
        if !failed.isEmpty { throw BenchError("targets missed: \(failed.joined(separator: ", "))") }
    }

    /// photogrid in the pty, with the disk cache (cold) in `cache`.
    static func start(photogrid: String, folder: String, sixel: Bool, arguments: [String], stats: String,
                      pressure: String, cache: String) throws -> PtyTerminal {
        try PtyTerminal([photogrid, folder] + arguments, columns: columns, rows: rows,
                        kind: sixel ? .sixelXterm(columns: columns, rows: rows) : .text,
                        environment: ["TERM": "xterm-256color", "COLORTERM": "truecolor", "PATH": "/usr/bin:/bin", "XDG_CACHE_HOME": cache,
                                      "PHOTOGRID_STATS": stats, "PHOTOGRID_MEMORY_EVENTS": pressure,
                                      "SWIFT_BACKTRACE": "interactive=no"])
    }

    static func measure(photogrid: String, folder: String, sixel: Bool, columns: Int, budget: Int) throws -> Outcome {
        let scratch = FirstScreen.scratch("memory")
        defer { _ = system("rm -rf '\(scratch)'") }
        let stats = scratch + "/stats", pressure = scratch + "/memory.events"
        writeEvents(pressure, high: 0)
        var outcome = Outcome()
        let started = SystemClock().seconds()
        let terminal = try start(photogrid: photogrid, folder: folder, sixel: sixel,
                                 arguments: ["--columns", "\(columns)", "--cache-mb", "\(budget)"], stats: stats, pressure: pressure,
                                 cache: scratch)
        terminal.waitForQuiet(1, limit: 60)
        outcome.firstScreen = SystemClock().seconds() - started - 1
        let lastKey = pageDowns(terminal)
        outcome.settled = SystemClock().seconds() - terminal.quietFor - lastKey
        outcome.idleCPU = idleCPU(terminal, after: lastKey)
        writeEvents(pressure, high: 1)
        usleep(2_500_000)                                   // the watcher reads it once a second
        outcome.idleCPUAfterPressure = idleCPU(terminal, after: pageDowns(terminal))
        outcome.peakKB = PtyTerminal.usage(terminal.pid).peakKB
        terminal.stop()
        let values = readStats(stats)
        outcome.budgetAfter = (values["cache-budget-bytes"] ?? 0) >> 20
        outcome.encodes = values["encodes"] ?? -1
        outcome.decodes = values["decodes"] ?? -1
        outcome.shortfalls = values["budget-shortfalls"] ?? -1
        return outcome
    }

    /// 40 page-downs 100 ms apart, then until the output has stopped for half a second (the
    /// time it stopped is `quiet after last key`); the time of the last key.
    static func pageDowns(_ terminal: PtyTerminal) -> Double {
        for _ in 0..<40 {
            terminal.send(pageDown)
            usleep(100_000)
        }
        let lastKey = SystemClock().seconds()
        terminal.waitForQuiet(0.5, limit: 30)
        return lastKey
    }

    /// CPU seconds used in the 3 s that start 3 s after the last key.
    static func idleCPU(_ terminal: PtyTerminal, after lastKey: Double) -> Double {
        let wait = lastKey + 3 - SystemClock().seconds()
        if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
        let before = PtyTerminal.usage(terminal.pid).cpuSeconds
        usleep(3_000_000)
        return PtyTerminal.usage(terminal.pid).cpuSeconds - before
    }

    static func writeEvents(_ path: String, high: Int) {
        Soak.writeText("low 0\nhigh \(high)\nmax 0\noom 0\noom_kill 0\n", to: path)
    }

    static func readStats(_ path: String) -> [String: Int] {
        var values: [String: Int] = [:]
        for line in ((try? FileReader.readText(path)) ?? "").split(separator: "\n") {
            let parts = line.split(separator: " ")
            if parts.count == 2, let value = Int(parts[1]) { values[String(parts[0])] = value }
        }
        return values
    }
}

/// `photogrid-bench hold DIR [MINUTES]`: a key held down over 10,000 photos in each mode.
enum HoldSoak {
    static let budget = 64
    /// Mostly paging down, as someone looking for a photo far down a folder does; sometimes back.
    static let keys = [MemoryReport.pageDown, MemoryReport.pageDown, MemoryReport.pageDown, "j", "j", "\u{1B}[5~", "k"]

    package static func run(source: String, photogrid: String, minutes: Double) throws {
        print("# photogrid with a key held down\n")
        for line in Machine.describe() { print("- \(line)") }
        let (folder, originals) = try Soak.tenThousand(source)
        defer { _ = system("rm -rf '\(folder)'") }
        print("- 10,000 photos: hard links to the \(originals) photos of \(source); a pty of \(MemoryReport.columns)x"
              + "\(MemoryReport.rows) cells of 10x20 px; `--cache-mb \(budget)`, 4 columns, the disk cache on (cold); bursts of 2-10 s "
              + "of one key every 30-100 ms (mostly PgDn, some j, PgUp, k), 0-2 s apart, \(Table.fixed(minutes, 1)) minutes per mode; "
              + "resident memory (VmRSS) every second\n")
        var failed = false
        for sixel in [true, false] {
            let scratch = FirstScreen.scratch("hold")
            defer { _ = system("rm -rf '\(scratch)'") }
            MemoryReport.writeEvents(scratch + "/memory.events", high: 0)
            let terminal = try MemoryReport.start(photogrid: photogrid, folder: folder, sixel: sixel,
                                                  arguments: ["--columns", "4", "--cache-mb", "\(budget)"], stats: scratch + "/stats",
                                                  pressure: scratch + "/memory.events", cache: scratch)
            terminal.waitForQuiet(1, limit: 60)
            var samples: [Int] = [], presses = 0
            var random = SystemRandomNumberGenerator()
            let deadline = SystemClock().seconds() + minutes * 60
            var nextSample = SystemClock().seconds()
            func sample() {
                while SystemClock().seconds() >= nextSample {
                    samples.append(PtyTerminal.usage(terminal.pid).residentKB / 1024)
                    nextSample += 1
                }
            }
            while SystemClock().seconds() < deadline {
                let key = keys[Int.random(in: 0..<keys.count, using: &random)]
                let burstEnd = min(deadline, SystemClock().seconds() + Double.random(in: 2...10, using: &random))
                while SystemClock().seconds() < burstEnd {
                    terminal.send(key)
                    presses += 1
                    usleep(UInt32.random(in: 30_000...100_000, using: &random))
                    sample()
                }
                let pauseEnd = SystemClock().seconds() + Double.random(in: 0...2, using: &random)
                while SystemClock().seconds() < pauseEnd { usleep(50_000); sample() }
            }
            let idle = MemoryReport.idleCPU(terminal, after: SystemClock().seconds())
            let peak = PtyTerminal.usage(terminal.pid).peakKB / 1024
            let alive = kill(terminal.pid, 0) == 0
            terminal.stop()
            print("## \(sixel ? "sixel xterm" : "no graphics (half-blocks)")\n")
            print("- \(presses) keys; resident memory: first \(samples.first ?? 0) MB, halfway \(samples[samples.count / 2]) MB, "
                  + "last \(samples.last ?? 0) MB, highest sample \(samples.max() ?? 0) MB; peak (VmHWM) \(peak) MB against a "
                  + "\(budget) MB budget; CPU in the 3 s from 3 s after the last key: \(Table.fixed(idle, 2)) s; still running: "
                  + (alive ? "yes" : "no (it died)") + "\n")
            print("```text\n" + plot(samples, height: 10, width: 90, unit: "MB") + "```\n")
            failed = failed || !alive || peak - budget >= 100 || idle >= 0.1
        }
        if failed { throw BenchError("a target was missed (above)") }
    }

    /// The samples as a text chart: one column per group of samples (their highest), the value
    /// axis from 0 to the highest sample.
    static func plot(_ samples: [Int], height: Int, width: Int, unit: String) -> String {
        guard let top = samples.max(), top > 0 else { return "(no samples)\n" }
        let per = max(1, (samples.count + width - 1) / width)
        let columns = stride(from: 0, to: samples.count, by: per).map { samples[$0..<min(samples.count, $0 + per)].max()! }
        var lines: [String] = []
        for row in (1...height).reversed() {
            let level = Double(top) * Double(row) / Double(height)
            let label = row == height || row == height / 2 ? String(Int(level.rounded())) : ""
            lines.append(String(repeating: " ", count: max(0, 5 - label.count)) + label + " |"
                         + String(columns.map { Double($0) >= level - Double(top) / Double(height) / 2 ? "#" : " " }))
        }
        lines.append("    0 +" + String(repeating: "-", count: columns.count))
        lines.append("       " + "0 s" + String(repeating: " ", count: max(1, columns.count - 3 - "\(samples.count) s".count))
                     + "\(samples.count) s   (\(unit); one column = \(per) s, its highest sample)")
        return lines.joined(separator: "\n") + "\n"
    }
}
