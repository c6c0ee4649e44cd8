import Foundation
import Glibc
import PhotoGridSamples
import PhotoGridTestSupport
import PhotoGridCore
import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridGallery
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem
import PhotoGridTerminal
import PhotoGridLoading
import PhotoGridDiskCache

/// A real kitty on a virtual X display (Xvfb, Mesa's software OpenGL) running a command, typed
/// into with xdotool and photographed with xwd: what a kitty user sees, pixel for pixel.
package final class KittyWindow {
    package struct Failure: Error, CustomStringConvertible { package let description: String }

    package let display: String
    private let xvfb: pid_t
    private let kitty: pid_t
    package let window: String
    package let environment: [String: String]
    /// kitty has exited and been waited for: its pid may be another process's now.
    private var reaped = false

    /// Whether the programs it needs are installed (`scripts/setup --test` installs them).
    package static var isAvailable: Bool {
        ["Xvfb", "kitty", "xdotool", "xwd"].allSatisfy { (try? Subprocess.run(["sh", "-c", "command -v \($0)"]).status) == 0 }
    }

    /// A kitty showing `command`. Started up to three times: in a soak of the whole suite (ten
    /// runs with both cores busy) kitty once exited at start with "X11: Failed to open display
    /// :0" on a display Xvfb had just reported ready; why was not found. Each failed start is
    /// quoted if all three fail, Xvfb's own messages with kitty's.
    package init(_ command: [String], columns: Int, rows: Int, extraEnvironment: [String: String] = [:]) throws {
        var failures: [String] = []
        for _ in 0..<3 {
            switch try KittyWindow.start(command, columns: columns, rows: rows, extraEnvironment: extraEnvironment) {
            case .success(let started):
                (display, xvfb, kitty, window, environment) = started
                return
            case .failure(let failure):
                failures.append(failure.description)
            }
        }
        throw Failure(description: failures.enumerated().map { "start \($0.offset + 1): \($0.element)" }.joined(separator: " | "))
    }

    private typealias Started = (display: String, xvfb: pid_t, kitty: pid_t, window: String, environment: [String: String])

    private static func start(_ command: [String], columns: Int, rows: Int,
                              extraEnvironment: [String: String]) throws -> Result<Started, Failure> {
        // Xvfb picks a free display itself and writes its number (-displayfd): two test runs at
        // once (two clones, or a term-shot beside the suite) once chose the same number by
        // looking for lock files, and one kitty then had no X server of its own.
        let scratch = TestImages.scratchFolder("kitty-x")
        defer { _ = try? Subprocess.run(["rm", "-rf", scratch]) }
        let numberFile = scratch + "/display", xLog = scratch + "/xvfb.log", kittyLog = scratch + "/kitty.log"
        let xvfb = try Subprocess.start(["sh", "-c", "exec Xvfb -displayfd 3 -screen 0 1600x1000x24 -nolisten tcp 3>\"$0\" 2>\"$1\"",
                                         numberFile, xLog])
        func said(_ path: String) -> String { String(((try? String(contentsOfFile: path, encoding: .utf8)) ?? "").suffix(400)) }
        // Deadlines by the clock, and long: with the whole suite on both cores, Xvfb and kitty on
        // software OpenGL were seen to take over 20 s to show a window (a fixed count of tries
        // ran out in a CI run).
        let number = FileWatch.wait(for: numberFile, seconds: 30) { $0.hasSuffix("\n") }?
            .trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        guard !number.isEmpty else {
            Subprocess.stop(xvfb)
            return .failure(Failure(description: "Xvfb gave no display number in 30 s; Xvfb said: \(said(xLog))"))
        }
        let display = ":\(number)"
        let path = ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"
        let environment = ["DISPLAY": display, "LIBGL_ALWAYS_SOFTWARE": "1", "PATH": path,
                           "HOME": ProcessInfo.processInfo.environment["HOME"] ?? "/tmp"].merging(extraEnvironment) { $1 }
        let title = "photogrid-test-\(getpid())-\(number)"
        // kitty's own messages go to a file, to be quoted if it fails.
        let kitty = try Subprocess.start(["sh", "-c", "exec \"$@\" 2>\"$0\"", kittyLog, "kitty", "--title", title, "-o", "font_size=11",
                                          "-o", "remember_window_size=no",
                                          "-o", "initial_window_width=\(columns)c", "-o", "initial_window_height=\(rows)c",
                                          "-o", "placement_strategy=top-left", "-o", "window_padding_width=0",
                                          "-o", "background=black", "-o", "foreground=white", "-o", "confirm_os_window_close=0",
                                          "-o", "sync_to_monitor=no"] + command, environment: environment)
        var found = "", exited: Int32? = nil
        // xdotool waits for the window itself (--sync), 30 s at a time, and kitty is asked after
        // each whether it is still there.
        for _ in 0..<3 where found.isEmpty && exited == nil {
            // --onlyvisible: a window not yet mapped cannot be photographed (xwd fails on it).
            let result = try Subprocess.run(["timeout", "30", "xdotool", "search", "--sync", "--onlyvisible", "--name", title],
                                            environment: environment)
            found = String(decoding: result.output, as: UTF8.self).split(separator: "\n").first.map(String.init) ?? ""
            var status: Int32 = 0
            if found.isEmpty && waitpid(kitty, &status, WNOHANG) == kitty { exited = status }
        }
        guard !found.isEmpty else {
            if exited == nil {
                kill(kitty, SIGTERM)
                var status: Int32 = 0
                waitpid(kitty, &status, 0)
            }
            Subprocess.stop(xvfb)
            return .failure(Failure(description: (exited.map { "kitty exited (wait status \($0)) before its window appeared" }
                                                  ?? "kitty's window did not appear in 90 s")
                                    + " on \(display); kitty said: \(said(kittyLog)); Xvfb said: \(said(xLog))"))
        }
        return .success((display, xvfb, kitty, found, environment))
    }

    deinit { stop() }

    package func stop() {
        if !reaped {
            kill(kitty, SIGTERM)
            var status: Int32 = 0
            waitpid(kitty, &status, 0)
            reaped = true
        }
        Subprocess.stop(xvfb)
    }

    /// Types xdotool key names ("plus", "Next", "Return").
    package func key(_ names: String...) throws {
        _ = try Subprocess.run(["xdotool", "windowfocus", window], environment: environment)
        _ = try Subprocess.run(["xdotool", "key", "--delay", "60"] + names, environment: environment)
    }

    /// The window's pixels (xwd's ZPixmap of a 24-bit TrueColor visual) once `done` holds of
    /// them, taken every `every` seconds for at most `seconds` (the last taken if it never
    /// does). kitty says nothing when it has drawn: the only way to know what it shows is to
    /// look. An xwd that fails is tried again within the time (a window just mapped was once
    /// refused to xwd under load).
    package func screenshot(within seconds: Double = 5, every: Double = 0.5, until done: (RGBImage) throws -> Bool = { _ in true }) throws -> RGBImage {
        let deadline = SystemClock().seconds() + seconds
        var last: RGBImage?, reason = ""
        while true {
            let result = try Subprocess.run(["xwd", "-silent", "-id", window], environment: environment)
            if let image = KittyWindow.parseXWD(result.output) {
                if try done(image) { return image }
                last = image
            } else {
                reason = "xwd status \(result.status), \(result.output.count) bytes: \(result.errorText)"
            }
            guard SystemClock().seconds() + every < deadline else { break }
            usleep(UInt32(every * 1_000_000))
        }
        guard let last else { throw Failure(description: "unreadable xwd output (\(reason))") }
        return last
    }

    /// The window once two screenshots `every` seconds apart are alike, at most `seconds`.
    package func stillScreenshot(within seconds: Double = 20, every: Double = 1) throws -> RGBImage {
        var previous: RGBImage?
        return try screenshot(within: seconds, every: every) { shot in
            defer { previous = shot }
            return shot == previous
        }
    }

    /// An XWD file (X11's window dump): a header of big-endian 32-bit fields, a colour map, then
    /// the rows; only 24- and 32-bit pixels with 8-bit masks are read.
    package static func parseXWD(_ data: [UInt8]) -> RGBImage? {
        func field(_ i: Int) -> Int {
            let at = i * 4
            guard at + 4 <= data.count else { return -1 }
            let bytes = data[at..<(at + 4)].map(Int.init)
            return bytes[0] << 24 | bytes[1] << 16 | bytes[2] << 8 | bytes[3]
        }
        let headerSize = field(0), width = field(4), height = field(5), byteOrder = field(7)
        let bitsPerPixel = field(11), bytesPerLine = field(12), redMask = field(14), colours = field(19)
        guard width > 0, height > 0, width < 10_000, height < 10_000, bitsPerPixel == 32 || bitsPerPixel == 24 else { return nil }
        let start = headerSize + colours * 12, step = bitsPerPixel / 8
        guard start + bytesPerLine * height <= data.count else { return nil }
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let p = start + y * bytesPerLine + x * step
                // Little-endian (byte order 0) with red in the high byte: B, G, R in memory.
                let (r, g, b) = byteOrder == 0 ? (data[p + 2], data[p + 1], data[p]) : (data[p + step - 3], data[p + step - 2], data[p + step - 1])
                image[x, y] = redMask == 0xFF0000 ? RGB(r, g, b) : RGB(b, g, r)
            }
        }
        return image
    }
}
