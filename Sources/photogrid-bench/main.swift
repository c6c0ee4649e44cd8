import Glibc
import PhotoGridCore

// photogrid-bench run DIR [RUNS]        the figures of docs/benchmarks.md (DIR: ../shared/tools/real-photos)
// photogrid-bench time DIR              the time zoom's keys on a folder as it is
// photogrid-bench decode DIR [SIZE]     full libjpeg decodes against photogrid's shortcuts
// photogrid-bench hold DIR [MINUTES]     a key held down over 10,000 photos in each mode, memory every second
// photogrid-bench sixel DIR [SIZE] [COLORS]  libsixel's diffusion methods: bytes, time, error
// photogrid-bench remote DIR [RUNS]     remote galleries over loopback, with 50 ms a response, beside the disk
// photogrid-bench soak DIR [MINUTES]     random keys and resizes over 10,000 photos and a served gallery
// photogrid-bench memory DIR [sixel|halfblock] [COLUMNS,..] [MB,..]  peak memory and idle CPU against the budget, in a pty like a sixel xterm and a plain one
// photogrid-bench parse [RUNS]          remote galleries: JSON and million-photo manifests, time and memory
// photogrid-bench formats DIR [RUNS] [TIMG] [CHAFA]  the first screen per format (PNG, WebP, HEIC, AVIF, GIF) beside timg and chafa
// photogrid-bench kitty DIR [RUNS] [TIMG] [CHAFA]    kitty mode against half-blocks in a pty, and beside timg -pk and chafa -f kitty
// photogrid-bench link DIR [MBIT] [RUNS] [TIMG] [CHAFA]           kitty and sixel in a pty read at MBIT megabits a second, and as fast as it comes
// photogrid-bench peers DIR RUNS TIMG  --print --fit in kitty and sixel beside timg -pk and -ps, 18 photos in a pty
// photogrid-bench oracle [KEYS] [SEEDS] the screen oracle's random walks, longer than the tests'
// photogrid-bench list                  a sort and a filter over 10,000 photos: what is decoded again
// photogrid-bench write KIND FILE ...   one write to a user's file, for the crash tests to kill
// photogrid-bench copies DIR            the benchmark's folders made from DIR and kept (their root printed)
// photogrid-bench library N DIR [RUNS]  a library of N photos in day folders: first screen, count, days, months, years, filter, memory
let arguments = Array(CommandLine.arguments.dropFirst())
do {
    switch arguments.first {
    case "copies" where arguments.count >= 2:
        // The sets `run` makes, kept for other commands (`peers ROOT/preview`); removed by hand.
        let inputs = try Inputs(from: arguments[1], many: 0)
        print(inputs.root)
    case "run" where arguments.count >= 2:
        // photogrid itself is beside this program, built by the same `swift build`.
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        try Report.run(source: arguments[1], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                       runs: arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5)
    case "time" where arguments.count >= 2:
        // The time zoom's keys alone, on a folder as it is (the whole report runs them on its inputs).
        for mode in [RenderMode.halfBlock(.trueColor), .sixel(colors: 256)] {
            let interaction = try Interaction(folder: arguments[1], mode: mode)
            defer { interaction.stop() }
            for (key, figure) in [("one row down (j)", interaction.scrollOneRow(times: 5))] + interaction.timeZoom() {
                print("\(mode.description)\t\(key)\t\(Table.fixed(figure.seconds * 1000, 2)) ms\t\(figure.bytes) bytes\t\(figure.tilesLoading) loading\tsettled \(Table.fixed(figure.settled * 1000, 1)) ms")
            }
        }
    case "remote" where arguments.count >= 2:
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        try RemoteReport.run(source: arguments[1], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                             runs: arguments.count > 2 ? Int(arguments[2]) ?? 5 : 5)
    case "soak" where arguments.count >= 2:
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        try Soak.run(source: arguments[1], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                     minutes: arguments.count > 2 ? Double(arguments[2]) ?? 6 : 6)
    case "memory" where arguments.count >= 2:
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        // Optionally only some of it: memory DIR [sixel|halfblock] [COLUMNS,...] [BUDGETS,...]
        func list(_ k: Int, _ all: [Int]) -> [Int] { arguments.count > k ? arguments[k].split(separator: ",").compactMap { Int($0) } : all }
        let terminals = arguments.count > 2 ? [arguments[2] == "sixel"] : [true, false]
        try MemoryReport.run(source: arguments[1], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                             terminals: terminals, columnCounts: list(3, [1, 3, 6]), budgets: list(4, [32, 64, 512]))
    case "hold" where arguments.count >= 2:
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        try HoldSoak.run(source: arguments[1], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                         minutes: arguments.count > 2 ? Double(arguments[2]) ?? 4 : 4)
    case "sixel" where arguments.count >= 2:
        try SixelReport.run(folder: arguments[1], size: arguments.count > 2 ? Int(arguments[2]) ?? 400 : 400,
                            colors: arguments.count > 3 ? Int(arguments[3]) ?? 256 : 256)
    case "parse" where arguments.count >= 2 && ParseReport.cases.contains(arguments[1]):
        try ParseReport.runCase(arguments[1], runs: arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3)
    case "parse":
        try ParseReport.run(program: CommandLine.arguments[0], runs: arguments.count > 1 ? Int(arguments[1]) ?? 3 : 3)
    case "formats" where arguments.count >= 2:
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        try FormatsReport.run(source: arguments[1], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                              runs: arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3,
                              timg: arguments.count > 3 ? arguments[3] : nil, chafa: arguments.count > 4 ? arguments[4] : nil)
    case "kitty" where arguments.count >= 2:
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        try KittyReport.run(source: arguments[1], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                            runs: arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3,
                            timg: arguments.count > 3 ? arguments[3] : nil, chafa: arguments.count > 4 ? arguments[4] : nil)
    case "peers" where arguments.count >= 4:
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        try PeersReport.run(source: arguments[1], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                            runs: Int(arguments[2]) ?? 5, timg: arguments[3])
    case "link" where arguments.count >= 2:
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        try LinkReport.run(source: arguments[1], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                           megabits: arguments.count > 2 ? Double(arguments[2]) ?? 20 : 20, runs: arguments.count > 3 ? Int(arguments[3]) ?? 3 : 3,
                           timg: arguments.count > 4 ? arguments[4] : nil, chafa: arguments.count > 5 ? arguments[5] : nil)
    case "library" where arguments.count >= 3:
        let directory = String(CommandLine.arguments[0].reversed().drop { $0 != "/" }.reversed())
        guard let count = Int(arguments[1]), count > 0 else { throw BenchError("library N DIR [RUNS]: N is a number of photos") }
        try LibraryReport.run(count: count, folder: arguments[2], photogrid: (directory.isEmpty ? "./" : directory) + "photogrid",
                              runs: arguments.count > 3 ? Int(arguments[3]) ?? 2 : 2)
    case "list":
        try ListChangeReport.run()
    case "write":
        try Writer.run(Array(arguments.dropFirst()))
    case "oracle":
        try OracleReport.run(keys: arguments.count > 1 ? Int(arguments[1]) ?? 1000 : 1000, seeds: arguments.count > 2 ? Int(arguments[2]) ?? 3 : 3)
    case "decode" where arguments.count >= 2:
        try DecodeReport.run(folder: arguments[1], size: arguments.count > 2 ? Int(arguments[2]) ?? 400 : 400)
    default:
        print("usage: photogrid-bench run DIR [RUNS] | time DIR | remote DIR [RUNS] | soak DIR [MINUTES] | memory DIR | hold DIR [MINUTES] | decode DIR [SIZE] | sixel DIR [SIZE] [COLORS] | parse [RUNS] | formats DIR [RUNS] [TIMG] [CHAFA] | kitty DIR [RUNS] [TIMG] [CHAFA] | link DIR [MBIT] [RUNS] [TIMG] [CHAFA] | peers DIR RUNS TIMG | oracle [KEYS] [SEEDS] | list | library N DIR [RUNS] | copies DIR | write KIND FILE ...")
        exit(2)
    }
} catch {
    print("photogrid-bench: \(error)")
    exit(1)
}
