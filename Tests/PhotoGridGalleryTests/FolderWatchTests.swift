import Glibc
import Testing
@testable import PhotoGridGallery
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// The watch on a real folder through the kernel's inotify: what it says when files and folders
/// come and go, and what it leaves out.
@Suite struct FolderWatchTests {
    /// A watch on `root`, begun and walked.
    static func watching(_ root: String, quiet: Int = 100, changedSince: Int64? = nil) throws -> FolderWatch {
        let watch = try #require(FolderWatch(root: RawPath(root), maxDepth: 64, showHidden: false, quietMilliseconds: quiet,
                                             changedSince: changedSince))
        watch.begin()
        let deadline = SystemClock().now() + 10_000
        while !watch.isReady && SystemClock().now() < deadline { SystemClock.sleep(milliseconds: 5) }
        #expect(watch.isReady)
        return watch
    }

    /// Every change told until `done` holds of them, or 10 s.
    static func collect(_ watch: FolderWatch, until done: (Set<FolderWatch.Change>) -> Bool) -> Set<FolderWatch.Change> {
        var seen: Set<FolderWatch.Change> = []
        let deadline = SystemClock().now() + 10_000
        while !done(seen) && SystemClock().now() < deadline {
            seen.formUnion(watch.take())
            SystemClock.sleep(milliseconds: 10)
        }
        return seen
    }

    static func change(_ folder: String, whole: Bool) -> FolderWatch.Change {
        FolderWatch.Change(folder: RawPath(folder), whole: whole)
    }

    @Test func aPhotoWrittenOrMovedInIsItsFolderToReadAgain() throws {
        let root = TestImages.scratchFolder("watch-files")
        defer { TestImages.remove(root) }
        for dir in ["2019", "2019/2019-03-01", "2020"] { mkdir(root + "/" + dir, 0o755) }
        let watch = try Self.watching(root)
        TestImages.write([0xFF, 0xD8], to: root + "/2019/2019-03-01/a.jpg")
        let first = Self.collect(watch) { !$0.isEmpty }
        #expect(first == [Self.change("2019/2019-03-01", whole: false)])
        // A copier's way: a hidden name written, then renamed. The hidden name alone says nothing.
        TestImages.write([0xFF, 0xD8], to: root + "/2020/.b.jpg.part")
        rename(root + "/2020/.b.jpg.part", root + "/2020/b.jpg")
        #expect(Self.collect(watch) { !$0.isEmpty } == [Self.change("2020", whole: false)])
        unlink(root + "/2019/2019-03-01/a.jpg")
        #expect(Self.collect(watch) { !$0.isEmpty } == [Self.change("2019/2019-03-01", whole: false)])
    }

    @Test func aHiddenFileIsLeftOut() throws {
        let root = TestImages.scratchFolder("watch-hidden")
        defer { TestImages.remove(root) }
        for dir in ["a", "b"] { mkdir(root + "/" + dir, 0o755) }
        let watch = try Self.watching(root)
        TestImages.write([1], to: root + "/a/.notes")
        TestImages.write([0xFF, 0xD8], to: root + "/b/c.jpg")
        // Events come in order: had the hidden file counted, `a` would be told with `b` or before.
        let seen = Self.collect(watch) { $0.contains(Self.change("b", whole: false)) }
        #expect(seen == [Self.change("b", whole: false)])
    }

    @Test func aNewFolderIsReadWholeAndWatchedAtOnce() throws {
        let root = TestImages.scratchFolder("watch-folders")
        defer { TestImages.remove(root) }
        mkdir(root + "/2019", 0o755)
        let watch = try Self.watching(root, quiet: 300)
        // A new year and day at once, a photo in it straight away: one change, the new year whole.
        mkdir(root + "/2021", 0o755)
        mkdir(root + "/2021/2021-01-02", 0o755)
        TestImages.write([0xFF, 0xD8], to: root + "/2021/2021-01-02/x.jpg")
        let seen = Self.collect(watch) { !$0.isEmpty }
        #expect(seen == [Self.change("2021", whole: true)])
        // Its folders are watched now: a photo added later is seen there.
        SystemClock.sleep(milliseconds: 50)
        TestImages.write([0xFF, 0xD8], to: root + "/2021/2021-01-02/y.jpg")
        #expect(Self.collect(watch) { !$0.isEmpty } == [Self.change("2021/2021-01-02", whole: false)])
        // A folder removed: everything below it is read again (and found gone).
        TestImages.remove(root + "/2021")
        #expect(Self.collect(watch) { $0.contains(Self.change("2021", whole: true)) }.contains(Self.change("2021", whole: true)))
    }

    @Test func aCardCopiedInIsOneChange() throws {
        let root = TestImages.scratchFolder("watch-burst")
        defer { TestImages.remove(root) }
        mkdir(root + "/day", 0o755)
        let watch = try Self.watching(root, quiet: 200)
        for n in 0..<50 { TestImages.write([0xFF, 0xD8], to: root + "/day/\(n).jpg") }
        let first = Self.collect(watch) { !$0.isEmpty }
        SystemClock.sleep(milliseconds: 400)
        #expect(first == [Self.change("day", whole: false)])
        #expect(watch.take().isEmpty, "fifty files, one change")
    }

    @Test func foldersChangedBeforeTheWatchBeganAreReadAgain() throws {
        let root = TestImages.scratchFolder("watch-since")
        defer { TestImages.remove(root) }
        for dir in ["old", "new"] { mkdir(root + "/" + dir, 0o755) }
        let old = timespec(tv_sec: 1_000_000_000, tv_nsec: 0)
        var times = [old, old]
        #expect(utimensat(AT_FDCWD, root + "/old", &times, 0) == 0)
        #expect(utimensat(AT_FDCWD, root, &times, 0) == 0)
        let since = SystemClock().wallNanoseconds() - 60_000_000_000
        TestImages.write([0xFF, 0xD8], to: root + "/new/late.jpg")
        let watch = try Self.watching(root, changedSince: since)
        #expect(Self.collect(watch) { !$0.isEmpty } == [Self.change("new", whole: false)])
    }

    @Test func aWholeFolderCoversTheChangesBelowIt() {
        let change = Self.change("2021", whole: true)
        #expect(change.covers(RawPath("2021/2021-01-02/x.jpg")))
        #expect(change.covers(RawPath("2021/x.jpg")))
        #expect(!change.covers(RawPath("20210/x.jpg")))
        #expect(!change.covers(RawPath("2020/x.jpg")))
        let own = Self.change("2021", whole: false)
        #expect(own.covers(RawPath("2021/x.jpg")) && !own.covers(RawPath("2021/2021-01-02/x.jpg")))
        #expect(Self.change("", whole: false).covers(RawPath("top.jpg")))
        #expect(!Self.change("", whole: false).covers(RawPath("2021/x.jpg")))
    }

    @Test func theScannersOrderPutsAFoldersPhotosBeforeItsFolders() {
        #expect(FolderScanner.precedes(RawPath("a/z.jpg"), RawPath("a/b/x.jpg")))
        #expect(!FolderScanner.precedes(RawPath("a/b/x.jpg"), RawPath("a/z.jpg")))
        #expect(FolderScanner.precedes(RawPath("img2.jpg"), RawPath("img10.jpg")))
        #expect(FolderScanner.precedes(RawPath("2019/x.jpg"), RawPath("2020/a.jpg")))
        #expect(FolderScanner.precedes(RawPath("z.jpg"), RawPath("2019/a.jpg")))
    }

    @Test func eventsAreReadFromTheKernelsRecords() {
        // Two records: watch 1, IN_CLOSE_WRITE, cookie 0, a name padded to 16; watch 2, IN_IGNORED, no name.
        func word(_ v: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: v >> (8 * $0)) } }
        let name = Array("a.jpg".utf8) + [UInt8](repeating: 0, count: 11)
        let bytes = word(1) + word(Inotify.written) + word(0) + word(16) + name + word(2) + word(Inotify.ignored) + word(0) + word(0)
        let events = Inotify.parse(bytes[...])
        #expect(events == [Inotify.Event(watch: 1, mask: Inotify.written, name: Array("a.jpg".utf8)),
                           Inotify.Event(watch: 2, mask: Inotify.ignored, name: [])])
        // A record cut short ends the reading, without reading past the bytes.
        #expect(Inotify.parse(bytes[..<20]).isEmpty)
        #expect(Inotify.parse((word(1) + word(0) + word(0) + word(4096))[...]).isEmpty)
    }
}
