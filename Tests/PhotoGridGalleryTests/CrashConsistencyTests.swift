import Foundation
import Glibc
import Testing
@testable import PhotoGridGallery
import PhotoGridMetadata
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Every write photogrid makes to a user's files, killed with SIGKILL at each of its system calls
/// in turn (strace's fault injection kills the writer as it enters the call, so the call never
/// happens: a power cut at that instant, as far as this process is concerned). The writer is
/// `photogrid-bench write`, the same code the keys run. After each kill the folders are checked:
/// every file as it was before the write or as it is after it, never torn, never gone, no file
/// nobody claims but photogrid's own hidden temporaries, which the next reading of the folder
/// removes. docs/reliability.md has the table this prints.
@Suite(.startsPrograms, .serialized) struct CrashConsistencyTests {
    static let strace = access("/usr/bin/strace", X_OK) == 0
    /// The calls that touch files: a kill before any of them is a point.
    static let calls = "openat,write,pwrite64,fsync,fdatasync,close,rename,renameat,renameat2,link,linkat,unlink,unlinkat,mkdir,mkdirat,fchmod,fchmodat,utimensat,ftruncate"
    static var writer: String { String(Paths.binary.dropLast("photogrid".count)) + "photogrid-bench" }

    /// A write: what to make in the folder (and a second folder on another file system), and
    /// the writer's arguments.
    struct Scenario: CustomStringConvertible, Sendable {
        let description: String
        let setup: @Sendable (_ folder: String, _ other: String) throws -> [String]
    }

    static let photo = Paths.gallery + "/landscapes/autumn-01.jpg"
    static let darktable = """
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
         <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:darktable="http://darktable.sf.net/"
          xmp:Rating="2" darktable:history_end="3"/>
        </rdf:RDF></x:xmpmeta>
        <?xpacket end="w"?>
        """

    static func copyPhoto(_ to: String, from: String = photo) throws { TestImages.write(try #require(TestImages.read(from)), to: to) }

    /// A raw file's stand-in: 3 MB, so that a copy takes several writes. Made once: made for
    /// each of the 120 kills of the scenarios that copy it, in a debug build, it was a third of
    /// the suite's time.
    static let rawBytes: [UInt8] = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 31) }
    static func raw(_ to: String) { TestImages.write(rawBytes, to: to) }

    static let scenarios: [Scenario] = [
        Scenario(description: "rating, a new sidecar") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); return ["rating", folder + "/a.jpg", "4"]
        },
        Scenario(description: "rating, darktable's sidecar edited") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); TestImages.write(Array(darktable.utf8), to: folder + "/a.jpg.xmp")
            return ["rating", folder + "/a.jpg", "5"]
        },
        Scenario(description: "rating cleared, photogrid's sidecar removed") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); TestImages.write(XMPRating.fresh(3), to: folder + "/a.jpg.xmp")
            return ["rating", folder + "/a.jpg", "0"]
        },
        Scenario(description: "label") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); TestImages.write(Array(darktable.utf8), to: folder + "/a.jpg.xmp")
            return ["label", folder + "/a.jpg", "Red"]
        },
        Scenario(description: "caption") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); TestImages.write(Array(darktable.utf8), to: folder + "/a.jpg.xmp")
            return ["caption", folder + "/a.jpg", "Låtefossen, June"]
        },
        Scenario(description: "keywords") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); TestImages.write(Array(darktable.utf8), to: folder + "/a.jpg.xmp")
            return ["keywords", folder + "/a.jpg", "iceland,waterfall"]
        },
        Scenario(description: "a PNG turned in its sidecar") { folder, _ in
            try copyPhoto(folder + "/s.png", from: Paths.gallery + "/other-formats/screenshot-01.png"); return ["turn", folder + "/s.png", "6"]
        },
        Scenario(description: "a JPEG turned in its file") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); return ["rotate", folder + "/a.jpg", "right"]
        },
        Scenario(description: "a pair and its sidecar moved, one file system") { folder, _ in
            try copyPhoto(folder + "/IMG_1.JPG"); raw(folder + "/IMG_1.NEF"); TestImages.write(Array(darktable.utf8), to: folder + "/IMG_1.JPG.xmp")
            mkdir(folder + "/picks", 0o755)
            return ["move", folder + "/picks", folder + "/IMG_1.JPG", folder + "/IMG_1.NEF", folder + "/IMG_1.JPG.xmp"]
        },
        Scenario(description: "a pair and its sidecar moved back (u)") { folder, _ in
            mkdir(folder + "/picks", 0o755)
            try copyPhoto(folder + "/picks/IMG_1.JPG"); raw(folder + "/picks/IMG_1.NEF"); TestImages.write(Array(darktable.utf8), to: folder + "/picks/IMG_1.JPG.xmp")
            return ["move", folder, folder + "/picks/IMG_1.JPG", folder + "/picks/IMG_1.NEF", folder + "/picks/IMG_1.JPG.xmp"]
        },
        Scenario(description: "a pair and its sidecar copied, one file system") { folder, _ in
            try copyPhoto(folder + "/IMG_1.JPG"); raw(folder + "/IMG_1.NEF"); TestImages.write(Array(darktable.utf8), to: folder + "/IMG_1.JPG.xmp")
            mkdir(folder + "/picks", 0o755)
            return ["copy", folder + "/picks", folder + "/IMG_1.JPG", folder + "/IMG_1.NEF", folder + "/IMG_1.JPG.xmp"]
        },
        Scenario(description: "a pair moved to another file system") { folder, other in
            try copyPhoto(folder + "/IMG_1.JPG"); raw(folder + "/IMG_1.NEF")
            return ["move", other, folder + "/IMG_1.JPG", folder + "/IMG_1.NEF"]
        },
        Scenario(description: "a pair copied to another file system") { folder, other in
            try copyPhoto(folder + "/IMG_1.JPG"); raw(folder + "/IMG_1.NEF")
            return ["copy", other, folder + "/IMG_1.JPG", folder + "/IMG_1.NEF"]
        },
        Scenario(description: "to the trash") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); return ["trash", folder + "/a.jpg"]
        },
        Scenario(description: "back from the trash (u)") { folder, _ in
            let trash = folder + "/data/Trash"
            mkdir(trash, 0o700); mkdir(trash + "/files", 0o700); mkdir(trash + "/info", 0o700)
            try copyPhoto(trash + "/files/a.jpg")
            TestImages.write(Array("[Trash Info]\nPath=\(folder)/a.jpg\nDeletionDate=2026-11-28T05:00:00\n".utf8), to: trash + "/info/a.jpg.trashinfo")
            return ["restore", folder + "/a.jpg", trash + "/files/a.jpg", trash + "/info/a.jpg.trashinfo"]
        },
        Scenario(description: "a caption, a new sidecar") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); return ["caption", folder + "/a.jpg", "Låtefossen, June"]
        },
        Scenario(description: "keywords, a new sidecar") { folder, _ in
            try copyPhoto(folder + "/a.jpg"); return ["keywords", folder + "/a.jpg", "iceland"]
        },
        Scenario(description: "a label, Lightroom's sidecar of a raw file") { folder, _ in
            raw(folder + "/IMG_1.NEF"); TestImages.write(Array(darktable.utf8), to: folder + "/IMG_1.xmp")
            return ["label", folder + "/IMG_1.NEF", "Green"]
        },
    ]

    /// Every file below the roots, by path, but photogrid's temporaries; a .trashinfo without
    /// its date (the time of the run). As `Data`, compared with memcmp and hashed by its first
    /// bytes: a 3 MB array hashed and compared byte by byte in a debug build took most of each
    /// kill's time.
    static func snapshot(_ roots: [String]) -> [String: Data] {
        var files: [String: Data] = [:]
        for root in roots {
            guard let walker = FileManager.default.enumerator(atPath: root) else { continue }
            for case let relative as String in walker {
                let path = root + "/" + relative
                guard RawPath(path).linkStatus()?.isRegular == true, !relative.contains(AtomicFile.marker) else { continue }
                var bytes = TestImages.read(path) ?? []
                if path.hasSuffix(".trashinfo") {
                    bytes = Array(String(decoding: bytes, as: UTF8.self).split(separator: "\n").filter { !$0.hasPrefix("DeletionDate=") }.joined(separator: "\n").utf8)
                }
                files[path] = Data(bytes)
            }
        }
        return files
    }

    static func temporaries(_ roots: [String]) -> [String] {
        roots.flatMap { root in (FileManager.default.enumerator(atPath: root)?.allObjects as? [String] ?? []).filter { $0.contains(AtomicFile.marker) } }
    }

    /// What is wrong with the folders after a kill, against before and after the whole write:
    /// a file at a path that is neither what was there nor what the write puts there (torn, or
    /// nobody's), or a file's bytes found nowhere though the finished write keeps them (lost).
    static func problems(killed: [String: Data], before: [String: Data], after: [String: Data]) -> [String] {
        var found: [String] = []
        let contents = Set(killed.values), kept = Set(after.values)
        for path in Set(before.keys).union(after.keys).union(killed.keys).sorted() {
            let now = killed[path], was = before[path], will = after[path]
            if now != nil && was == nil && will == nil { found.append(path + ": nobody's file"); continue }
            if now != was && now != will { found.append(path + (now == nil ? ": gone" : ": torn (neither before nor after)")); continue }
            if now == nil, let was, kept.contains(was), !contents.contains(was) { found.append(path + ": lost (its bytes are nowhere)") }
        }
        return found
    }

    struct Outcome { var points = 0, landed = 0, problems: [String] = [] }

    /// A scenario's folders, made afresh for each run; what they hold before and after the
    /// whole write; and the calls on them, each by its name and its place among that name's calls.
    final class Stage {
        let scenario: Scenario
        let folder = TestImages.scratchFolder("crash"), other: String
        var arguments: [String] = []
        var before: [String: Data] = [:], after: [String: Data] = [:]
        var points: [(name: String, ordinal: Int)] = []
        /// The calls that make or fill a file or folder, and did: where a full disk would fail.
        var filling: [(name: String, ordinal: Int)] = []
        var roots: [String] { [folder, other] }
        var environment: [String: String] { ["XDG_DATA_HOME": folder + "/data", "HOME": folder, "PATH": "/usr/bin:/bin"] }

        init(_ scenario: Scenario) throws {
            self.scenario = scenario
            var template = Array("/dev/shm/photogrid-crash-XXXXXX".utf8CString)
            other = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
            try reset()
            before = CrashConsistencyTests.snapshot(roots)
            let trace = folder + ".trace"
            defer { unlink(trace) }
            let whole = try Subprocess.run(["strace", "-f", "-qq", "-y", "-e", "trace=" + CrashConsistencyTests.calls, "-o", trace,
                                            CrashConsistencyTests.writer, "write"] + arguments, environment: environment)
            try #require(whole.status == 0, "\(scenario): \(String(decoding: whole.output, as: UTF8.self))")
            after = CrashConsistencyTests.snapshot(roots)
            var counts: [String: Int] = [:]
            for line in String(decoding: TestImages.read(trace) ?? [], as: UTF8.self).split(separator: "\n") {
                // "1234  name(...": strace pads the process number.
                let fields = line.split(separator: " ", maxSplits: 1)
                guard fields.count == 2, let paren = fields[1].firstIndex(of: "(") else { continue }
                let name = String(fields[1][..<paren]).trimmingCharacters(in: .whitespaces)
                counts[name, default: 0] += 1
                guard line.contains(folder) || line.contains(other) else { continue }
                points.append((name, counts[name]!))
                let made = !line.contains("= -1")
                if made && (["write", "fsync", "link", "mkdir"].contains(name) || (name == "openat" && line.contains("O_CREAT"))) {
                    filling.append((name, counts[name]!))
                }
            }
        }

        deinit { TestImages.remove(folder); TestImages.remove(other) }

        func reset() throws {
            TestImages.remove(folder); TestImages.remove(other)
            mkdir(folder, 0o755); mkdir(other, 0o755); mkdir(folder + "/data", 0o755)
            arguments = try scenario.setup(folder, other)
        }

        /// The writer run afresh with `injection` at the call given; its trace's lines and status.
        func inject(_ injection: String, at point: (name: String, ordinal: Int)) throws -> (lines: [Substring], result: Subprocess.Result) {
            try reset()
            let trace = folder + ".injected"
            defer { unlink(trace) }
            let result = try Subprocess.run(["strace", "-f", "-qq", "-y", "-e", "trace=" + CrashConsistencyTests.calls,
                                             "-e", "inject=\(point.name):\(injection):when=\(point.ordinal)", "-o", trace,
                                             CrashConsistencyTests.writer, "write"] + arguments, environment: environment)
            return (String(decoding: TestImages.read(trace) ?? [], as: UTF8.self).split(separator: "\n"), result)
        }
    }

    func run(_ scenario: Scenario) throws -> Outcome {
        let stage = try Stage(scenario)
        var outcome = Outcome()
        for point in stage.points {
            let (lines, _) = try stage.inject("signal=SIGKILL", at: point)
            let (name, ordinal) = point
            outcome.points += 1
            // Landed: the call it died on was the one meant, on these folders.
            if let last = lines.last(where: { !$0.contains("+++") }), last.contains(name + "("), last.contains(stage.folder) || last.contains(stage.other),
               lines.contains(where: { $0.contains("killed by SIGKILL") }) {
                outcome.landed += 1
            } else if ProcessInfo.processInfo.environment["CRASH_DEBUG"] != nil {
                print("MISSED \(scenario) \(name) #\(ordinal): \(lines.suffix(3))")
            }
            let killed = Self.snapshot(stage.roots)
            outcome.problems += Self.problems(killed: killed, before: stage.before, after: stage.after).map { "\(scenario), killed at \(name) #\(ordinal): " + $0 }
            // The next reading of the folders takes away what the killed writer left.
            for root in stage.roots {
                var scanner = FolderScanner()
                scanner.removesLeftovers = true
                _ = try? scanner.scan(RawPath(root))
            }
            let left = Self.temporaries(stage.roots)
            if !left.isEmpty { outcome.problems.append("\(scenario), killed at \(name) #\(ordinal): left after a reading: \(left)") }
            if Self.snapshot(stage.roots) != killed { outcome.problems.append("\(scenario), killed at \(name) #\(ordinal): a reading changed a file") }
        }
        return outcome
    }

    @Test(.enabled(if: CrashConsistencyTests.strace, "strace is not installed"))
    func aWriteKilledAtAnyCallLeavesEveryFileWholeAndFindable() throws {
        var total = Outcome(), table: [String] = []
        for scenario in Self.scenarios where ProcessInfo.processInfo.environment["CRASH_ONLY"].map({ scenario.description.contains($0) }) ?? true {
            let outcome = try run(scenario)
            table.append("| \(scenario) | \(outcome.points) | \(outcome.landed) | \(outcome.problems.isEmpty ? "whole" : "\(outcome.problems.count) problems") |")
            total.points += outcome.points
            total.landed += outcome.landed
            total.problems += outcome.problems
        }
        print((["| write | points | killed there | after |", "| --- | --- | --- | --- |"] + table + ["| all | \(total.points) | \(total.landed) | |"]).joined(separator: "\n"))
        #expect(total.problems.isEmpty, "\(total.problems.prefix(20).joined(separator: "\n"))")
        #expect(total.landed >= 200, "\(total.landed) kills landed on a call of the write")
    }

    /// A full disk (ENOSPC) at each call that makes or fills a file, and a read-only file system
    /// (EROFS) at each write's first such call: the write refused with the system's words, and
    /// every file as it was, no temporary left (the writer cleans up itself; no reading needed).
    @Test(.enabled(if: CrashConsistencyTests.strace, "strace is not installed"))
    func aFullDiskOrAReadOnlyFolderRefusesTheWriteAndLeavesFilesAsTheyWere() throws {
        var problems: [String] = [], runs = 0
        for scenario in Self.scenarios where ProcessInfo.processInfo.environment["CRASH_ONLY"].map({ scenario.description.contains($0) }) ?? true {
            let stage = try Stage(scenario)
            let filling = stage.filling
            let cases = filling.map { ("error=ENOSPC", $0, "No space left on device") } + filling.prefix(1).map { ("error=EROFS", $0, "Read-only file system") }
            for (injection, point, words) in cases {
                let (lines, result) = try stage.inject(injection, at: point)
                runs += 1
                let said = String(decoding: result.output, as: UTF8.self)
                let at = "\(scenario), \(injection) at \(point.name) #\(point.ordinal)"
                // The call failed as asked (an injection on a call the write no longer makes changes nothing).
                guard lines.contains(where: { $0.contains(point.name + "(") && $0.contains("(INJECTED)") }) else { continue }
                if result.status != 1 || !said.contains(words) { problems.append(at + ": not refused with the system's words (status \(result.status): \(said))") }
                if Self.snapshot(stage.roots) != stage.before { problems.append(at + ": files changed") }
                let left = Self.temporaries(stage.roots)
                if !left.isEmpty { problems.append(at + ": left \(left)") }
            }
        }
        print("full disk and read-only: \(runs) runs")
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
        #expect(runs >= 80, "\(runs) runs")
    }
}
