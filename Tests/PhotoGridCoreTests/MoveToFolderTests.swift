import Foundation
import Glibc
import Testing
@testable import PhotoGridMetadata
import PhotoGridSamples
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `V` and `C` in tmux, as a user keys them: three marked photos (one a RAW+JPEG pair with a
/// sidecar) moved to a folder typed on the status line, `u` putting them back byte for byte, a
/// name already taken left alone, and a copy into a folder of the gallery appearing in the grid;
/// and `]` turning a JPEG in its file as jpegtran would.
@Suite(.startsPrograms, .serialized) struct MoveToFolderTests {
    func status(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).last { $0.contains(" of ") || $0.contains(" to") }.map(String.init) ?? ""
    }

    static let tools = (try? Subprocess.run(["sh", "-c", "command -v jpegtran && command -v djpeg && command -v exiftool"]))?.status == 0

    func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    /// a.jpg to d.jpg, and IMG_0042.JPG with its raw file and a sidecar rating it.
    func makeFolder(_ name: String) throws -> String {
        let folder = TestImages.scratchFolder(name)
        mkdir(folder + "/photos", 0o755)
        for (index, name) in ["a", "b", "c", "d"].enumerated() {
            TestImages.write(try MetadataFixtures.jpeg(exif: ExifFields(dateTimeOriginal: "2024:05:0\(index + 1) 10:00:00")), to: folder + "/photos/\(name).jpg")
        }
        try Subprocess.run(["cp", folder + "/photos/a.jpg", folder + "/photos/IMG_0042.JPG"])
        try Subprocess.run(["cp", Paths.root + "/Tests/Fixtures/raw/Nikon.nef", folder + "/photos/IMG_0042.NEF"])
        TestImages.write(XMPRating.fresh(3), to: folder + "/photos/IMG_0042.JPG.xmp")
        return folder
    }

    func start(_ folder: String) throws -> Tmux {
        try Tmux(columns: 160, rows: 30, command: "\(Paths.binary) --mode halfblock --no-stacks \(folder)/photos",
                 environment: ["COLORTERM": "truecolor", "XDG_DATA_HOME": folder + "/data", "XDG_CACHE_HOME": folder + "/cache"])
    }

    /// Clears the folder line and types `path` into it.
    func type(_ tmux: Tmux, _ path: String) throws {
        try tmux.send("C-u")
        try tmux.run(["send-keys", "-t", tmux.session, "-l", path])
    }

    @Test func threeMarkedPhotosWithAPairMoveAsFiveFilesAndUPutsThemBack() throws {
        let folder = try makeFolder("move-to-folder")
        defer { TestImages.remove(folder) }
        let before = Dictionary(uniqueKeysWithValues: files(folder + "/photos").map { ($0, TestImages.read(folder + "/photos/" + $0)) })
        let tmux = try start(folder)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 5") }
        #expect(ok, "\(status(screen))")
        // a, b and the pair (last in the natural order) marked; V asks where.
        try tmux.send("m", "l", "m", "G", "m", "V")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("move 3 marked photos to: " + folder + "/photos/_") }
        #expect(ok, "V: \(status(screen))")
        try type(tmux, "../pi")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("(a new folder): ../pi_") }
        #expect(ok, "a folder not there yet is said to be new: \(status(screen))")
        try tmux.send("BSpace", "BSpace", "BSpace", "BSpace", "BSpace", "BSpace")
        try tmux.run(["send-keys", "-t", tmux.session, "-l", "../picks"])
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("moved 3 photos to picks (made) (u undoes)") && self.status($0).contains("of 2") }
        #expect(ok, "Enter: \(status(screen))")
        #expect(files(folder + "/picks") == ["IMG_0042.JPG", "IMG_0042.JPG.xmp", "IMG_0042.NEF", "a.jpg", "b.jpg"])
        #expect(files(folder + "/photos") == ["c.jpg", "d.jpg"])

        try tmux.send("u")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("put back 3 photos from picks") && self.status($0).contains("of 5") }
        #expect(ok, "u: \(status(screen))")
        #expect(files(folder + "/picks").isEmpty)
        for (name, bytes) in before { #expect(TestImages.read(folder + "/photos/" + name) == bytes, "\(name) not as it was") }

        // A name taken in the folder: that photo stays, the file there is untouched, the rest go.
        TestImages.write(Array("not a photo".utf8), to: folder + "/picks/b.jpg")
        try tmux.send("g", "m", "l", "m", "V")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("move 2 marked photos to: " + folder + "/picks/_") }
        #expect(ok, "the folder used last comes first: \(status(screen))")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("moved a.jpg to picks") && self.status($0).contains("b.jpg stays: b.jpg is there already") }
        #expect(ok, "a clash: \(status(screen))")
        #expect(TestImages.read(folder + "/picks/b.jpg") == Array("not a photo".utf8))
        #expect(TestImages.read(folder + "/photos/b.jpg") == before["b.jpg"]!)
        #expect(TestImages.read(folder + "/picks/a.jpg") == before["a.jpg"]!)
        #expect(files(folder + "/photos") == ["IMG_0042.JPG", "IMG_0042.JPG.xmp", "IMG_0042.NEF", "b.jpg", "c.jpg", "d.jpg"])
        // u twice: the move, then nothing left (the first move was undone already).
        try tmux.send("u")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("put back a.jpg from picks") }
        #expect(ok, "\(status(screen))")
        try tmux.send("u")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("nothing to undo") }
        #expect(ok, "\(status(screen))")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }

    @Test func aCopyIntoAFolderOfTheGalleryAppearsAndUTakesItBack() throws {
        let folder = try makeFolder("copy-to-folder")
        defer { TestImages.remove(folder) }
        let tmux = try start(folder)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 5") }
        #expect(ok, "\(status(screen))")
        // d.jpg, the fourth photo, into a folder below the gallery made for it.
        try tmux.send("l", "l", "l", "C")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("copy the photo to:") }
        #expect(ok, "\(status(screen))")
        try type(tmux, "best/2024")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("copied d.jpg to 2024 (made)") && self.status($0).contains("of 6") }
        #expect(ok, "the copy is in the grid: \(status(screen))")
        #expect(TestImages.read(folder + "/photos/best/2024/d.jpg") == TestImages.read(folder + "/photos/d.jpg"))
        try tmux.send("u")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("took back the copies of d.jpg") && self.status($0).contains("of 5") }
        #expect(ok, "\(status(screen))")
        #expect(files(folder + "/photos/best/2024").isEmpty)
        #expect(access(folder + "/photos/d.jpg", F_OK) == 0)
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }

    @Test(.enabled(if: Self.tools, "jpegtran, djpeg or exiftool is not installed"))
    func rightBracketTurnsTheJPEGInItsFileAsJpegtranWould() throws {
        let folder = try makeFolder("rotate-in-use")
        defer { TestImages.remove(folder) }
        let photo = folder + "/photos/b.jpg"
        TestImages.write(try MetadataFixtures.jpeg(exif: ExifFields(orientation: 1, dateTimeOriginal: "2024:05:02 10:00:00", make: "FUJIFILM")), to: photo)
        #expect(try Subprocess.run(["sh", "-c", "jpegtran -rotate 90 -trim -copy all '\(photo)' > '\(folder)/reference.jpg'"]).status == 0)
        TestImages.write(Array("not a photo".utf8), to: folder + "/photos/bz.png")
        let tmux = try start(folder)
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 6") }
        #expect(ok, "\(status(screen))")
        try tmux.send("l", "]")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("turned b.jpg right ([ turns back)") }
        #expect(ok, "]: \(status(screen))")
        let pixels = { (path: String) in try Subprocess.run(["djpeg", "-ppm", path], capture: true).output }
        #expect(try pixels(photo) == pixels(folder + "/reference.jpg"))
        let tags = String(decoding: try Subprocess.run(["exiftool", "-s3", "-n", "-Orientation", "-DateTimeOriginal", "-Make", photo], capture: true).output, as: UTF8.self)
        #expect(tags == "1\n2024:05:02 10:00:00\nFUJIFILM\n", "\(tags)")
        // Not a picture, whatever its name: left as it is, no sidecar, and said.
        try tmux.send("l", "[")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("bz.png: not turned, it does not read as a PNG") }
        #expect(ok, "[ on a PNG that is none: \(status(screen))")
        #expect(TestImages.read(folder + "/photos/bz.png") == Array("not a photo".utf8))
        #expect(access(folder + "/photos/bz.png.xmp", F_OK) != 0)
        // A real PNG: turned in its sidecar, as Lightroom and digiKam keep it, the file untouched.
        let png = try #require(TestImages.read(Paths.gallery + "/other-formats/screenshot-01.png"))
        TestImages.write(png, to: folder + "/photos/bz.png")
        try tmux.send("C-r")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("bz.png") && !self.status($0).contains("not turned") }
        try tmux.send("]")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("turned bz.png right ([ turns back), in bz.png.xmp") }
        #expect(ok, "] on a PNG: \(status(screen))")
        #expect(TestImages.read(folder + "/photos/bz.png") == png)
        let orientation = try Subprocess.run(["exiftool", "-s3", "-n", "-XMP-tiff:Orientation", folder + "/photos/bz.png.xmp"])
        #expect(String(decoding: orientation.output, as: UTF8.self) == "6\n")
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)

        // --read-only: neither turns nor moves.
        let before = TestImages.read(photo)
        let readOnly = try Tmux(columns: 160, rows: 30, command: "\(Paths.binary) --mode halfblock --no-stacks --read-only \(folder)/photos",
                                environment: ["COLORTERM": "truecolor", "XDG_CACHE_HOME": folder + "/cache"])
        (ok, screen) = try readOnly.waitFor { self.status($0).contains("1 of 6") }
        try readOnly.send("l", "]")
        (ok, screen) = try readOnly.waitFor { self.status($0).contains("read-only (--read-only): nothing is turned") }
        #expect(ok, "\(status(screen))")
        try readOnly.send("V")
        (ok, screen) = try readOnly.waitFor { self.status($0).contains("read-only (--read-only): nothing is moved") }
        #expect(ok, "\(status(screen))")
        #expect(TestImages.read(photo) == before)
        try readOnly.send("q")
    }
}
