import Foundation
import Glibc
import Testing
@testable import PhotoGridGallery
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Copies and moves to folders (`FileMove`): a group goes whole or not at all, a name taken in
/// the folder is never written over, a move across file systems is a verified copy, and undoing
/// puts every byte back.
struct FileMoveTests {
    func files(_ folder: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: folder)) ?? []).sorted()
    }

    @Test func aGroupMovesWholeAndComesBackByteIdentical() throws {
        let folder = TestImages.scratchFolder("file-move")
        defer { TestImages.remove(folder) }
        mkdir(folder + "/card", 0o755)
        mkdir(folder + "/picks", 0o755)
        let names = ["IMG_1.JPG", "IMG_1.NEF", "IMG_1.JPG.xmp"]
        for (index, name) in names.enumerated() { TestImages.write(Array(repeating: UInt8(index + 1), count: 3000 * (index + 1)), to: folder + "/card/" + name) }
        let done = try FileMove.transfer(names.map { RawPath(folder + "/card/" + $0) }, into: RawPath(folder + "/picks"), copy: false)
        #expect(done.map(\.to.description) == names.map { folder + "/picks/" + $0 })
        #expect(files(folder + "/card").isEmpty)
        #expect(files(folder + "/picks") == names.sorted())
        #expect(FileMove.undo(done, copied: false).isEmpty)
        #expect(files(folder + "/picks").isEmpty)
        for (index, name) in names.enumerated() {
            #expect(TestImages.read(folder + "/card/" + name) == Array(repeating: UInt8(index + 1), count: 3000 * (index + 1)))
        }
    }

    @Test func aNameTakenKeepsTheWholeGroupWhereItIs() throws {
        let folder = TestImages.scratchFolder("file-move-clash")
        defer { TestImages.remove(folder) }
        mkdir(folder + "/card", 0o755)
        mkdir(folder + "/picks", 0o755)
        TestImages.write([1, 1], to: folder + "/card/a.jpg")
        TestImages.write([2, 2], to: folder + "/card/a.jpg.xmp")
        TestImages.write([9], to: folder + "/picks/a.jpg.xmp")
        #expect(throws: FileMove.Failure.clash(name: "a.jpg.xmp")) {
            try FileMove.transfer([RawPath(folder + "/card/a.jpg"), RawPath(folder + "/card/a.jpg.xmp")], into: RawPath(folder + "/picks"), copy: false)
        }
        // Nothing moved, nothing overwritten.
        #expect(files(folder + "/card") == ["a.jpg", "a.jpg.xmp"])
        #expect(files(folder + "/picks") == ["a.jpg.xmp"])
        #expect(TestImages.read(folder + "/picks/a.jpg.xmp") == [9])
        // Into its own folder: refused, not a clash with itself.
        #expect(throws: FileMove.Failure.failed("it is in that folder already")) {
            try FileMove.transfer([RawPath(folder + "/card/a.jpg")], into: RawPath(folder + "/card"), copy: true)
        }
    }

    @Test func aFailureHalfwayPutsBackWhatWentFirst() throws {
        let folder = TestImages.scratchFolder("file-move-halfway")
        defer { TestImages.remove(folder) }
        mkdir(folder + "/card", 0o755)
        mkdir(folder + "/picks", 0o755)
        TestImages.write([1], to: folder + "/card/a.jpg")
        // The second file is not there: the first comes back.
        #expect(throws: FileMove.Failure.self) {
            try FileMove.transfer([RawPath(folder + "/card/a.jpg"), RawPath(folder + "/card/gone.xmp")], into: RawPath(folder + "/picks"), copy: false)
        }
        #expect(files(folder + "/card") == ["a.jpg"])
        #expect(files(folder + "/picks").isEmpty)
    }

    @Test func aCopyKeepsTimeAndPermissionsAndItsUndoKeepsAChangedCopy() throws {
        let folder = TestImages.scratchFolder("file-copy")
        defer { TestImages.remove(folder) }
        mkdir(folder + "/card", 0o755)
        mkdir(folder + "/picks", 0o755)
        let bytes = (0..<3_000_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        TestImages.write(bytes, to: folder + "/card/a.jpg")
        TestImages.write([5], to: folder + "/card/b.jpg")
        chmod(folder + "/card/a.jpg", 0o640)
        var times = [timespec(tv_sec: 1_500_000_000, tv_nsec: 123_000_000), timespec(tv_sec: 1_500_000_000, tv_nsec: 123_000_000)]
        utimensat(AT_FDCWD, folder + "/card/a.jpg", &times, 0)
        let done = try FileMove.transfer([RawPath(folder + "/card/a.jpg"), RawPath(folder + "/card/b.jpg")], into: RawPath(folder + "/picks"), copy: true)
        #expect(TestImages.read(folder + "/picks/a.jpg") == bytes && TestImages.read(folder + "/card/a.jpg") == bytes)
        let copy = try #require(RawPath(folder + "/picks/a.jpg").status())
        #expect(copy.permissions == 0o640)
        #expect(copy.modified == 1_500_000_000_123_000_000)
        // No temporary file left.
        #expect(files(folder + "/picks") == ["a.jpg", "b.jpg"])
        // b.jpg's copy changed since: undo keeps it and says so; a.jpg's goes.
        TestImages.write([6], to: folder + "/picks/b.jpg")
        let failures = FileMove.undo(done, copied: true)
        #expect(failures == ["b.jpg changed since: kept"])
        #expect(files(folder + "/picks") == ["b.jpg"])
        #expect(files(folder + "/card") == ["a.jpg", "b.jpg"])
    }

    @Test func aMoveToAnotherFileSystemIsAVerifiedCopyThenADeletion() throws {
        let folder = TestImages.scratchFolder("file-move-device")
        defer { TestImages.remove(folder) }
        var template = Array("/dev/shm/photogrid-move-XXXXXX".utf8CString)
        let other = try #require(template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }.map { String(cString: $0) })
        defer { TestImages.remove(other) }
        let here = try #require(RawPath(folder).status()).device, there = try #require(RawPath(other).status()).device
        try #require(here != there, "/dev/shm is on the same file system as the scratch folder here")
        let bytes = (0..<2_500_000).map { UInt8(truncatingIfNeeded: $0 &* 13) }
        TestImages.write(bytes, to: folder + "/a.jpg")
        let done = try FileMove.transfer([RawPath(folder + "/a.jpg")], into: RawPath(other), copy: false)
        #expect(access(folder + "/a.jpg", F_OK) != 0)
        #expect(TestImages.read(other + "/a.jpg") == bytes)
        #expect(files(other) == ["a.jpg"])
        #expect(FileMove.undo(done, copied: false).isEmpty)
        #expect(TestImages.read(folder + "/a.jpg") == bytes)
        #expect(files(other).isEmpty)
    }
}

/// The grid's readings take away what a killed photogrid left (`FolderScanner.removesLeftovers`);
/// other readings (`serve`, `--read-only`, `--print`) leave the folder as it is.
struct LeftoverReadingTests {
    @Test func aReadingRemovesAKilledWritersTemporaryOnlyWhenAsked() throws {
        let folder = TestImages.scratchFolder("leftover-reading")
        defer { TestImages.remove(folder) }
        TestImages.write(try #require(TestImages.read(Paths.gallery + "/landscapes/autumn-01.jpg")), to: folder + "/a.jpg")
        let most = FileDescriptor.kernelFile("/proc/sys/kernel/pid_max").flatMap { Int($0.trimmingWhitespace) } ?? 4_194_304
        let leftover = folder + "/.a.jpg.xmp.photogrid-\(most + 1)-0"
        TestImages.write(Array("<x:xmpmeta".utf8), to: leftover)
        var scanner = FolderScanner()
        scanner.showHidden = true
        #expect(try scanner.scan(RawPath(folder)).map(\.name) == ["a.jpg"])
        #expect(access(leftover, F_OK) == 0, "a reading not asked to removed it")
        scanner.removesLeftovers = true
        #expect(try scanner.scan(RawPath(folder)).map(\.name) == ["a.jpg"])
        #expect(access(leftover, F_OK) != 0)
    }
}
