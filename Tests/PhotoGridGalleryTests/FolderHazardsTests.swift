import Foundation
import Glibc
import Testing
@testable import PhotoGridMetadata
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Folders as users have them: things that are not files, files photogrid may not read, links
/// that lead nowhere or round in circles, photos that change while they are on screen, and a
/// hundred thousand entries. The rest of the folder always works.
@Suite(.startsPrograms, .serialized) struct FolderHazardsTests {
    static let sample = Paths.gallery + "/travel/beach-01.jpg"
    static let other = Paths.gallery + "/night/aurora-01.jpg"

    func copy(_ source: String, to path: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: path)
    }

    /// The command that runs photogrid as a user who cannot read what root can: the tests run as
    /// root in CI, where chmod 000 would stop nothing.
    static func unprivileged(_ arguments: [String]) -> [String] {
        getuid() == 0 ? ["setpriv", "--reuid=65534", "--regid=65534", "--clear-groups"] + arguments : arguments
    }

    @Test func unreadableFilesFIFOsLinksAndOddNamesLeaveTheRestWorking() throws {
        let root = TestImages.scratchFolder("hazards")
        defer { _ = try? Subprocess.run(["chmod", "-R", "u+rwx", root]); TestImages.remove(root) }
        chmod(root, 0o755)
        try copy(Self.sample, to: root + "/good.jpg")
        #expect(mkfifo(root + "/fifo.jpg", 0o644) == 0)             // would block a reader that opened it plainly
        mkdir(root + "/folder.jpg", 0o755)                            // a folder with a photo's name
        try copy(Self.other, to: root + "/folder.jpg/inside.jpg")
        symlink(root, root + "/folder.jpg/loop")                       // round in a circle
        symlink(root + "/nowhere.jpg", root + "/dangling.jpg")
        try copy(Self.sample, to: root + "/locked.jpg")
        chmod(root + "/locked.jpg", 0o000)
        mkdir(root + "/locked-folder", 0o755)
        try copy(Self.sample, to: root + "/locked-folder/hidden-away.jpg")
        chmod(root + "/locked-folder", 0o000)
        let latin1 = RawPath(root).appending(Array("caf".utf8) + [0xE9] + Array(".jpg".utf8))
        let bytes = try FileReader.read(RawPath(Self.other))
        let fd = latin1.withCString { open($0, O_WRONLY | O_CREAT, 0o644) }
        _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        close(fd)

        let home = TestImages.scratchFolder("hazards-cache")
        defer { TestImages.remove(home) }
        chmod(home, 0o777)
        let result = try Subprocess.run(Self.unprivileged([Paths.binary, "--print", "--mode", "halfblock", "--size", "150x60",
                                                           "--columns", "5", "--labels", root]), environment: ["XDG_CACHE_HOME": home])
        #expect(result.status == 0, "\(result.errorText)")
        let text = String(decoding: result.output, as: UTF8.self)
        // good, folder.jpg/inside, dangling, locked, café: the FIFO and the locked folder's
        // contents are not photos photogrid can list, and the loop is walked once.
        for name in ["good.jpg", "inside.jpg", "dangling.jpg", "locked.jpg", "caf"] { #expect(text.contains(name), "\(name) is not listed") }
        #expect(!text.contains("hidden-away"))
        // The folder it cannot enter is named, and why: a tree never looks whole when it is not.
        #expect(result.errorText.contains("left out: 1 folder photogrid cannot read (locked-folder: permission denied)"), "\(result.errorText)")
        #expect(text.components(separatedBy: "unreadable").count - 1 == 2, "dangling.jpg and locked.jpg say why")
        // good.jpg, inside.jpg and the Latin-1 name are drawn: three tiles of half-blocks.
        #expect(text.components(separatedBy: "▀").count > 3 * 70, "the three readable photos are drawn")
    }

    /// In the grid: a folder photogrid cannot enter, and a disk cache it cannot write, are said on
    /// the status line once, with what was left out.
    @Test func whatTheGridLeavesOutIsSaidOnTheStatusLine() throws {
        let root = TestImages.scratchFolder("left-out")
        let home = TestImages.scratchFolder("left-out-cache")
        defer { _ = try? Subprocess.run(["chmod", "-R", "u+rwx", root, home]); TestImages.remove(root); TestImages.remove(home) }
        chmod(root, 0o755)
        for name in ["a.jpg", "b.jpg"] { try copy(Self.sample, to: root + "/" + name) }
        mkdir(root + "/Private", 0o755)
        for name in ["c.jpg", "d.jpg"] { try copy(Self.other, to: root + "/Private/" + name) }
        chmod(root + "/Private", 0o000)
        mkdir(home + "/photogrid", 0o555)
        chmod(home, 0o555)
        let command = Self.unprivileged([Paths.binary, "--mode", "halfblock", "--no-stacks", root]).joined(separator: " ")
        let tmux = try Tmux(columns: 180, rows: 30, command: command, environment: ["XDG_CACHE_HOME": home])
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of 2") }
        #expect(ok && screen.contains("left out: 1 folder photogrid cannot read (Private: permission denied)"), "\(screen)")
        try tmux.send("l")
        (ok, screen) = try tmux.waitFor { $0.contains("2 of 2") }
        #expect(ok && !screen.contains("left out"), "said once: \(screen)")
        // Ctrl-R reads the folder again and says it again.
        try tmux.send("C-r")
        (ok, screen) = try tmux.waitFor { $0.contains("left out: 1 folder") }
        #expect(ok, "\(screen)")
        // Without the folder, the cache that cannot be written is what is said.
        chmod(root + "/Private", 0o755)
        let again = try Tmux(columns: 180, rows: 30, command: command, environment: ["XDG_CACHE_HOME": home])
        (ok, screen) = try again.waitFor { $0.contains("1 of 4") }
        #expect(ok && screen.contains("disk cache off: \(home)/photogrid cannot be written"), "\(screen)")
        let printed = try Subprocess.run(Self.unprivileged([Paths.binary, "--print", "--mode", "halfblock", "--size", "80x20", root]),
                                         environment: ["XDG_CACHE_HOME": home])
        #expect(printed.errorText.contains("disk cache off"), "\(printed.errorText)")
    }

    static func brightness(_ screen: String) -> Double { Tmux.brightness(screen) }

    /// A photo replaced by a different picture, and another deleted, while photogrid shows them:
    /// Ctrl-R draws the new picture; the deleted one's view says it is gone, and Ctrl-R in the
    /// grid takes it out; nothing traps.
    @Test func photosReplacedOrDeletedWhileOnScreenAreReloadedByCtrlR() throws {
        let root = TestImages.scratchFolder("changing")
        defer { TestImages.remove(root) }
        for name in ["a.jpg", "b.jpg", "c.jpg"] { try copy(Self.sample, to: root + "/" + name) }
        // Without the folder's watch, which would take the changes before Ctrl-R: this is about Ctrl-R.
        let tmux = try Tmux(columns: 90, rows: 30, command: "\(Paths.binary) --mode halfblock --no-watch --columns 3 \(root)",
                            environment: ["COLORTERM": "truecolor"])
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of 3") && !$0.contains("loading") }
        #expect(ok, "\(screen)")
        let beaches = Self.brightness(try tmux.screen(escapes: true))

        // b.jpg becomes the night sky: darker.
        unlink(root + "/b.jpg")
        try copy(Self.other, to: root + "/b.jpg")
        try tmux.send("C-r")
        (ok, screen) = try tmux.waitFor(escapes: true) { Self.brightness($0) < beaches - 20 && !$0.contains("loading") }
        #expect(ok, "the replaced photo was not drawn anew: brightness \(beaches) then \(Self.brightness(screen))")

        // c.jpg goes while its photo view is open: the view says it is gone. Back in the grid,
        // Ctrl-R reads the folder again and it is no longer there.
        try tmux.send("G", "Enter")
        (ok, screen) = try tmux.waitFor { $0.contains("3 of 3") && $0.contains("fit") }
        unlink(root + "/c.jpg")
        try tmux.send("C-r")
        (ok, screen) = try tmux.waitFor { $0.contains("gone (deleted or moved)") }
        #expect(ok, "the deleted photo does not say why: \(screen)")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("3 of 3") && $0.contains("columns") }
        #expect(ok, "\(screen)")
        try tmux.send("C-r")
        (ok, screen) = try tmux.waitFor { $0.contains("2 of 2") && $0.contains("0 added, 1 removed") }
        #expect(ok, "Ctrl-R did not take the deleted photo out: \(screen)")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
    }

    /// A hundred thousand photos (hard links): listed, sorted and the first screen drawn in one
    /// go, in bounded memory.
    @Test func aHundredThousandEntries() throws {
        let root = TestImages.scratchFolder("many")
        defer { TestImages.remove(root) }
        // A file can have at most 65,000 names on ext4: four copies share the links.
        let sources = (0..<4).map { root + "/source-\($0).jpg" }
        for source in sources { try copy(Self.sample, to: source) }
        var failed = 0
        for index in 0..<(100_000 - sources.count) {
            let name = root + "/" + String(String(1_000_000 + index).dropFirst()) + ".jpg"
            if link(sources[index % sources.count], name) != 0 { failed += 1 }
        }
        try #require(failed == 0, "\(failed) links could not be made")
        let home = TestImages.scratchFolder("many-cache")
        defer { TestImages.remove(home) }
        let result = try Subprocess.runMeasuringMemory([Paths.binary, "--print", "--mode", "halfblock", "--size", "120x40",
                                                        "--columns", "6", "--labels", root], environment: ["XDG_CACHE_HOME": home])
        #expect(result.status == 0, "\(result.errorText)")
        // In natural order the first names are 000000.jpg to 000005.jpg (the sources last).
        let text = String(decoding: result.output, as: UTF8.self)
        #expect(text.contains("000000.jpg") && text.contains("000005.jpg") && !text.contains("source-"))
        // A sanitizer's shadow memory and quarantine are not photogrid's.
        #expect(Paths.sanitizer != nil || result.maxResidentKilobytes < 400 * 1024, "peak \(result.maxResidentKilobytes / 1024) MB")
    }
}
