import Glibc
import Testing
@testable import PhotoGridCatalog
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// The catalog on a real SQLite file: what is kept comes back, a changed or damaged file is made
/// again, and two connections on one file read and write at once (WAL).
@Suite struct CatalogTests {
    static func entry(_ n: Int) -> CatalogEntry {
        var entry = CatalogEntry(stamp: FileStamp(size: 1_000 + n, modified: 1_700_000_000_000_000_000 + Int64(n)),
                                 taken: n % 3 == 0 ? nil : 1_500_000_000 + Int64(n) * 86_400)
        entry.width = 4000
        entry.height = 3000
        entry.make = "FUJIFILM"
        entry.model = "X100V"
        entry.lens = n % 2 == 0 ? "23mm" : nil
        entry.iso = 100 * (n + 1)
        entry.fNumber = 2.0
        entry.exposureTime = 1.0 / 250
        entry.focalLength = 23
        entry.hasGPS = n % 2 == 1
        entry.rating = n % 6
        entry.label = n == 1 ? "Red" : nil
        entry.keywords = n == 2 ? ["iceland", "glacier"] : []
        return entry
    }

    static let root = RawPath("/home/me/Pictures")

    static func entries(_ count: Int) -> [(path: RawPath, entry: CatalogEntry)] {
        (0..<count).map { (RawPath("2019/2019-07-0\($0 % 9 + 1)/IMG_\(1000 + $0).JPG"), entry($0)) }
    }

    @Test func whatIsRecordedComesBackAfterReopening() throws {
        let folder = TestImages.scratchFolder("catalog-reopen")
        defer { TestImages.remove(folder) }
        let path = folder + "/catalog.sqlite"
        let written = Self.entries(20)
        try Catalog(path: path).record(written, under: Self.root)
        let catalog = try Catalog(path: path)
        #expect(catalog.takeNotices().isEmpty)
        let read = try catalog.entries(under: Self.root)
        #expect(read.count == 20)
        for (path, entry) in written { #expect(read[path] == entry, "\(path)") }
        // Recorded again with another stamp: replaced, not added.
        var changed = written[4]
        changed.entry.stamp.size += 1
        changed.entry.taken = nil
        try catalog.record([changed], under: Self.root)
        #expect(try catalog.count() == 20)
        #expect(try catalog.entries(under: Self.root)[changed.path] == changed.entry)
    }

    /// Paths are bytes (a name need not be UTF-8), and a folder's photos are only its own: not a
    /// sibling whose name starts the same.
    @Test func aFolderHoldsOnlyWhatIsUnderIt() throws {
        let catalog = try Catalog(path: nil)
        let odd = RawPath([0x66, 0xE9, 0x2E, 0x6A, 0x70, 0x67])       // "fé.jpg" in Latin-1
        try catalog.record([(odd, Self.entry(1))], under: RawPath("/p/a"))
        try catalog.record([(RawPath("x.jpg"), Self.entry(2))], under: RawPath("/p/ab"))
        try catalog.record([(RawPath("b/y.jpg"), Self.entry(3))], under: RawPath("/p/a/"))
        let underA = try catalog.entries(under: RawPath("/p/a"))
        #expect(Set(underA.keys) == [odd, RawPath("b/y.jpg")])
        #expect(try catalog.entries(under: RawPath("/p/a/b")).keys.map(\.description) == ["y.jpg"])
        #expect(try catalog.entries(under: RawPath("/")).count == 3)
    }

    /// Garbage where the catalog was, or a file cut short: made again, with a notice, and it works.
    @Test(arguments: ["garbage", "cut"])
    func aDamagedFileIsMadeAgainWithANotice(_ damage: String) throws {
        let folder = TestImages.scratchFolder("catalog-damaged")
        defer { TestImages.remove(folder) }
        let path = folder + "/catalog.sqlite"
        try Catalog(path: path).record(Self.entries(200), under: Self.root)
        let file = try FileDescriptor.open(RawPath(path), .readWrite)
        if damage == "garbage" {
            try file.writeAll(Array(repeating: 0x5A, count: 4096))
        } else {
            #expect(ftruncate(file.raw, 3000) == 0)
        }
        try file.close()
        _ = RawPath(path + "-wal").remove()
        let catalog = try Catalog(path: path)
        var entries = try catalog.entries(under: Self.root)
        let notices = catalog.takeNotices()
        #expect(notices.count == 1 && notices[0].contains("damaged"), "\(notices)")
        #expect(entries.isEmpty)
        try catalog.record(Self.entries(3), under: Self.root)
        entries = try catalog.entries(under: Self.root)
        #expect(entries.count == 3)
        #expect(catalog.takeNotices().isEmpty)
    }

    /// A file of another version of the schema is made again, without a word.
    @Test func anotherVersionsFileIsMadeAgain() throws {
        let folder = TestImages.scratchFolder("catalog-version")
        defer { TestImages.remove(folder) }
        let path = folder + "/catalog.sqlite"
        do {
            let database = try SQLiteDatabase(path: path)
            try database.execute("CREATE TABLE photo (path TEXT); INSERT INTO photo VALUES ('old'); PRAGMA user_version = 99;")
        }
        let catalog = try Catalog(path: path)
        #expect(try catalog.count() == 0)
        #expect(catalog.takeNotices().isEmpty)
        let database = try SQLiteDatabase(path: path)
        #expect(try database.integer("PRAGMA user_version") == Catalog.version)
        #expect(try database.text("PRAGMA journal_mode") == "wal")
    }

    /// Two connections on one file, as two photogrids on one library: a reader in the middle of
    /// its read does not stop the writer's commit, and sees the file as it was when it began.
    /// In SQLite's rollback journal the commit would wait for the reader and fail busy.
    @Test func aReaderDoesNotStopAWriter() throws {
        let folder = TestImages.scratchFolder("catalog-wal")
        defer { TestImages.remove(folder) }
        let path = folder + "/catalog.sqlite"
        let writer = try Catalog(path: path)
        try writer.record(Self.entries(10), under: Self.root)
        let reader = try SQLiteDatabase(path: path, busyMilliseconds: 0)
        try reader.execute("BEGIN")
        #expect(try reader.integer("SELECT count(*) FROM photo") == 10)
        try writer.record(Array(Self.entries(30).suffix(20)), under: Self.root)     // committed while the read is open
        #expect(try reader.integer("SELECT count(*) FROM photo") == 10)
        try reader.execute("COMMIT")
        #expect(try reader.integer("SELECT count(*) FROM photo") == 30)
    }

    /// A folder where no file can be made: an error to say, not a crash.
    @Test func aFolderThatCannotBeWrittenIsAnError() {
        #expect(throws: SQLiteError.self) { try Catalog(path: "/proc/photogrid-catalog/catalog.sqlite") }
    }

    /// The part of a filter SQLite answers reads only the rows that can match, and the photos
    /// found are the same as when every row is read and matched here: photos the catalog knows,
    /// one it knows from an older file, and ones it does not know at all.
    @Test func whatSQLiteAnswersFindsTheSamePhotos() throws {
        let catalog = try Catalog(path: nil)
        let written = Self.entries(60)
        try catalog.record(written, under: Self.root)
        let gallery = GalleryCatalog(catalog: catalog, root: Self.root)
        var photos = written.map { path, entry in
            Photo(path: Self.root.appending(path.bytes), relativePath: path, fileSize: entry.stamp.size, format: .jpeg, stamp: entry.stamp)
        }
        // Changed since it was read: its row is not its own any more.
        let stale = photos[7]
        photos[7] = Photo(path: Self.root.appending(stale.relativePath.bytes), relativePath: stale.relativePath, fileSize: 5, format: .jpeg, stamp: FileStamp(size: 5, modified: 5))
        photos.append(Photo(path: RawPath("/home/me/Pictures/new/harbour.jpg"), relativePath: RawPath("new/harbour.jpg"), format: .jpeg,
                            stamp: FileStamp(size: 9, modified: 9)))
        let rows = Dictionary(uniqueKeysWithValues: written.map { ($0.path, $0.entry) })
        for text in ["2017", "2016..2017 iso>=1000", "has:gps f:2", "has:gps or 2017-05", "shutter:1/250 focal>=20",
                     "iso<=900 has:date", "rating>=3 has:gps", "harbour or has:gps", "-has:gps", "camera:x100v"] {
            let query = try PhotoQuery(parsing: text)
            let expected = Set(photos.filter { photo in
                let entry = rows[photo.relativePath].flatMap { $0.stamp == photo.stamp ? $0 : nil }
                return query.matches(PhotoQuery.Facts(photo: photo, entry: entry))
            }.map(\.source))
            #expect(gallery.matching(query, among: photos) == expected, "\(text)")
        }
        // Which of them SQLite answers at all: a group with nothing it knows reads every row.
        #expect(try PhotoQuery(parsing: "2016..2017 iso>=1000").catalogCondition != nil)
        #expect(try PhotoQuery(parsing: "has:gps or 2017-05").catalogCondition != nil)
        #expect(try PhotoQuery(parsing: "harbour or has:gps").catalogCondition == nil)
        #expect(try PhotoQuery(parsing: "camera:x100v").catalogCondition == nil)
        #expect(try PhotoQuery(parsing: "-has:gps").catalogCondition == nil)
    }
}
