import Foundation
import Glibc
import Testing
@testable import PhotoGridCatalog
@testable import PhotoGridCore
@testable import PhotoGridDecoding
@testable import PhotoGridDiskCache
@testable import PhotoGridGallery
@testable import PhotoGridLoading
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridPipeline
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Natural name order, each folder's photos together, the same folder reached twice through a
/// link shown once under its own path, hidden files, and the other sort keys.
struct OrderTests {
    @Test func namesInNaturalOrderWithoutRegardToCase() {
        let names = ["IMG_10.jpg", "img_3.jpg", "IMG_2.jpg", "a.jpg", "IMG_0001.JPG", "B.jpg", "img_02.jpg"]
        let sorted = names.sorted { NaturalOrder.precedes(Array($0.utf8), Array($1.utf8)) }
        #expect(sorted == ["a.jpg", "B.jpg", "IMG_0001.JPG", "IMG_2.jpg", "img_02.jpg", "img_3.jpg", "IMG_10.jpg"])
        // A total order: names equal but for case or zeros still have one place each.
        #expect(NaturalOrder.precedes(Array("IMG_2.jpg".utf8), Array("img_02.jpg".utf8)) != NaturalOrder.precedes(Array("img_02.jpg".utf8), Array("IMG_2.jpg".utf8)))
        // Digits beyond any integer type are still compared by value.
        #expect(NaturalOrder.precedes(Array("x99999999999999999999999.jpg".utf8), Array("x100000000000000000000000.jpg".utf8)))
    }

    @Test func aFoldersPhotosComeBeforeItsSubfoldersAndStayTogether() {
        let paths = ["b/2.jpg", "z.jpg", "a/x.jpg", "b/10.jpg", "b/c/1.jpg", "A.jpg", "b/1.jpg"]
        let sorted = NaturalOrder.sorted(paths) { Array($0.utf8) }
        #expect(sorted == ["A.jpg", "z.jpg", "a/x.jpg", "b/1.jpg", "b/2.jpg", "b/10.jpg", "b/c/1.jpg"])
    }

    @Test func theScannerOrdersNaturallyHidesDotFilesAndShowsALinkedFolderOnceUnderItsOwnPath() throws {
        let root = TestImages.scratchFolder("order")
        defer { TestImages.remove(root) }
        let jpeg = try FileReader.read(RawPath(Paths.gallery + "/travel/beach-01.jpg"))
        for folder in ["zz-real", ".hidden-folder", "sub"] { mkdir(root + "/" + folder, 0o755) }
        // Listed first by most file systems' order or not: "aa-link" sorts before "zz-real".
        symlink(root + "/zz-real", root + "/aa-link")
        for name in ["IMG_10.jpg", "img_3.jpg", "IMG_2.jpg", ".dot.jpg", "zz-real/inside.jpg", ".hidden-folder/h.jpg", "sub/s.jpg"] {
            try Data(jpeg).write(to: URL(fileURLWithPath: root + "/" + name))
        }
        let photos = try FolderScanner().scan(RawPath(root)).map(\.relativePath.description)
        #expect(photos == ["IMG_2.jpg", "img_3.jpg", "IMG_10.jpg", "sub/s.jpg", "zz-real/inside.jpg"])
        var scanner = FolderScanner()
        scanner.showHidden = true
        let all = try scanner.scan(RawPath(root)).map(\.relativePath.description)
        #expect(all == [".dot.jpg", "IMG_2.jpg", "img_3.jpg", "IMG_10.jpg", ".hidden-folder/h.jpg", "sub/s.jpg", "zz-real/inside.jpg"])
    }

    /// Photos are found in the order they are shown, so the grid can start with the first ones
    /// found: what the scanner has at 256 photos is the start of its final list.
    @Test func photosAreFoundInTheOrderTheyAreShown() throws {
        let root = TestImages.scratchFolder("found")
        defer { TestImages.remove(root) }
        for folder in ["b", "A", "a10", "a9"] { mkdir(root + "/" + folder, 0o755) }
        var names = (0..<20).map { "top-\($0).jpg" }
        for folder in ["b", "A", "a10", "a9"] { names += (0..<80).map { "\(folder)/IMG_\($0 % 2 == 0 ? "" : "x")\($0).JPG" } }
        for name in names.shuffled() { TestImages.write([0xFF, 0xD8], to: root + "/" + name) }
        var scanner = FolderScanner()
        var first: [Photo] = []
        scanner.progress = { count, photos in if first.isEmpty { first = photos() } }
        let all = try scanner.scan(RawPath(root))
        #expect(all.count == 340 && first.count == 256)
        #expect(first.map(\.relativePath) == all.prefix(256).map(\.relativePath))
        #expect(all.first?.relativePath.description == "top-0.jpg" && all[20].relativePath.description.hasPrefix("A/"))
    }

    @Test func otherKeysAndReverseKeepNameOrderForTies() {
        func photo(_ name: String, size: Int, modified: Int64) -> Photo {
            Photo(path: RawPath("/g/" + name), relativePath: RawPath(name), fileSize: size, stamp: FileStamp(size: size, modified: modified))
        }
        let photos = [photo("c.jpg", size: 30, modified: 1), photo("a.jpg", size: 10, modified: 3), photo("b.jpg", size: 10, modified: 2)]
        func names(_ order: PhotoOrder) -> [String] { order.apply(photos).map(\.name) }
        #expect(names(PhotoOrder(.name)) == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(names(PhotoOrder(.mtime)) == ["c.jpg", "b.jpg", "a.jpg"])
        #expect(names(PhotoOrder(.size)) == ["a.jpg", "b.jpg", "c.jpg"])
        #expect(names(PhotoOrder(.size, reversed: true)) == ["c.jpg", "b.jpg", "a.jpg"])
        #expect(PhotoOrder(.size).nextKey == PhotoOrder(.name))
    }
}

/// The date order: EXIF's capture time, the file's time where it has none or an absurd one, read
/// in the background, kept in the disk cache.
@Suite(.serialized) struct DateOrderTests {
    @Test func captureDatesParseAndAbsurdOnesAreRefused() {
        let a = CaptureDate.parse("2024:07:14 19:42:05"), b = CaptureDate.parse("2024-07-14 19:42:06")
        #expect(a != nil && b != nil && a! + 1 == b!)
        #expect(CaptureDate.parse("1970:01:01 00:00:00") == 0)
        for absurd in ["0000:00:00 00:00:00", "2024:13:01 10:00:00", "1200:01:01 10:00:00", "9999:01:01 10:00:00",
                       "2024:07:14", "    :  :     :  :  ", "2024:07:14 25:00:00", "20x4:07:14 10:00:00"] {
            #expect(CaptureDate.parse(absurd) == nil, "\(absurd)")
        }
        #expect(CaptureDate.parse(nil) == nil)
    }

    /// Three photos: one taken in 2010, one in 2020, one with no date but a file time of 2015, and
    /// one whose camera clock was never set (a file time of 2000).
    static func makeFolder() throws -> String {
        let root = TestImages.scratchFolder("dates")
        func write(_ name: String, date: String?, fileTime: String) throws {
            let exif = date.map { ExifFields(dateTimeOriginal: $0) }
            TestImages.write(try MetadataFixtures.jpeg(exif: exif), to: root + "/" + name)
            _ = try Subprocess.run(["touch", "-d", fileTime, root + "/" + name])
        }
        try write("a-2020.jpg", date: "2020:05:01 12:00:00", fileTime: "2001-01-01")
        try write("b-none-2015.jpg", date: nil, fileTime: "2015-06-01")
        try write("c-2010.jpg", date: "2010:03:01 08:00:00", fileTime: "2022-01-01")
        try write("d-unset-2000.jpg", date: "0000:00:00 00:00:00", fileTime: "2000-01-01")
        return root
    }

    @Test(.startsPrograms) func photosGoByWhenTheyWereTakenAndTheDatesAreKeptInTheCatalog() throws {
        let root = try Self.makeFolder()
        defer { TestImages.remove(root) }
        let home = TestImages.scratchFolder("dates-catalog")
        defer { TestImages.remove(home) }
        let catalog = GalleryCatalog(catalog: try Catalog(directory: home), root: RawPath(root))
        let photos = try FolderScanner().scan(RawPath(root))
        let dates = CaptureDates(readingNow: photos, reader: InfoReader(loader: FileLoader(), decoder: PhotoDecoder()), catalog: catalog)
        #expect(PhotoOrder(.date).apply(photos, dates: dates.dates).map(\.name) == ["d-unset-2000.jpg", "c-2010.jpg", "b-none-2015.jpg", "a-2020.jpg"])
        #expect(PhotoOrder(.date, reversed: true).apply(photos, dates: dates.dates).first?.name == "a-2020.jpg")
        // Kept: a second reading finds every photo in the catalog, with the same dates, and what
        // else the header said.
        let kept = catalog.entries()
        #expect(kept.count == 4 && kept[RawPath("c-2010.jpg")]?.taken == CaptureDate.parse("2010:03:01 08:00:00"))
        #expect(kept[RawPath("c-2010.jpg")]?.width == 48)
        #expect(kept[RawPath("b-none-2015.jpg")].map { $0.taken == nil } == true)
        // A photo changed since is read again, not taken from the catalog.
        TestImages.write(try MetadataFixtures.jpeg(exif: ExifFields(dateTimeOriginal: "1999:01:01 00:00:00")), to: root + "/a-2020.jpg")
        let again = CaptureDates(readingNow: try FolderScanner().scan(RawPath(root)), reader: InfoReader(loader: FileLoader(), decoder: PhotoDecoder()), catalog: catalog)
        #expect(again.dates[.file(RawPath(root + "/a-2020.jpg"))] == .some(CaptureDate.parse("1999:01:01 00:00:00")))
        #expect(catalog.entries()[RawPath("a-2020.jpg")]?.taken == CaptureDate.parse("1999:01:01 00:00:00"))
    }

    @Test(.startsPrograms) func sortByDateInTheGridAndInTheContactSheet() throws {
        let root = try Self.makeFolder()
        defer { TestImages.remove(root) }
        let (status, output, error) = try Paths.photogrid(["--print", "--mode", "halfblock", "--size", "200x40", "--columns", "4",
                                                            "--labels", "--sort", "date", root])
        #expect(status == 0, "\(error)")
        let text = String(decoding: output, as: UTF8.self)
        let positions = ["d-unset-2000", "c-2010", "b-none-2015", "a-2020"].compactMap { text.range(of: $0)?.lowerBound }
        #expect(positions.count == 4 && positions == positions.sorted(), "not in date order")

        let tmux = try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) --mode halfblock --columns 4 '\(root)'")
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of 4") && $0.contains("a-2020.jpg") }
        #expect(ok, "\(screen)")
        try tmux.send("s")
        (ok, screen) = try tmux.waitFor { $0.contains("by date") && $0.contains("a-2020.jpg") && $0.contains("4 of 4") }
        #expect(ok, "s sorts by date, the focus kept on its photo: \(screen)")
        try tmux.send("g")
        (ok, screen) = try tmux.waitFor { $0.contains("d-unset-2000.jpg") && $0.contains("1 of 4") }
        #expect(ok, "\(screen)")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }

    /// A photo given on the command line keeps the focus when the date order comes.
    @Test(.startsPrograms) func aPhotoGivenKeepsTheFocusInTheDateOrder() throws {
        let root = try Self.makeFolder()
        defer { TestImages.remove(root) }
        let tmux = try Tmux(columns: 130, rows: 30, command: "\(Paths.binary) --mode halfblock --columns 4 --sort date '\(root)/b-none-2015.jpg'")
        var (ok, screen) = try tmux.waitFor { $0.contains("by date") && $0.contains("b-none-2015.jpg") && $0.contains("3 of 4") }
        #expect(ok, "\(screen)")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }

    /// Sections by month in date order: a header over each photo, from its capture date (the
    /// file's time for the two without one); `S` goes on to none, then folders.
    @Test(.startsPrograms) func sectionsByMonthHaveAHeaderOverEachGroup() throws {
        let root = try Self.makeFolder()
        defer { TestImages.remove(root) }
        let tmux = try Tmux(columns: 130, rows: 30, command: "\(Paths.binary) --mode halfblock --columns 4 --sort date --group month '\(root)'")
        // 130 columns at 4 and 30 rows: tiles of 16 rows, so the screen holds the first two groups,
        // each starting a row of its own under its header.
        var (ok, screen) = try tmux.waitFor { $0.contains("March 2010") && $0.contains("by date") }
        #expect(ok, "\(screen)")
        var lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.first?.hasPrefix(" January 2000") == true, "\(lines.first ?? "")")
        let march = try #require(lines.firstIndex { $0.hasPrefix(" March 2010") })
        // At the start of its line: the group starts a row (it would be mid-row otherwise).
        #expect(march > 1, "a group starts a row: \(screen)")
        #expect(screen.split(separator: "\n").last?.contains("January 2000") == true, "the status line names the focused photo's group")
        // Down a row is the next group (its row is its own); G the last one, May 2020.
        try tmux.send("j")
        (ok, screen) = try tmux.waitFor { $0.split(separator: "\n").last?.contains("c-2010.jpg") == true }
        #expect(ok, "j goes to the next group's row: \(screen)")
        try tmux.send("G")
        (ok, screen) = try tmux.waitFor { $0.split(separator: "\n").last?.contains("a-2020.jpg") == true && $0.contains(" May 2020") }
        #expect(ok, "\(screen)")
        lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines.contains { $0.hasPrefix(" May 2020") }, "\(screen)")
        try tmux.send("g")
        try tmux.send("S")
        (ok, screen) = try tmux.waitFor { $0.contains("no sections") && !$0.contains("March 2010") }
        #expect(ok, "\(screen)")
        try tmux.send("S")
        let name = RawPath(root).lastComponent.description
        (ok, screen) = try tmux.waitFor { $0.contains("sections by folder") && $0.split(separator: "\n").first?.contains(name) == true }
        #expect(ok, "\(screen)")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }
}
