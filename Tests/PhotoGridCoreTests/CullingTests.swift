import Foundation
import Glibc
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridMetadata
import PhotoGridSamples
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Culling and the time zoom in tmux, as a user keys them: stars and rejects saved in sidecars,
/// the filters, `d y` into the trash and `u` back, and from 6 columns out to the days, the months
/// and the years and back in. Over six photos taken across four years.
@Suite(.startsPrograms, .serialized) struct CullingTests {
    static let dates = ["2021:05:02 10:00:00", "2022:03:14 09:00:00", "2022:03:20 18:30:00", "2022:11:01 12:00:00",
                        "2023:07:04 20:00:00", "2024:01:01 00:30:00"]

    func status(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).last { $0.contains(" of ") || $0.contains("?") }.map(String.init) ?? ""
    }

    /// a.jpg to f.jpg, named in the order they were taken.
    func makeFolder(_ name: String) throws -> String {
        let folder = TestImages.scratchFolder(name)
        mkdir(folder + "/photos", 0o755)
        for (index, date) in Self.dates.enumerated() {
            let name = String(UnicodeScalar(UInt8(ascii: "a") + UInt8(index)))
            TestImages.write(try MetadataFixtures.jpeg(exif: ExifFields(dateTimeOriginal: date)), to: folder + "/photos/\(name).jpg")
        }
        return folder
    }

    func start(_ folder: String, _ arguments: String = "") throws -> Tmux {
        try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) --mode halfblock \(arguments) \(folder)/photos",
                 environment: ["COLORTERM": "truecolor", "XDG_DATA_HOME": folder + "/data"])
    }

    func rating(_ path: String) -> Int? { XMPRating.read(TestImages.read(path) ?? []) }

    @Test func starsAndRejectsAreSavedAndFilterTheGrid() throws {
        let folder = try makeFolder("culling")
        defer { TestImages.remove(folder) }
        let tmux = try start(folder)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 6") }
        #expect(ok, "\(screen)")
        try tmux.send("Enter", "4")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("4 stars") }
        #expect(ok, "Enter 4: \(status(screen))")
        #expect(rating(folder + "/photos/a.jpg.xmp") == 4)
        try tmux.send("n", "x")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 of 6") && self.status($0).contains("rejected") }
        #expect(ok, "n x: \(status(screen))")
        #expect(rating(folder + "/photos/b.jpg.xmp") == -1)
        // 0 takes the stars off; x again takes the reject back.
        try tmux.send("x")
        (ok, _) = try tmux.waitFor { self.status($0).contains("no rating") }
        #expect(ok)
        #expect(rating(folder + "/photos/b.jpg.xmp") == nil || rating(folder + "/photos/b.jpg.xmp") == 0)
        try tmux.send("x", "q")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("2 of 6") && self.status($0).contains("rejected") && self.status($0).contains("columns") }
        #expect(ok, "back in the grid: \(status(screen))")
        // The grid: R then a number rates the focused photo.
        try tmux.send("l", "R", "5")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("3 of 6") && self.status($0).contains("5 stars") }
        #expect(ok, "R 5: \(status(screen))")
        #expect(rating(folder + "/photos/c.jpg.xmp") == 5)

        // Filters while browsing.
        try tmux.send("f", "4")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("of 2") && self.status($0).contains("4+ stars: 4 hidden") }
        #expect(ok, "f 4: \(status(screen))")
        try tmux.send("f", "x")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 1") && self.status($0).contains("rejects only") }
        #expect(ok, "f x: \(status(screen))")
        try tmux.send("f", "0")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("of 6") && !self.status($0).contains("hidden") }
        #expect(ok, "f 0: \(status(screen))")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)

        // From the command line, a new run: the ratings are read from the sidecars.
        let filtered = try start(folder, "--min-rating 4")
        (ok, screen) = try filtered.waitFor { self.status($0).contains("1 of 2") && self.status($0).contains("4 hidden") }
        #expect(ok, "--min-rating 4: \(status(screen))")
        try filtered.send("q")
        let rejects = try start(folder, "--rejected")
        (ok, screen) = try rejects.waitFor { self.status($0).contains("1 of 1") && self.status($0).contains("b.jpg") }
        #expect(ok, "--rejected: \(status(screen))")
        try rejects.send("q")

        // --read-only saves nothing.
        let readOnly = try start(folder, "--read-only")
        try readOnly.send("G", "R", "3")
        (ok, screen) = try readOnly.waitFor { self.status($0).contains("ratings are not saved") }
        #expect(ok, "\(status(screen))")
        #expect(access(folder + "/photos/f.jpg.xmp", F_OK) != 0)
        try readOnly.send("q")
    }

    @Test func dYMovesAPhotoAndItsSidecarToTheTrashAndUPutsThemBack() throws {
        let folder = try makeFolder("culling-trash")
        defer { TestImages.remove(folder) }
        let tmux = try start(folder)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 6") }
        #expect(ok)
        try tmux.send("l", "R", "2", "d")
        (ok, screen) = try tmux.waitFor { $0.contains("move b.jpg to the trash? y/n") }
        #expect(ok, "d asks first: \(status(screen))")
        // Any other key than y moves nothing.
        try tmux.send("n")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("nothing moved") }
        #expect(ok && access(folder + "/photos/b.jpg", F_OK) == 0)
        try tmux.send("d", "y")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("moved b.jpg to the trash") && self.status($0).contains("of 5") }
        #expect(ok, "d y: \(status(screen))")
        let trash = folder + "/data/Trash"
        #expect(access(folder + "/photos/b.jpg", F_OK) != 0 && access(folder + "/photos/b.jpg.xmp", F_OK) != 0)
        #expect(access(trash + "/files/b.jpg", F_OK) == 0 && access(trash + "/files/b.jpg.xmp", F_OK) == 0)
        let info = String(decoding: TestImages.read(trash + "/info/b.jpg.trashinfo") ?? [], as: UTF8.self)
        #expect(info.hasPrefix("[Trash Info]\nPath=" + folder + "/photos/b.jpg\nDeletionDate="), "\(info)")
        try tmux.send("u")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("put back b.jpg") && self.status($0).contains("2 of 6") }
        #expect(ok, "u: \(status(screen))")
        #expect(access(folder + "/photos/b.jpg", F_OK) == 0 && rating(folder + "/photos/b.jpg.xmp") == 2)
        #expect(access(trash + "/info/b.jpg.trashinfo", F_OK) != 0 && access(trash + "/files/b.jpg.xmp", F_OK) != 0)
        // Marked photos go together.
        try tmux.send("m", "l", "m", "d")
        (ok, screen) = try tmux.waitFor { $0.contains("move 2 photos to the trash? y/n") }
        #expect(ok, "\(status(screen))")
        try tmux.send("y")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("moved 2 photos") && self.status($0).contains("of 4") }
        #expect(ok, "\(status(screen))")
        // The last photo a filter shows, trashed: all are shown again, never the photo that went.
        try tmux.send("R", "5", "f", "5")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 1") }
        #expect(ok, "\(status(screen))")
        try tmux.send("d", "y")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("all shown") && self.status($0).contains("of 3") }
        #expect(ok, "\(status(screen))")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }

    @Test func markedPhotosAreComparedZoomedTogetherAndRated() throws {
        let folder = try makeFolder("compare")
        defer { TestImages.remove(folder) }
        let tmux = try start(folder)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 6") }
        #expect(ok)
        try tmux.send("c")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("mark 2 to 4 photos first") }
        #expect(ok, "c with nothing marked: \(status(screen))")
        try tmux.send("m", "l", "l", "m", "c")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("compare 2") && self.status($0).contains("a.jpg") }
        #expect(ok, "c: \(status(screen))")
        try tmux.send("?")
        (ok, screen) = try tmux.waitFor { $0.contains("Keys of compare") }
        #expect(ok, "? in compare: \(screen)")
        // Esc alone, its effect waited for: an Esc followed within 25 ms by a key is Alt and that key.
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !$0.contains("Keys of compare") }
        try tmux.send("Tab", "3", "+")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("c.jpg") && self.status($0).contains("3 stars") && self.status($0).contains("zoom") }
        #expect(ok, "Tab 3 +: \(status(screen))")
        #expect(rating(folder + "/photos/c.jpg.xmp") == 3 && access(folder + "/photos/a.jpg.xmp", F_OK) != 0)
        // Enter opens the focused one alone; leaving it comes back to compare, as it was.
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("c.jpg") && self.status($0).contains("n/p photo") }
        #expect(ok, "Enter in compare: \(status(screen))")
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("compare 2") && self.status($0).contains("c.jpg") }
        #expect(ok, "Esc from the photo opened in compare: \(status(screen))")
        try tmux.send("Enter", "q")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("compare 2") && self.status($0).contains("zoom") }
        #expect(ok, "q from the photo opened in compare: \(status(screen))")
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("columns") && self.status($0).contains("c.jpg") }
        #expect(ok, "q: \(status(screen))")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }

    @Test func aRawFileBesideItsJPEGIsOneTileAndGoesWithIt() throws {
        let folder = try makeFolder("raw-pairs")
        defer { TestImages.remove(folder) }
        // IMG_0042.JPG with its raw file, and a raw file alone.
        try Subprocess.run(["cp", folder + "/photos/a.jpg", folder + "/photos/IMG_0042.JPG"])
        try Subprocess.run(["cp", Paths.root + "/Tests/Fixtures/raw/Nikon.nef", folder + "/photos/IMG_0042.NEF"])
        try Subprocess.run(["cp", Paths.root + "/Tests/Fixtures/raw/FujiFilm.raf", folder + "/photos/alone.raf"])
        // IMG_0042.JPG is a copy of a.jpg: with stacks they would be one tile.
        let tmux = try start(folder, "--no-stacks")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 8") }
        #expect(ok, "six photos, the pair and the lone raw file: \(status(screen))")
        // Natural order, without regard to case: IMG_0042 comes last.
        try tmux.send("G")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("IMG_0042.JPG") }
        #expect(ok, "\(status(screen))")
        #expect(screen.contains("RAW"), "no RAW badge: \(screen)")
        try tmux.send("R", "4")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("IMG_0042.NEF.xmp") }
        #expect(ok, "the rating goes to both: \(status(screen))")
        #expect(rating(folder + "/photos/IMG_0042.JPG.xmp") == 4 && rating(folder + "/photos/IMG_0042.NEF.xmp") == 4)
        try tmux.send("d", "y")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("moved IMG_0042.JPG") }
        #expect(ok, "\(status(screen))")
        for name in ["IMG_0042.JPG", "IMG_0042.NEF", "IMG_0042.JPG.xmp", "IMG_0042.NEF.xmp"] {
            #expect(access(folder + "/data/Trash/files/" + name, F_OK) == 0, "\(name) not in the trash")
        }
        try tmux.send("u")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("put back IMG_0042.JPG") && self.status($0).contains("of 8") }
        #expect(ok, "\(status(screen))")
        #expect(access(folder + "/photos/IMG_0042.NEF", F_OK) == 0)
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
        // -o prints both paths.
        let chooser = try Tmux(columns: 120, rows: 30, command: "\(Paths.binary) --mode halfblock --no-stacks -o \(folder)/photos > \(folder)/chosen.txt",
                               environment: ["COLORTERM": "truecolor", "XDG_DATA_HOME": folder + "/data"])
        (ok, _) = try chooser.waitFor { self.status($0).contains("1 of 8") }
        try chooser.send("/", "I", "M", "G", "Enter", "q")
        (ok, screen) = try chooser.waitFor { $0.contains("[exit 0]") }
        let chosen = String(decoding: TestImages.read(folder + "/chosen.txt") ?? [], as: UTF8.self)
        #expect(chosen == folder + "/photos/IMG_0042.JPG\n" + folder + "/photos/IMG_0042.NEF\n", "\(chosen)")
    }

    @Test func minusPastSixColumnsGoesOutToDaysMonthsAndYearsAndPlusComesBackIn() throws {
        let folder = try makeFolder("time-zoom")
        defer { TestImages.remove(folder) }
        let tmux = try start(folder)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 6") }
        #expect(ok)
        try tmux.send("6", "-")
        // A header per day, in the order taken: at once on estimates (the files' times), put
        // right when the dates are read.
        let days = ["2021-05-02", "2022-03-14", "2022-03-20", "2022-11-01"]        // what a 30-row screen holds
        (ok, screen) = try tmux.waitFor { screen in self.status(screen).contains("days  ") && days.allSatisfy { screen.contains($0) } }
        #expect(ok, "- at 6 columns: \(screen)")
        try tmux.send("-")
        let months = ["May 2021", "March 2022", "November 2022", "July 2023"]
        (ok, screen) = try tmux.waitFor { screen in self.status(screen).contains("months  ") && months.allSatisfy { screen.contains($0) } }
        #expect(ok, "- from the days: \(screen)")
        // ? names the view's own keys.
        try tmux.send("?")
        (ok, screen) = try tmux.waitFor { $0.contains("Keys of the months") && $0.contains("{ }") }
        #expect(ok, "? in the months: \(screen)")
        // Esc alone, its effect waited for: an Esc followed within 25 ms by a key is Alt and that key.
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !$0.contains("Keys of the months") }
        try tmux.send("-")
        (ok, screen) = try tmux.waitFor { screen in
            self.status(screen).contains("years  ") && ["2021", "2022", "2023", "2024"].allSatisfy { screen.contains(" \($0)") }
        }
        #expect(ok, "- again: \(screen)")
        // A card a year, on the year of the photo in focus (2021); a rating key is refused there.
        #expect(status(screen).contains("1 of 4 years"), "\(status(screen))")
        try tmux.send("R")
        (ok, screen) = try tmux.waitFor { $0.contains("R acts on photos, not on a year") }
        #expect(ok, "R on a year: \(screen)")
        // Into 2022 (its first month, March), into March (its first day), and into the 14th: the
        // grid on its first photo, b.jpg.
        try tmux.send("l", "+")
        (ok, screen) = try tmux.waitFor {
            self.status($0).contains("months") && self.status($0).contains("March 2022") && $0.contains("March 2022 · 2")
        }
        #expect(ok, "+ from the years, the month's card with its count: \(screen)")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("days") && self.status($0).contains("2022-03-14") }
        #expect(ok, "Enter from the months: \(status(screen))")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("6 columns") && self.status($0).contains("b.jpg") }
        #expect(ok, "Enter from the days: \(status(screen))")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }
}
