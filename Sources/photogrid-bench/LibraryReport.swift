import Glibc
import PhotoGridCore
import PhotoGridSamples
import PhotoGridTestSupport

/// A library as users keep one, and photogrid on it as a user meets it (issue 47):
/// `photogrid-bench library N DIR [RUNS]` makes N photos in day folders,
/// `YYYY/YYYY-MM-DD/IMG_NNNNNNN.jpg`, 19 a day from 2005 on (more in a library over 20 years), each with its own date taken,
/// one of three cameras, an ISO and an XMP rating (0, 2, 4 or 5) in it, unless DIR holds them
/// already; then runs the release photogrid in tmux (160x45, half-blocks, 6 columns), once with
/// an empty cache (cold) and RUNS times with the cache that run left (warm), and times from the
/// start of tmux: the first screen, all photos counted, then from each key `-` the days, the
/// months and the years, the dates read, a filter, and the resident memory at the end.
enum LibraryReport {
    static let cameras: [(make: String, model: String, iso: Int)] = [("FUJIFILM", "X100V", 800), ("Canon", "Canon EOS R5", 100),
                                                                      ("SONY", "ILCE-7M3", 3200)]
    static let ratings = [0, 2, 4, 5, 0]
    /// Photos a day: 19, or more so that a library spans at most 20 years (a million photos:
    /// 137 a day), since dates taken past next year are no dates (`CaptureDate.parse`).
    static func perDay(_ count: Int) -> Int { max(19, (count + 7_299) / 7_300) }
    /// A camera, three years from a third of the way in (the whole span when shorter), a rating.
    static func filter(count: Int) -> String {
        let lastYear = 2005 + count / perDay(count) / 365
        let from = 2005 + (lastYear - 2005) / 3
        return "camera:x100v \(from)..\(min(from + 2, lastYear)) rating>=4"
    }

    static func run(count: Int, folder: String, photogrid: String, runs: Int) throws {
        let marker = folder + "/.photogrid-bench-\(count)"
        if access(marker, F_OK) != 0 {
            let made = try Timing.time { try make(count: count, folder: folder) }
            try Inputs.write([], to: marker)
            print("photogrid-bench library: the filter \(filter(count: count)); \(count) photos in \(count / perDay(count) + 1) day folders of \(folder), made in \(Table.fixed(made, 1)) s")
        }
        let cache = folder + ".cache"
        _ = system("rm -rf '\(cache)'")
        print(Table.row(["run", "first screen", "all counted", "- days (up / drawn)", "- months", "- years", "dates read (from start)", "filter",
                         "shown by it", "resident", "peak"]))
        print(Table.rule(11))
        for run in 0...runs {
            let figures = try measure(count: count, folder: folder, photogrid: photogrid, cache: cache)
            print(Table.row([run == 0 ? "cold" : "warm \(run)"] + figures))
        }
    }

    static func make(count: Int, folder: String) throws {
        // A template a camera, rating and colour, its date's bytes patched for each photo.
        let placeholder = "2000:01:01 00:00:00"
        var templates: [[UInt8]] = [], dateAt: [Int] = []
        for camera in cameras {
            for rating in ratings.prefix(4) {
                for colour in 0..<4 {
                    let image = RGBImage(width: 64, height: 48, fill: RGB(UInt8(40 + colour * 50), UInt8(200 - colour * 40), UInt8(90 + rating * 30)))
                    let exif = ExifFields(dateTimeOriginal: placeholder, make: camera.make, model: camera.model, iso: camera.iso)
                    var jpeg = try JPEG.encode(image, quality: 80, app1: ExifBuilder.app1(exif))
                    if rating > 0 {
                        jpeg = JPEGSegmentsWriter.insert(segments: [(0xE1, XMPBuilder.identifier + XMPRating.fresh(rating))], into: jpeg)
                    }
                    guard let at = find(Array(placeholder.utf8), in: jpeg) else { throw BenchError("no date in the template") }
                    templates.append(jpeg)
                    dateAt.append(at)
                }
            }
        }
        let firstDay = CaptureDate.wallClock(year: 2005, month: 1, day: 1, hour: 8, minute: 0, second: 0)
        var madeFolder = ""
        let perDay = perDay(count)
        for index in 0..<count {
            let taken = firstDay + Int64(index / perDay) * 86_400 + Int64(index % perDay) * (43_200 / Int64(perDay))
            let (year, month, day) = CaptureDate.civil(taken)
            func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
            let dayFolder = folder + "/\(year)/\(year)-\(two(month))-\(two(day))"
            if dayFolder != madeFolder {
                guard RawPath(dayFolder).makeDirectories(permissions: 0o755) else { throw BenchError("cannot make \(dayFolder)") }
                madeFolder = dayFolder
            }
            let seconds = Int(taken % 86_400)
            let date = "\(year):\(two(month)):\(two(day)) \(two(seconds / 3600)):\(two(seconds / 60 % 60)):\(two(seconds % 60))"
            let which = ((index / 7) % cameras.count) * 16 + (ratings[index % ratings.count] == 0 ? 0 : [2: 1, 4: 2, 5: 3][ratings[index % ratings.count]]!) * 4 + index % 4
            var jpeg = templates[which]
            jpeg.replaceSubrange(dateAt[which]..<(dateAt[which] + 19), with: Array(date.utf8))
            try Inputs.write(jpeg, to: dayFolder + "/IMG_" + String(String(10_000_000 + index).dropFirst()) + ".jpg")
        }
    }

    static func find(_ needle: [UInt8], in bytes: [UInt8]) -> Int? {
        guard bytes.count >= needle.count else { return nil }
        return (0...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// One run: the figures in milliseconds from the start (or from the key), memory in MB.
    static func measure(count: Int, folder: String, photogrid: String, cache: String) throws -> [String] {
        func status(_ screen: String) -> String {
            screen.split(separator: "\n").last { $0.contains(" of ") }.map(String.init) ?? ""
        }
        let start = Timing.now()
        let tmux = try Tmux(columns: 160, rows: 45, command: "\(photogrid) --mode halfblock --columns 6 '\(folder)'",
                            environment: ["XDG_CACHE_HOME": cache, "COLORTERM": "truecolor"], keepOutput: true)
        func ms(since: Double) -> String { Table.fixed((Timing.now() - since) * 1000, 0) }
        func wait(_ seconds: Double, _ test: (String) -> Bool) throws -> Bool { try tmux.waitFor(seconds: seconds, test).0 }
        var cells: [String] = []
        cells.append(try wait(60) { status($0).contains("1 of ") && !$0.contains("loading") } ? ms(since: start) : "over 60 s")
        cells.append(try wait(120) { status($0).contains(" of \(count) ") } ? ms(since: start) : "over 120 s")
        // Each level: when the view is up (its name on the status line, its headers drawn), then
        // when every picture on screen is drawn.
        for scale in ["days", "months", "years"] {
            let pressed = Timing.now()
            try tmux.send("-")
            let up = try wait(60) { status($0).contains(" \(scale) ") } ? ms(since: pressed) : "over 60 s"
            let drawn = try wait(60) { status($0).contains(" \(scale) ") && !$0.contains("loading") } ? ms(since: pressed) : "over 60 s"
            cells.append(up + " / " + drawn)
        }
        cells.append(try wait(900) { !status($0).contains("estimated") } ? ms(since: start) : "over 900 s")
        try tmux.send("q")
        _ = try wait(5) { status($0).contains("6 columns") }
        let typed = Timing.now()
        try tmux.send("\\")
        try tmux.send(filter(count: count))
        try tmux.send("Enter")
        var shown = ""
        cells.append(try wait(600) { screen in
            let line = status(screen)
            if line.contains("no photo matches") { shown = "0"; return true }
            guard line.contains("hidden") else { return false }
            shown = line.split(separator: "·").first { $0.contains(" of ") }.map { String($0.split(separator: " ").last ?? "") } ?? ""
            return true
        } ? ms(since: typed) : "over 600 s")
        cells.append(shown)
        let (resident, peak) = memory(of: try photogridPID(tmux))
        cells += [Table.fixed(resident, 0) + " MB", Table.fixed(peak, 0) + " MB"]
        try tmux.send("q")
        _ = try wait(10) { $0.contains("[exit") }
        return cells
    }

    /// The photogrid process in the pane: the pane's shell's child.
    static func photogridPID(_ tmux: Tmux) throws -> Int32 {
        var pid = try tmux.pid()
        for _ in 0..<4 {
            let comm = text("/proc/\(pid)/comm")
            if comm.hasPrefix("photogrid") { return pid }
            let children = text("/proc/\(pid)/task/\(pid)/children")
            guard let child = children.split(separator: " ").first.flatMap({ Int32($0) }) else { break }
            pid = child
        }
        return pid
    }

    /// VmRSS and VmHWM, in MB.
    static func memory(of pid: Int32) -> (Double, Double) {
        let text = text("/proc/\(pid)/status")
        func value(_ name: String) -> Double {
            guard let line = text.split(separator: "\n").first(where: { $0.hasPrefix(name) }) else { return 0 }
            return Double(line.split(separator: " ").dropFirst().first ?? "0").map { $0 / 1024 } ?? 0
        }
        return (value("VmRSS:"), value("VmHWM:"))
    }

    /// A small file's text, empty when it cannot be read.
    static func text(_ path: String) -> String {
        guard let file = try? FileDescriptor.open(RawPath(path), .read) else { return "" }
        defer { try? file.close() }
        return String(decoding: (try? file.readToEnd(limit: 1 << 20)) ?? [], as: UTF8.self)
    }
}
