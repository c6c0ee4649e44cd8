import Glibc
import PhotoGridCore
import PhotoGridSamples
import PhotoGridTestSupport

/// The first-screen figures, each a separate process as a user would run it: photogrid with an
/// empty and with a warm disk cache, timg on the same photos, and djpeg at 1/8 (the floor).
struct FirstScreen {
    let photogrid: String
    let runs: Int
    /// Added to photogrid's environment: the formats report gives it `COLORTERM=truecolor`, as
    /// its peers get, so that all three write 24-bit half-blocks.
    var environment: [String: String] = [:]
    static let arguments = ["--print", "--size", "240x67", "--columns", "6", "--cell-size", "10x20"]

    /// Seconds until the frame is complete (EOF on photogrid's stdout): median of `runs`, each
    /// with a new, empty disk cache; and the largest peak memory among them, in MB.
    func cold(_ folder: String, mode: String) throws -> (seconds: Double, megabytes: Int) {
        let results = try (0..<runs).map { _ in
            let home = FirstScreen.scratch("cold")
            defer { _ = system("rm -rf '\(home)'") }
            return try run(folder, mode: mode, cacheHome: home)
        }
        return (Timing.median(results.map(\.outputSeconds)), (results.map(\.maxResidentKilobytes).max() ?? 0) / 1024)
    }

    /// The same with the disk cache filled by a first run: a second visit.
    func warmDisk(_ folder: String, mode: String) throws -> Double {
        let home = FirstScreen.scratch("warm")
        defer { _ = system("rm -rf '\(home)'") }
        _ = try run(folder, mode: mode, cacheHome: home)
        // Timed without /usr/bin/time in front, as the peers are: its own start is a tenth of a
        // warm run.
        return try Timing.median((0..<runs).map { _ in
            try run(target: [folder], mode: mode, cacheHome: home, measuringMemory: false).outputSeconds
        })
    }

    /// One cold run, for its time and peak memory.
    func once(_ folder: String, mode: String) throws -> Subprocess.Result {
        let home = FirstScreen.scratch("once")
        defer { _ = system("rm -rf '\(home)'") }
        return try run(folder, mode: mode, cacheHome: home)
    }

    /// One run. Its peak memory comes from /usr/bin/time, a small process that forks photogrid:
    /// a child spawned straight from this one would inherit this process's own peak (Linux keeps
    /// the high-water mark across exec).
    package func run(_ folder: String, mode: String, cacheHome: String) throws -> Subprocess.Result {
        try run(target: [folder], mode: mode, cacheHome: cacheHome)
    }

    /// One run on `target`: a folder, or `--url` and a URL.
    package func run(target: [String], mode: String, cacheHome: String, measuringMemory: Bool = true) throws -> Subprocess.Result {
        let arguments = [photogrid] + FirstScreen.arguments + ["--mode", mode] + target
        let environment = ["XDG_CACHE_HOME": cacheHome, "PATH": "/usr/bin:/bin"].merging(self.environment) { $1 }
        let result = measuringMemory && Subprocess.which("/usr/bin/time") ? try Subprocess.runMeasuringMemory(arguments, environment: environment)
                                                                           : try Subprocess.run(arguments, environment: environment)
        guard result.status == 0, !result.output.isEmpty else { throw BenchError("photogrid failed: \(result.errorText)") }
        return result
    }

    /// `timg --threads=2 -ph --grid=6 -g 240x67` on the files: half-blocks, as `-ph` asks.
    func timg(_ files: [String]) throws -> Double? {
        guard Subprocess.which("timg") else { return nil }
        return try Timing.median((0..<runs).map { _ in
            let result = try Subprocess.run(["timg", "--threads=2", "-ph", "--grid=6", "-g", "240x67"] + files)
            guard result.status == 0 else { throw BenchError("timg failed: \(result.errorText)") }
            return result.outputSeconds
        })
    }

    /// The decoding floor: `djpeg -scale 1/8` on each file one after another, divided by the cores.
    func floor(_ files: [String]) throws -> Double? {
        guard Subprocess.which("djpeg") else { return nil }
        let total = try Timing.median((0..<runs).map { _ in
            try files.reduce(0.0) { sum, file in
                sum + (try Subprocess.run(["djpeg", "-scale", "1/8", "-outfile", "/dev/null", file]).seconds)
            }
        })
        return total / Double(Machine.cores)
    }

    static func scratch(_ name: String) -> String {
        var template = Array("/tmp/photogrid-bench-\(name)-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
}

extension Subprocess {
    /// Whether a command is on PATH.
    static func which(_ command: String) -> Bool {
        (try? run(["sh", "-c", "command -v \(command)"]).status) == 0
    }
}
