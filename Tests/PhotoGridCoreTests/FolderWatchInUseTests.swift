import Glibc
import Testing
@testable import PhotoGridSystem
import PhotoGridSamples
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The library kept true while open, as a user sees it: a photo copied into a new day folder
/// appears in its month without a key, and one deleted goes.
@Suite(.startsPrograms, .serialized) struct FolderWatchInUseTests: PhotogridInTmux {
    static func writePhoto(_ root: String, _ path: String, taken: String) throws {
        #expect(RawPath(root + "/" + path).parent.makeDirectories(permissions: 0o755))
        TestImages.write(try MetadataFixtures.jpeg(exif: ExifFields(dateTimeOriginal: taken)), to: root + "/" + path)
    }

    @Test func aPhotoCopiedInAppearsInItsMonthWithoutAKey() throws {
        let root = TestImages.scratchFolder("watch-library")
        let home = TestImages.scratchFolder("watch-library-cache")
        defer { TestImages.remove(root); TestImages.remove(home) }
        try Self.writePhoto(root, "2019/2019-03-01/a.jpg", taken: "2019:03:01 10:00:00")
        try Self.writePhoto(root, "2020/2020-07-04/b.jpg", taken: "2020:07:04 10:00:00")
        let tmux = try start("--columns 6 '\(root)'", environment: ["XDG_CACHE_HOME": home])
        var (ok, screen) = try tmux.waitFor { status($0).contains("1 of 2") }
        #expect(ok, "\(screen)")
        try tmux.send("-")
        try tmux.send("-")
        (ok, screen) = try tmux.waitFor { $0.contains("March 2019") && $0.contains("July 2020") && status($0).contains("months") }
        #expect(ok, "\(screen)")
        // Copied in as copiers do (a hidden name, then renamed), into a year and a day not there before.
        try Self.writePhoto(root, "2018/2018-09-10/.c.jpg.part", taken: "2018:09:10 10:00:00")
        #expect(rename(root + "/2018/2018-09-10/.c.jpg.part", root + "/2018/2018-09-10/c.jpg") == 0)
        (ok, screen) = try tmux.waitFor { $0.contains("September 2018") && status($0).contains("of 3") }
        #expect(ok, "the new photo in its month: \(screen)")
        #expect(!screen.contains(".c.jpg.part"))
        unlink(root + "/2020/2020-07-04/b.jpg")
        (ok, screen) = try tmux.waitFor { !$0.contains("July 2020") && status($0).contains("of 2") }
        #expect(ok, "the deleted photo gone: \(screen)")
        try tmux.send("q")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "\(screen)")
    }

    /// A photo deleted, seen gone, then written anew under its name with another picture (an
    /// editor's save, rsync's replace): drawn anew, not from the tiles of the old one.
    @Test func aPhotoWrittenAnewUnderItsNameIsDrawnAnew() throws {
        let root = TestImages.scratchFolder("watch-replace")
        defer { TestImages.remove(root) }
        let bright = Paths.gallery + "/landscapes/autumn-01.jpg", dark = Paths.gallery + "/night/night-01.jpg"
        for name in ["a.jpg", "b.jpg"] { TestImages.write(TestImages.read(bright) ?? [], to: root + "/" + name) }
        // Two copies of one photo would be one stack.
        let tmux = try start("--no-stacks --columns 2 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 2") && !$0.contains("loading") }
        #expect(ok, "\(screen)")
        let before = Tmux.brightness(try tmux.screen(escapes: true))
        unlink(root + "/b.jpg")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 1") }
        #expect(ok, "the deleted photo gone: \(screen)")
        TestImages.write(TestImages.read(dark) ?? [], to: root + "/b.jpg")
        (ok, screen) = try tmux.waitFor(escapes: true) {
            self.status($0).contains("1 of 2") && !$0.contains("loading") && Tmux.brightness($0) < before - 20
        }
        #expect(ok, "the new picture drawn: brightness \(before) then \(Tmux.brightness(screen))")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }
}
