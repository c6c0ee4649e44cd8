import Foundation
import Glibc
import Testing
@testable import PhotoGridGallery
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The freedesktop.org trash (`Trash`) against the Trash specification 1.0: files and their
/// .trashinfo where the spec puts them and as it words them, a second file of the same name, a
/// file on another file system into that volume's own trash, and putting back.
struct TrashTests {
    func trash(home: String) -> Trash {
        Trash(environment: ["XDG_DATA_HOME": home], clock: ManualClock())!
    }

    func infoText(_ path: RawPath) -> String { String(decoding: TestImages.read(path.description) ?? [], as: UTF8.self) }

    @Test func aPhotoGoesToTheHomeTrashWithItsInfoAndComesBack() throws {
        let folder = TestImages.scratchFolder("trash")
        defer { TestImages.remove(folder) }
        mkdir(folder + "/photos", 0o755)
        let photo = folder + "/photos/Beach day #1.jpg"
        TestImages.write([1, 2, 3], to: photo)
        let trash = trash(home: folder + "/data")
        let entry = try trash.move(RawPath(photo))
        #expect(access(photo, F_OK) != 0)
        #expect(entry.trashed.description == folder + "/data/Trash/files/Beach day #1.jpg")
        #expect(TestImages.read(entry.trashed.description) == [1, 2, 3])
        let info = infoText(entry.info)
        #expect(entry.info.description == folder + "/data/Trash/info/Beach day #1.jpg.trashinfo")
        // An absolute path, percent-encoded as a URI's path; local time without a zone.
        let expectedPath = "Path=" + folder + "/photos/Beach%20day%20%231.jpg"
        #expect(info.hasPrefix("[Trash Info]\n" + expectedPath + "\nDeletionDate="), "\(info)")
        #expect(info.range(of: #"DeletionDate=\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\n$"#, options: .regularExpression) != nil, "\(info)")
        // The trash's folders are the user's alone.
        var status = stat()
        stat(folder + "/data/Trash/files", &status)
        #expect(status.st_mode & 0o777 == 0o700)

        try trash.restore(entry)
        #expect(TestImages.read(photo) == [1, 2, 3])
        #expect(access(entry.info.description, F_OK) != 0, "the .trashinfo was left")
    }

    @Test func aSecondFileOfTheSameNameGetsAnotherAndNothingIsOverwrittenOnTheWayBack() throws {
        let folder = TestImages.scratchFolder("trash-names")
        defer { TestImages.remove(folder) }
        let trash = trash(home: folder + "/data")
        TestImages.write([1], to: folder + "/a.jpg")
        let first = try trash.move(RawPath(folder + "/a.jpg"))
        TestImages.write([2], to: folder + "/a.jpg")
        let second = try trash.move(RawPath(folder + "/a.jpg"))
        #expect(second.trashed.lastComponent.description == "a.2.jpg")
        #expect(TestImages.read(first.trashed.description) == [1])
        #expect(infoText(second.info).contains("Path=" + folder + "/a.jpg\n"))
        // Back: the first comes back; the second finds the name taken and stays in the trash.
        try trash.restore(first)
        #expect(throws: Trash.Failure.occupied) { try trash.restore(second) }
        #expect(TestImages.read(folder + "/a.jpg") == [1])
        #expect(TestImages.read(second.trashed.description) == [2])
    }

    @Test func aFileOnAnotherFileSystemGoesToThatVolumesTrash() throws {
        let home = TestImages.scratchFolder("trash-home")
        defer { TestImages.remove(home) }
        // /dev/shm is a tmpfs of its own: another file system than the home trash's.
        var template = Array("/dev/shm/photogrid-trash-XXXXXX".utf8CString)
        let other = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { TestImages.remove(other) }
        let homeDevice = try #require(RawPath(home).status()).device
        let otherDevice = try #require(RawPath(other).status()).device
        try #require(homeDevice != otherDevice, "/dev/shm is on the same file system as /tmp here")
        TestImages.write([7], to: other + "/card.jpg")
        let entry = try trash(home: home + "/data").move(RawPath(other + "/card.jpg"))
        // The volume's top is /dev/shm; no shared .Trash there, so .Trash-UID.
        let top = Trash.top(of: RawPath(other), device: otherDevice).description
        #expect(top == "/dev/shm")
        #expect(entry.trashed.description.hasPrefix("/dev/shm/.Trash-\(getuid())/files/card"))
        // In a volume's trash the path is relative to the volume's top.
        let relative = String(other.dropFirst("/dev/shm/".count)) + "/card.jpg"
        #expect(infoText(entry.info).contains("\nPath=" + relative + "\n"), "\(infoText(entry.info))")
        #expect(access(home + "/data/Trash/files/card.jpg", F_OK) != 0, "copied across file systems")
        try trash(home: home + "/data").restore(entry)
        #expect(TestImages.read(other + "/card.jpg") == [7])
    }

    @Test func withoutAHomeThereIsNoTrashAndAFileThatIsNotThereSaysSo() {
        #expect(Trash(environment: [:]) == nil)
        #expect(Trash(environment: ["XDG_DATA_HOME": "relative/path"]) == nil)
        let trash = trash(home: "/tmp/photogrid-test-no-such")
        #expect(throws: Trash.Failure.self) { try trash.move(RawPath("/tmp/photogrid-test-no-such-folder/x.jpg")) }
    }

    @Test func namesAndPathsAreWrittenAsTheSpecSays() {
        #expect(Trash.name(Array("IMG_1.JPG".utf8), attempt: 3) == Array("IMG_1.3.JPG".utf8))
        #expect(Trash.name(Array("README".utf8), attempt: 2) == Array("README.2".utf8))
        #expect(Trash.name(Array(".hidden".utf8), attempt: 2) == Array(".hidden.2".utf8))
        #expect(Trash.encode(RawPath([0x2F, 0x61, 0x20, 0xC3, 0xA9, 0x25])) == "/a%20%C3%A9%25")
    }
}
