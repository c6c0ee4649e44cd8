import Foundation
import Glibc
import Testing
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// What the command line answers: one exit status for each kind of ending (README, "Exit
/// status"), messages that say what is wrong with the value given, help that fits 80 columns,
/// and every output's write checked.
@Suite(.startsPrograms) struct CommandLineTests {
    /// photogrid with `arguments`, stdout sent to `stdout` by the shell; status and stderr.
    func shell(_ arguments: String, stdout: String = "/dev/null", directory: String? = nil) throws -> (Int32, String) {
        let command = (directory.map { "cd '\($0)' && " } ?? "") + "'\(Paths.binary)' \(arguments) > \(stdout)"
        let result = try Subprocess.run(["/bin/sh", "-c", command])
        return (result.status, result.errorText)
    }

    @Test func badValuesAreUsageErrorsThatNameTheLimit() throws {
        let cases: [(String, String)] = [
            ("--cache-mb -5", "--cache-mb must be at least 16"),
            ("--cache-mb=-5", "--cache-mb must be at least 16"),
            ("--slideshow -1", "--slideshow must be between 1 and 3600"),
            ("--columns -2", "--columns must be between 1 and 6"),
            ("--print --size 0x0", "--size must be at least 1x2"),
            ("--print --size 12", "--size must look like 120x40"),
            ("--bogus", "Unknown option '--bogus'"),
            ("/nonexistent-\(getpid())", "no such file or folder"),
            ("--url http//x", "not an http, https, sftp or s3 URL"),
        ]
        for (arguments, expected) in cases {
            let (status, stderr) = try shell(arguments)
            #expect(status == 2, "\(arguments): status \(status)")
            #expect(stderr.hasPrefix("photogrid: ") && stderr.contains(expected), "\(arguments): \(stderr)")
            #expect(!stderr.contains("Missing value"), "\(arguments): \(stderr)")
        }
    }

    /// serve and export end as the browser does (README, "Exit status"): a folder that is not
    /// there or a value out of range is the command line's mistake, status 2, and nothing starts.
    @Test func serveAndExportRefuseWhatIsNotThereWithTheUsageStatus() throws {
        let scratch = TestImages.scratchFolder("serve-export-status")
        defer { TestImages.remove(scratch) }
        let missing = "/nonexistent-\(getpid())"
        let cases: [(String, String)] = [
            ("serve \(missing)", "no such folder"),
            ("serve --no-cache --port 99999 '\(Paths.gallery)'", "port 99999 is not in 0...65535"),
            ("serve --no-cache --token short '\(Paths.gallery)'", "the token must be 16 to 128"),
            ("export \(missing) '\(scratch)/out'", "no such folder"),
            ("export '\(Paths.gallery)' '\(Paths.gallery)/out'", "photogrid writes nothing there"),
            ("serve --host= '\(Paths.gallery)'", "Missing value for '--host <host>'"),
        ]
        for (arguments, expected) in cases {
            let (status, stderr) = try shell(arguments)
            #expect(status == 2, "\(arguments): status \(status), \(stderr)")
            #expect(stderr.hasPrefix("photogrid: ") && stderr.contains(expected), "\(arguments): \(stderr)")
        }
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch)) == [], "something was written")
    }

    @Test func aFailedWriteOnStandardOutputIsAnError() throws {
        for arguments in ["--version", "--help", "--print --mode halfblock --size 40x6 '\(Paths.gallery)'"] {
            let (status, stderr) = try shell(arguments, stdout: "/dev/full")
            #expect(status == 1, "\(arguments) > /dev/full: status \(status)")
            #expect(stderr.contains("cannot write to standard output: No space left on device"), "\(arguments): \(stderr)")
        }
        #expect(try shell("--version").0 == 0)
    }

    @Test func anExportToAURLIsRefusedNotWrittenAsAFolder() throws {
        let scratch = TestImages.scratchFolder("export-url")
        defer { TestImages.remove(scratch) }
        let (status, stderr) = try shell("export '\(Paths.gallery)' gs://bucket/gallery", directory: scratch)
        #expect(status == 2)
        #expect(stderr.contains("gs is not a place photogrid exports to"), "\(stderr)")
        #expect((try? FileManager.default.contentsOfDirectory(atPath: scratch)) == [], "something was written")
    }

    @Test func helpFitsEightyColumnsAndSaysEachDefaultOnce() throws {
        for command in [[], ["serve"], ["export"]] {
            let (_, output, _) = try Paths.photogrid(command + ["--help"])
            let text = String(decoding: output, as: UTF8.self)
            let widest = text.split(separator: "\n").map(\.count).max() ?? 0
            #expect(widest <= 80, "\(command) --help has a line of \(widest) columns")
        }
        let (_, output, _) = try Paths.photogrid(["--help"])
        // Words wrapped across lines read as one line.
        let text = String(decoding: output, as: UTF8.self).split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(text.contains("(default: the current folder)") && !text.contains("(default: .)"), "\(text)")
    }
}

/// The terminal photogrid is started in, in tmux: one it cannot draw on is refused before a byte
/// is written to it; a redirected stdout is refused with the options that use one.
@Suite(.startsPrograms, .serialized) struct StartRefusalTests {
    @Test func aDumbTerminalIsRefusedNamingPrint() throws {
        let tmux = try Tmux(columns: 100, rows: 20, command: "\(Paths.binary) \(Paths.gallery)", environment: ["TERM": "dumb"])
        let (ok, screen) = try tmux.waitFor { $0.contains("[exit") }
        #expect(ok, "\(screen)")
        #expect(screen.contains("[exit 2]") && screen.contains("TERM=dumb cannot place the cursor") && screen.contains("--print"), "\(screen)")
        // Nothing but the message: no probe's question, no grid.
        #expect(!screen.contains("of 5") && !screen.contains("[?"), "\(screen)")
    }

    @Test func aRedirectedStdoutIsRefusedNamingO() throws {
        let tmux = try Tmux(columns: 100, rows: 20, command: "\(Paths.binary) \(Paths.gallery) > /dev/null")
        let (ok, screen) = try tmux.waitFor { $0.contains("[exit") }
        #expect(ok && screen.contains("[exit 2]") && screen.contains("-o or -0"), "\(screen)")
    }

    @Test func chosenPathsThatCannotBeWrittenAreAnError() throws {
        let tmux = try Tmux(columns: 100, rows: 20, command: "\(Paths.binary) --mode halfblock -o \(Paths.gallery) > /dev/full")
        var (ok, screen) = try tmux.waitFor { $0.contains(" of ") }
        #expect(ok, "\(screen)")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit") }
        #expect(ok && screen.contains("[exit 1]") && screen.contains("cannot write the paths to standard output"), "\(screen)")
    }

    /// PHOTOGRID_MODE chooses the protocol as --mode does, --mode wins, and a name it does not
    /// know is a usage error that names the choices.
    @Test func photogridModeChoosesTheProtocol() throws {
        let photo = Paths.gallery + "/landscapes/autumn-01.jpg"
        func printed(_ environment: [String: String], _ extra: [String] = []) throws -> (Int32, String, String) {
            let result = try Subprocess.run([Paths.binary, "--print", "--size", "40x12"] + extra + [photo],
                                            environment: ["COLORTERM": "truecolor", "PATH": "/usr/bin:/bin"].merging(environment) { $1 })
            return (result.status, String(decoding: result.output, as: UTF8.self), result.errorText)
        }
        let sixel = try printed(["PHOTOGRID_MODE": "sixel"])
        #expect(sixel.0 == 0 && sixel.1.contains("\u{1B}P") && !sixel.1.contains("▀"), "\(sixel.2)")
        let blocks = try printed(["PHOTOGRID_MODE": "HalfBlock"])
        #expect(blocks.0 == 0 && blocks.1.contains("▀") && !blocks.1.contains("\u{1B}P"), "\(blocks.2)")
        let given = try printed(["PHOTOGRID_MODE": "sixel"], ["--mode", "halfblock"])
        #expect(given.0 == 0 && given.1.contains("▀") && !given.1.contains("\u{1B}P"), "--mode wins: \(given.2)")
        let bad = try printed(["PHOTOGRID_MODE": "vt100"])
        #expect(bad.0 == 2 && bad.2.contains("PHOTOGRID_MODE=vt100: auto, kitty, iterm, sixel or halfblock"), "\(bad.0) \(bad.2)")
    }
}
