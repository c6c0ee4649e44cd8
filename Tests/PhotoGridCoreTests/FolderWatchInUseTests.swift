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
}
