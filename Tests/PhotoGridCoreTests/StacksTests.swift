import Foundation
import Glibc
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSamples
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Stacks in tmux, as a user sees them, and `--duplicates` as a script reads it: a burst of five
/// shots a second apart is one tile with "[5]", Tab opens and closes it, a rating on the closed
/// stack goes to all five; an exact copy and the burst are the groups printed.
@Suite(.startsPrograms, .serialized) struct StacksTests {
    func status(_ screen: String) -> String {
        screen.split(separator: "\n", omittingEmptySubsequences: false).last { $0.contains(" of ") }.map(String.init) ?? ""
    }

    /// burst_1 to burst_5 (the hills, a second apart, each moved a little), three other scenes
    /// in the seconds after, and in copies/ a byte-for-byte copy of one of them.
    func makeFolder(_ name: String) throws -> String {
        let folder = TestImages.scratchFolder(name)
        mkdir(folder + "/photos", 0o755)
        mkdir(folder + "/photos/copies", 0o755)
        func write(_ image: RGBImage, _ second: Int, _ name: String) throws {
            let exif = ExifFields(dateTimeOriginal: String(format: "2024:07:14 19:42:%02d", second))
            TestImages.write(try JPEG.encode(image, quality: 88, app1: ExifBuilder.app1(exif)), to: folder + "/photos/" + name)
        }
        for i in 0..<5 { try write(BurstFixtures.frame(.hills, shift: i, brighter: i * 3), 10 + i, "burst_\(i + 1).jpg") }
        for (i, scene) in [Scene.sunset, .night, .lake].enumerated() { try write(BurstFixtures.frame(scene, shift: 0), 15 + i, "other_\(i + 1).jpg") }
        try Subprocess.run(["cp", folder + "/photos/other_2.jpg", folder + "/photos/copies/other_2 copy.jpg"])
        return folder
    }

    @Test func aBurstIsOneTileThatTabOpensAndARatingGoesToAllOfIt() throws {
        let folder = try makeFolder("stacks")
        defer { TestImages.remove(folder) }
        let tmux = try Tmux(columns: 140, rows: 30, command: "\(Paths.binary) --mode halfblock --columns 3 \(folder)/photos",
                            environment: ["COLORTERM": "truecolor", "XDG_DATA_HOME": folder + "/data", "XDG_CACHE_HOME": folder + "/cache"])
        // 9 photos in 4 tiles: the burst one, the copy with its original another.
        var (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 4") && $0.contains("[5]") && $0.contains("[2]") }
        #expect(ok, "\(screen)")
        #expect(status(screen).contains("2 stacks of bursts (7 photos; Tab opens one)"), "\(status(screen))")
        try tmux.send("Tab")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 8") && $0.contains("[1/5]") && $0.contains("[3/5]") }
        #expect(ok, "Tab opens: \(screen)")
        try tmux.send("Tab")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 4") && self.status($0).contains("stack of 5 closed") }
        #expect(ok, "Tab closes: \(status(screen))")
        try tmux.send("R", "4")
        (ok, screen) = try tmux.waitFor { self.status($0).contains("5 photos: 4 stars") }
        #expect(ok, "\(status(screen))")
        for i in 1...5 { #expect(XMPRating.read(TestImages.read(folder + "/photos/burst_\(i).jpg.xmp") ?? []) == 4, "burst_\(i)") }
        #expect(access(folder + "/photos/other_1.jpg.xmp", F_OK) != 0)
        try tmux.send("q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)

        // --no-stacks: every photo its own tile.
        let flat = try Tmux(columns: 140, rows: 30, command: "\(Paths.binary) --mode halfblock --no-stacks \(folder)/photos",
                            environment: ["COLORTERM": "truecolor", "XDG_CACHE_HOME": folder + "/cache"])
        (ok, screen) = try flat.waitFor(seconds: 3) { $0.contains("[5]") }
        #expect(!ok && status(screen).contains("1 of 9"), "\(status(screen))")
        try flat.send("q")
    }

    @Test func duplicatesPrintsTheCopyAndTheBurstOneGroupAParagraph() throws {
        let folder = try makeFolder("duplicates")
        defer { TestImages.remove(folder) }
        let result = try Subprocess.run([Paths.binary, "--duplicates", folder + "/photos"], environment: ["XDG_CACHE_HOME": folder + "/cache"])
        #expect(result.status == 0)
        let photos = folder + "/photos/"
        let expected = "# identical (2)\n\(photos)other_2.jpg\n\(photos)copies/other_2 copy.jpg\n\n"
            + "# near-identical (5)\n" + (1...5).map { "\(photos)burst_\($0).jpg\n" }.joined()
        #expect(String(decoding: result.output, as: UTF8.self) == expected)
        #expect(result.errorText.contains("1 group of identical photos, 1 of near-identical, among 9 photos"), "\(result.errorText)")
    }
}
