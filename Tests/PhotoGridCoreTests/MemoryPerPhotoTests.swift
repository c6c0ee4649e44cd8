import Glibc
import Testing
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// What grows with the number of photos, outside the memory budget: the README states it as
/// bytes a photo, and this checks the statement on a tree of 100,000 photos browsed with the
/// smallest budget (issue 52: `--cache-mb 16` on a million photos settled at 412 MB).
@Suite(.startsPrograms, .serialized) struct MemoryPerPhotoTests {
    /// The README's bound: bytes a photo held while browsing, and at the peak while a tree is
    /// read (measured at 100,000 photos in a debug build: 361 and 455 once photos had
    /// identities, the reading handing over only what is new; 437 and 497 before the pipeline
    /// stopped keeping every photo's file stamp a second time).
    static let restingBytesPerPhoto = 400, peakBytesPerPhoto = 500

    /// 100 folders of 1,000 names under `root` (or `perFolder` names in one), hard links to four
    /// copies of one photo (a file takes at most 65,000 names on ext4); how many photos.
    static func tree(_ root: String, folders: Int, perFolder: Int) throws -> Int {
        let sources = (0..<4).map { root + "/source-\($0).jpg" }
        for source in sources { TestImages.write(TestImages.read(Paths.gallery + "/landscapes/autumn-01.jpg") ?? [], to: source) }
        var failed = 0
        for folder in 0..<folders {
            let path = root + "/" + String(String(1000 + folder).dropFirst())
            mkdir(path, 0o755)
            for index in 0..<perFolder where link(sources[(folder + index) % 4], path + "/IMG_\(100_000 + folder * 1000 + index).jpg") != 0 {
                failed += 1
            }
        }
        try #require(failed == 0, "\(failed) links could not be made")
        return folders * perFolder + sources.count
    }

    /// photogrid browsing `root` at the smallest budget, once every photo is read and the screen
    /// drawn: its peak and resident memory, in KB.
    static func browse(_ root: String, photos: Int) throws -> (peakKB: Int, residentKB: Int) {
        // --no-stacks: the tree is hard links to four copies of one photo, which stack.
        let tmux = try Tmux(columns: 120, rows: 40, command: "\(Paths.binary) --mode halfblock --no-stacks --cache-mb 16 '\(root)'")
        let (ok, screen) = try tmux.waitFor(seconds: 60) { $0.contains("of \(photos)") && !$0.contains("reading") && !$0.contains("loading") }
        #expect(ok, "\(screen)")
        tmux.waitForQuiet(0.5)
        let shell = try tmux.pid()
        let child = String(decoding: try Subprocess.run(["pgrep", "-P", "\(shell)", "-x", "photogrid"]).output, as: UTF8.self)
            .split(separator: "\n").first
        let pid = try #require(child.flatMap { Int32($0) }, "photogrid's process not found under \(shell)")
        let usage = PtyTerminal.usage(pid)
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
        return (usage.peakKB, usage.residentKB)
    }

    @Test func aLargeTreeCostsWhatTheReadmeSaysAPhoto() throws {
        // A sanitizer's shadow memory and quarantine are not photogrid's.
        guard Paths.sanitizer == nil else { return }
        let small = TestImages.scratchFolder("per-photo-small"), large = TestImages.scratchFolder("per-photo-large")
        defer { TestImages.remove(small); TestImages.remove(large) }
        let few = try Self.tree(small, folders: 1, perFolder: 20), many = try Self.tree(large, folders: 100, perFolder: 1000)
        let base = try Self.browse(small, photos: few), big = try Self.browse(large, photos: many)
        let resting = (big.residentKB - base.residentKB) * 1024 / (many - few), peak = (big.peakKB - base.peakKB) * 1024 / (many - few)
        print("per photo: \(resting) bytes resident, \(peak) at the peak (\(many) photos: \(big.residentKB / 1024) MB, peak \(big.peakKB / 1024) MB)")
        #expect(resting <= Self.restingBytesPerPhoto, "\(resting) bytes a photo resident (\(base.residentKB) KB, then \(big.residentKB) KB)")
        #expect(peak <= Self.peakBytesPerPhoto, "\(peak) bytes a photo at the peak (\(base.peakKB) KB, then \(big.peakKB) KB)")
        // And the whole stays within the budget, its 100 MB and that cost.
        #expect(big.residentKB <= (16 + 100) * 1024 + many * Self.restingBytesPerPhoto / 1024)
    }
}
