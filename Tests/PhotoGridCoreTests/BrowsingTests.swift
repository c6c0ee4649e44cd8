import Foundation
import Glibc
import Testing
@testable import PhotoGridCore
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Browsing a Pictures-like tree as a user does, in tmux: the key help, panels that close, the
/// name search, sorting, hidden files, a rescan, a photo given instead of a folder, and the
/// current folder by its name.
@Suite(.startsPrograms, .serialized) struct BrowsingTests: PhotogridInTmux {
    /// A tree with photos at the top and in folders, names a byte sort puts out of order, and a
    /// hidden photo; the folder's name is "Pictures-<n>".
    static func makeTree() throws -> String {
        let root = TestImages.scratchFolder("Pictures")
        let copies = ["IMG_10.jpg": "travel/beach-01.jpg", "img_3.jpg": "night/aurora-01.jpg", "IMG_2.jpg": "landscapes/lake-01.jpg",
                      "a-lake.jpg": "landscapes/lake-02.jpg", "Phone/IMG_1.jpg": "landscapes/hills-01.jpg",
                      "Phone/lake shore.jpg": "landscapes/lake-03.jpg", "Web/z.jpg": "landscapes/misty-01.jpg",
                      ".secret.jpg": "landscapes/autumn-01.jpg"]
        for folder in ["Phone", "Web"] { mkdir(root + "/" + folder, 0o755) }
        for (name, source) in copies {
            try FileManager.default.copyItem(atPath: Paths.gallery + "/" + source, toPath: root + "/" + name)
        }
        return root
    }


    func start(_ arguments: String, in folder: String? = nil) throws -> Tmux {
        try start(arguments, in: folder, columns: 110)
    }

    @Test func helpAndDetailsCloseWithEscOrQAndQQuitsOnlyFromTheBareGrid() throws {
        let root = try Self.makeTree()
        defer { TestImages.remove(root) }
        let tmux = try start("--columns 3 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok, "no grid: \(screen)")
        #expect(status(screen).contains("? keys") && status(screen).contains("a fit"), "hints: \(status(screen))")
        try tmux.send("a")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("a fill") }
        #expect(ok, "in fit mode the hint says what a does now: \(status(screen))")

        try tmux.send("?")
        (ok, screen) = try tmux.waitFor { $0.contains("Keys of the grid") }
        #expect(ok, "? shows no help: \(screen)")
        #expect(screen.contains("find by name") && screen.contains("sort: name, date, mtime, size"))
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !$0.contains("Keys of the grid") }
        #expect(ok, "Esc leaves the help open")
        try tmux.send("?")
        (ok, _) = try tmux.waitFor { $0.contains("Keys of the grid") }
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { !$0.contains("Keys of the grid") }
        #expect(ok && !screen.contains("[exit"), "q in the help must close it, not quit: \(screen)")

        try tmux.send("i")
        (ok, screen) = try tmux.waitFor { $0.contains("Details") && $0.contains("a-lake.jpg") }
        #expect(ok, "i shows no details: \(screen)")
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !$0.contains("Details") }
        #expect(ok, "Esc leaves the details open: \(screen)")
        try tmux.send("i")
        (ok, _) = try tmux.waitFor { $0.contains("Details") }
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { !$0.contains("Details") }
        #expect(ok && !screen.contains("[exit"), "q in the details must close them, not quit: \(screen)")

        // A panel opened in the photo view closes with it.
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("n/p photo") }
        #expect(ok, "Enter opens no photo: \(status(screen))")
        try tmux.send("?")
        (ok, screen) = try tmux.waitFor { $0.contains("Keys of the photo view") }
        #expect(ok, "? in the photo view: \(screen)")
        // Esc alone, its effect waited for: an Esc followed within 25 ms by a key is Alt and that key.
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !$0.contains("Keys of") }
        try tmux.send("i")
        (ok, screen) = try tmux.waitFor { $0.contains("Details") && !$0.contains("Keys of") }
        #expect(ok, "i in the photo view: \(screen)")
        try tmux.send("-")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("3 columns") }
        #expect(ok && !screen.contains("Details"), "the photo view's panel is still open in the grid: \(screen)")

        try tmux.send("q")
        (ok, screen) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok, "q from the bare grid quits: \(screen)")
    }

    @Test func findByNameJumpsBetweenMatchesAndEscClearsIt() throws {
        let root = try Self.makeTree()
        defer { TestImages.remove(root) }
        let tmux = try start("--columns 3 '\(root)'", columns: 130)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok)
        try tmux.send("/")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("/_") }
        #expect(ok, "/ shows no prompt: \(status(screen))")
        try tmux.send("L", "a", "K", "e")
        // "a-lake.jpg" (1st) and "Phone/lake shore.jpg" (6th) hold it, without regard to case.
        (ok, screen) = try tmux.waitFor { self.status($0).contains("/LaKe_") && self.status($0).contains("2 matches") }
        #expect(ok, "typed text is not in the status line: \(status(screen))")
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !self.status($0).contains("/LaKe") }
        try tmux.send("l", "/", "l", "a", "k", "e")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("/lake_") && self.status($0).contains("6 of 7") }
        #expect(ok, "the focus goes to the first match after it as it is typed: \(status(screen))")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("find \"lake\"") && self.status($0).contains("n/N next") }
        #expect(ok, "Enter keeps the search: \(status(screen))")
        try tmux.send("n")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("a-lake.jpg") && self.status($0).contains("1 of 7") }
        #expect(ok, "n wraps round to the first match: \(status(screen))")
        try tmux.send("n")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("lake shore.jpg") && self.status($0).contains("6 of 7") }
        #expect(ok, "n goes to the next match: \(status(screen))")
        try tmux.send("n")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok)
        try tmux.send("N")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("6 of 7") }
        #expect(ok, "N goes back round: \(status(screen))")
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !self.status($0).contains("find \"") && self.status($0).contains("6 of 7") }
        #expect(ok, "Esc clears the search where it is: \(status(screen))")
        // A C1 control typed into the search (CSI, as UTF-8) is shown as text, never reaches the
        // terminal as one: the rest of the status line stays plain.
        try tmux.send("/")
        try tmux.run(["send-keys", "-t", tmux.session, "-l", "x\u{9B}7my"])
        (ok, screen) = try tmux.waitFor { self.status($0).contains("no match") && self.status($0).contains("7my") }
        #expect(ok, "\(status(screen))")
        try tmux.send("Escape")
        (ok, screen) = try tmux.waitFor { !self.status($0).contains("/x") }
        #expect(ok && status(screen).contains("6 of 7"), "Esc while typing goes back: \(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }

    @Test func sortKeysHiddenFilesAndARescanKeepTheFocusedPhoto() throws {
        let root = try Self.makeTree()
        defer { TestImages.remove(root) }
        // Sizes decide the size order; times the mtime order. Without the folder's watch: the
        // end is about Ctrl-R (FolderWatchInUseTests are about the watch).
        let tmux = try start("--no-watch --columns 3 '\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        #expect(ok)
        try tmux.send("l", "l")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("img_3.jpg") }
        #expect(ok, "natural order puts img_3 third: \(status(screen))")
        try tmux.send("s")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("by date") && self.status($0).contains("img_3.jpg") }
        #expect(ok, "s sorts by date, focus kept on the photo: \(status(screen))")
        try tmux.send("s")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("by mtime") && self.status($0).contains("img_3.jpg") }
        #expect(ok, "then by mtime, focus kept on the photo: \(status(screen))")
        try tmux.send("s", "r")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("by size, reversed") && self.status($0).contains("img_3.jpg") }
        #expect(ok, "\(status(screen))")
        try tmux.send("s")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("by name, reversed") && self.status($0).contains("5 of 7") }
        #expect(ok, "reversed name order puts img_3 fifth: \(status(screen))")
        try tmux.send("r")
        (ok, screen) = try tmux.waitFor { !self.status($0).contains("reversed") && self.status($0).contains("3 of 7") }
        #expect(ok, "\(status(screen))")

        try tmux.send(".")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("of 8") && self.status($0).contains("hidden files shown") }
        #expect(ok, ". shows the hidden photo: \(status(screen))")
        try tmux.send(".")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("of 7") }
        #expect(ok)

        // A photo added and one deleted while photogrid runs: Ctrl-R shows both, focus kept.
        try FileManager.default.copyItem(atPath: root + "/IMG_2.jpg", toPath: root + "/IMG_1.jpg")
        try FileManager.default.removeItem(atPath: root + "/a-lake.jpg")
        try tmux.send("C-r")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 added, 1 removed") }
        #expect(ok, "Ctrl-R did not rescan: \(status(screen))")
        #expect(status(screen).contains("img_3.jpg") && status(screen).contains("3 of 7"), "\(status(screen))")
        try tmux.send("g")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("IMG_1.jpg") }
        #expect(ok, "the new photo is first: \(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }

    @Test func aPhotoOpensItsFolderFocusedAndNoArgumentNamesTheCurrentFolder() throws {
        let root = try Self.makeTree()
        defer { TestImages.remove(root) }
        var tmux = try start("--columns 2 '\(root)/Phone/lake shore.jpg'", columns: 140)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("lake shore.jpg") }
        #expect(ok, "photogrid PHOTO: \(screen)")
        #expect(status(screen).contains("2 of 2") && status(screen).contains("Phone"), "\(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)

        tmux = try start("--columns 2", in: root, columns: 140)
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 7") }
        let name = RawPath(root).lastComponent.description
        #expect(ok && status(screen).hasPrefix(" " + name), "no argument: the folder by its name: \(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }

    /// A folder of one photo shows it whole (fit), not cropped square; `a` still crops it.
    @Test func aLonePhotoIsShownWhole() throws {
        let root = TestImages.scratchFolder("lone")
        defer { TestImages.remove(root) }
        try FileManager.default.copyItem(atPath: Paths.gallery + "/landscapes/lake-01.jpg", toPath: root + "/only.jpg")
        let tmux = try start("'\(root)'")
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 1") && self.status($0).contains("a fill") }
        #expect(ok, "a lone photo is not shown whole: \(status(screen))")
        try tmux.send("a")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("a fit") }
        #expect(ok, "\(status(screen))")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }

    @Test func versionAndBadArguments() throws {
        let (status, output, _) = try Paths.photogrid(["--version"])
        #expect(status == 0 && String(decoding: output, as: UTF8.self).hasPrefix("photogrid "))
        let (badStatus, _, error) = try Paths.photogrid(["--sort", "colour", Paths.gallery])
        #expect(badStatus != 0 && error.contains("sort"))
        let notPhoto = TestImages.scratchFolder("notphoto")
        defer { TestImages.remove(notPhoto) }
        FileManager.default.createFile(atPath: notPhoto + "/notes.txt", contents: Data("hello".utf8))
        let (textStatus, _, textError) = try Paths.photogrid([notPhoto + "/notes.txt"])
        // The path given is not one photogrid can show: the command line's fault, status 2.
        #expect(textStatus == 2 && textError.contains("notes.txt") && textError.contains("not a picture"), "\(textError)")
    }
}

/// Sections by folder over a Pictures-like tree, paged through.
@Suite(.startsPrograms, .serialized) struct SectionTests {
    @Test func eachFolderHasAHeaderAboveItsFirstPhoto() throws {
        let root = try BrowsingTests.makeTree()
        defer { TestImages.remove(root) }
        let name = RawPath(root).lastComponent.description
        let tmux = try Tmux(columns: 130, rows: 40, command: "\(Paths.binary) --mode halfblock --columns 6 --group folder '\(root)'",
                            environment: ["COLORTERM": "truecolor"])
        // The top folder's header first, over its photos; Phone's in the gap row above its first
        // photo (waited for with the tiles drawn: they load after the headers are written).
        func phoneHeaderAbovePhotos(_ screen: String) -> Bool {
            let lines = screen.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            guard let row = lines.firstIndex(where: { $0.contains(" Phone") && !$0.contains("▀") }), row > 0, row + 1 < lines.count else { return false }
            return lines[row + 1].contains("▀")
        }
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of 7") && phoneHeaderAbovePhotos($0) && !$0.contains("loading") }
        #expect(ok, "the header is not above a row of photos: \(screen)")
        #expect(screen.split(separator: "\n").first?.hasPrefix(" " + name) == true, "\(screen)")
        // Down to Web's photo: the status line names its group.
        try tmux.send("G")
        (ok, screen) = try tmux.waitFor { $0.contains("7 of 7") && $0.split(separator: "\n").last?.contains("Web") == true }
        #expect(ok, "\(screen)")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }
}

/// What the grid draws round and beside the focused photo, in tmux with its colours: the frame's
/// four sides at the screen's corner, and the details' map link whole.
@Suite(.startsPrograms, .serialized) struct FrameAndLinkTests {
    static let amber = "48;2;255;196;0"

    /// The cells of `row` (0-based) whose background is the frame's amber, from a capture with escapes.
    static func amberColumns(_ screen: String, row: Int) -> Set<Int> {
        let lines = screen.split(separator: "\n", omittingEmptySubsequences: false)
        guard row < lines.count else { return [] }
        var result = Set<Int>(), column = 0, amber = false
        var rest = Substring(lines[row])
        while let first = rest.first {
            if first == "\u{1B}", let end = rest.firstIndex(of: "m") {
                let sequence = rest[rest.startIndex...end]
                if sequence.contains(Self.amber) { amber = true } else if sequence.contains("[0m") || sequence.contains("[49m") || sequence.contains("48;") { amber = false }
                rest = rest[rest.index(after: end)...]
                continue
            }
            if amber { result.insert(column) }
            column += 1
            rest = rest.dropFirst()
        }
        return result
    }

    @Test func theFrameHasFourSidesAtTheCornerAndTheMapLinkIsWhole() throws {
        let tmux = try Tmux(columns: 100, rows: 30, command: "\(Paths.binary) --mode halfblock --columns 4 --no-disk-cache \(Paths.gallery)",
                            environment: ["COLORTERM": "truecolor"])
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of") && !$0.contains("loading") }
        #expect(ok, "\(screen)")
        // With trailing spaces kept (-N): the frame's bottom side is coloured spaces at a line's end.
        screen = try tmux.run(["capture-pane", "-p", "-e", "-N", "-t", tmux.session])
        // The tile's width from the layout (its rows follow the cell's shape, which tmux decides):
        // the top side over the tile's first row, the bottom side in the gap row below it, the
        // left side over its first column, the right side in the gap column.
        let width = GridLayout(screen: ScreenMetrics(columns: 100, rows: 30), columns: 4).frames[0].width
        let rows = (0..<29).filter { !Self.amberColumns(screen, row: $0).isEmpty }
        #expect(rows.count >= 4 && rows.first == 0 && rows == Array(0...rows.last!), "rows with amber: \(rows)")
        #expect(Self.amberColumns(screen, row: 0).isSuperset(of: 0...width) && Self.amberColumns(screen, row: rows.last!).isSuperset(of: 0...width))
        for row in rows.dropFirst().dropLast() {
            let sides = Self.amberColumns(screen, row: row)
            #expect(sides == [0, width], "row \(row): \(sides.sorted())")
        }
        // A photo with a position: the map link whole in the details, over as many lines as it takes.
        let count = try FolderScanner().scan(RawPath(Paths.gallery)).count
        let index = try #require(try FolderScanner().scan(RawPath(Paths.gallery)).firstIndex { $0.name == "aurora-03.jpg" })
        try tmux.send("G")
        for _ in 0..<(count - 1 - index) { try tmux.send("h") }
        try tmux.send("i")
        // The label padded to the value column: "map" then spaces, whatever is left of the panel
        // (a loaded tile's half-blocks touch it, a placeholder leaves a space).
        // The panel's value column: the link's pieces one under another, joined whole.
        func pieces(_ screen: String) -> [String] {
            let lines = screen.split(separator: "\n").map(String.init)
            guard let start = lines.firstIndex(where: { $0.contains("map  ") }) else { return [] }
            return lines[start...].prefix(4).compactMap { line -> String? in
                guard let range = line.range(of: "https://") ?? line.range(of: "openstreetmap") ?? line.range(of: "mlat") else {
                    return line.split(separator: " ").last.map(String.init)
                }
                return String(line[range.lowerBound...]).trimmingCharacters(in: .whitespaces)
            }
        }
        // Waited for whole: the panel's lines are written one after another, and a screen taken
        // between two of them (seen on a loaded machine) holds half a link.
        (ok, screen) = try tmux.waitFor { screen in
            let joined = pieces(screen).joined()
            return screen.contains("aurora-03.jpg") && joined.hasPrefix("https://www.openstreetmap.org/?mlat=") && joined.contains("mlon=")
        }
        #expect(ok, "\(pieces(screen)): \(screen)")
        try tmux.send("q", "q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
    }
}
