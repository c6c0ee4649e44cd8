import Glibc
import PhotoGridCore
import PhotoGridSamples
import PhotoGridTestSupport

/// `photogrid-bench formats DIR [RUNS] [TIMG] [CHAFA]`: the first screen (18 photos, 6 columns on
/// 240x67 cells) per format, cold and with the disk cache warm, with peak memory, beside timg and
/// chafa on the same files (issue 11). The folders are made here from the first 18 JPEGs of DIR
/// with the tools Debian packages: ImageMagick (PNG, GIF, TIFF, a JPEG converted to ProPhoto with
/// Ghostscript's profiles), cwebp (WebP), heif-enc (HEIC with and without a thumbnail, AVIF), cjxl
/// (JPEG XL), their long side at most 3840 (GIF 1024, as GIFs are small).
/// TIMG and CHAFA name the peers' programs (built from their sources: Debian's are old).
enum FormatsReport {
    struct Format: Sendable {
        let name: String, suffix: String
        /// Makes `output` from the PNG `input`; nil when this format starts from the JPEG itself.
        let make: @Sendable (_ input: String, _ output: String) -> [String]
    }

    static let formats: [Format] = [
        Format(name: "JPEG (as shipped)", suffix: "jpg") { _, _ in [] },
        Format(name: "PNG", suffix: "png") { input, output in ["cp", input, output] },
        Format(name: "WebP (lossy, q 80)", suffix: "webp") { input, output in ["cwebp", "-quiet", "-q", "80", input, "-o", output] },
        Format(name: "HEIC with a 320 px thumbnail", suffix: "heic") { input, output in
            ["heif-enc", "-q", "50", "-t", "320", "-p", "preset=fast", input, "-o", output]
        },
        Format(name: "HEIC without a thumbnail", suffix: "nothumb.heic") { input, output in
            ["heif-enc", "-q", "50", "-p", "preset=fast", input, "-o", output]
        },
        Format(name: "AVIF", suffix: "avif") { input, output in ["heif-enc", "-A", "-q", "50", "-p", "speed=8", input, "-o", output] },
        Format(name: "GIF (1024 px)", suffix: "gif") { input, output in ["convert", input, "-resize", "1024x1024>", output] },
        Format(name: "TIFF (8-bit, LZW)", suffix: "tif") { input, output in ["convert", input, "-compress", "lzw", output] },
        Format(name: "TIFF (16-bit, zip, tiled)", suffix: "16.tif") { input, output in
            ["convert", input, "-depth", "16", "-compress", "zip", "-define", "tiff:tile-geometry=256x256", output]
        },
        Format(name: "JPEG XL (lossy, d 1)", suffix: "jxl") { input, output in ["cjxl", input, output, "-d", "1", "-e", "3", "--quiet"] },
        Format(name: "JPEG in ProPhoto (ICC)", suffix: "romm.jpg") { input, output in
            ["convert", input, "-profile", "/usr/share/color/icc/ghostscript/srgb.icc",
             "-profile", "/usr/share/color/icc/ghostscript/rommrgb.icc", "-quality", "92", output]
        },
    ]

    package static func run(source: String, photogrid: String, runs: Int, timg: String?, chafa: String?) throws {
        print("# photogrid first screen per format\n")
        for line in Machine.describe() { print("- \(line)") }
        let jpegs = try FolderScanner().scan(RawPath(source)).filter { $0.format == .jpeg }.prefix(18).map(\.source.description)
        guard jpegs.count == 18 else { throw BenchError("\(source) has \(jpegs.count) JPEGs, 18 wanted") }
        let root = FirstScreen.scratch("formats")
        defer { _ = system("rm -rf '\(root)'") }
        print("- 18 photos from \(source), each figure the median of \(runs) runs, timed to the end of the output; "
              + "photogrid `--print`, timg `--threads=2 -ph --grid=6 -g 240x67`, chafa `-f symbols --symbols vhalf --grid 6 -s 240x67`\n")

        // One PNG a photo, long side at most 3840, the source of every other format.
        let pngs = root + "/png-sources"
        _ = system("mkdir -p '\(pngs)'")
        for (i, jpeg) in jpegs.enumerated() {
            try check(["convert", jpeg, "-auto-orient", "-resize", "3840x3840>", pngs + "/\(i).png"])
        }
        let bench = FirstScreen(photogrid: photogrid, runs: runs, environment: ["COLORTERM": "truecolor"])
        print(Table.row(["format", "MB", "photogrid cold", "warm", "peak RSS", "sixel cold", "timg", "chafa",
                         "cold / faster peer", "warm / faster peer"]))
        print(Table.rule(10))
        for format in formats {
            let folder = root + "/" + format.suffix
            _ = system("mkdir -p '\(folder)'")
            for (i, jpeg) in jpegs.enumerated() {
                let output = folder + "/photo-\(i < 10 ? "0" : "")\(i).\(format.suffix)"
                let command = format.make(pngs + "/\(i).png", output)
                if command.isEmpty { try check(["cp", jpeg, output]) } else { try check(command) }
            }
            let files = try FolderScanner().scan(RawPath(folder)).map(\.source.description)
            let megabytes = files.reduce(0) { $0 + (FileStamp.of(RawPath($1))?.size ?? 0) } / 1_000_000
            let (cold, peak) = try bench.cold(folder, mode: "halfblock")
            let warm = try bench.warmDisk(folder, mode: "halfblock")
            let (sixel, _) = try bench.cold(folder, mode: "sixel")
            let timgTime = try timg.map { try peer([$0, "--threads=2", "-ph", "--grid=6", "-g", "240x67"] + files, runs: runs) } ?? nil
            let chafaTime = try chafa.map {
                try peer([$0, "-f", "symbols", "--symbols", "vhalf", "--grid", "6", "-s", "240x67"] + files, runs: runs)
            } ?? nil
            let faster = [timgTime, chafaTime].compactMap { $0 }.min()
            print(Table.row([format.name, "\(megabytes)", ms(cold), ms(warm), "\(peak) MB", ms(sixel), timgTime.map(ms) ?? "fails",
                             chafaTime.map(ms) ?? "fails", faster.map { Table.fixed(cold / $0, 2) + "x" } ?? "",
                             faster.map { Table.fixed(warm / $0, 2) + "x" } ?? ""]))
        }
    }

    /// A peer's median time on the files, or nil when it fails on them (a format it cannot read).
    static func peer(_ arguments: [String], runs: Int) throws -> Double? {
        var times: [Double] = []
        for _ in 0..<runs {
            let result = try Subprocess.run(arguments, environment: ["PATH": "/usr/bin:/bin", "TERM": "xterm-256color", "COLORTERM": "truecolor"])
            guard result.status == 0, result.output.count > 10_000 else { return nil }
            times.append(result.outputSeconds)
        }
        return Timing.median(times)
    }

    static func check(_ arguments: [String]) throws {
        let result = try Subprocess.run(arguments)
        guard result.status == 0 else { throw BenchError("\(arguments.joined(separator: " ")) failed: \(result.errorText)") }
    }

    static func ms(_ seconds: Double) -> String { "\(Int((seconds * 1000).rounded())) ms" }
}
