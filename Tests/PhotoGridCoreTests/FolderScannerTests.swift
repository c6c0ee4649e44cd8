import Glibc
import Testing
@testable import PhotoGridCore

@Suite struct FolderScannerTests {
    @Test func walksRecursivelySortedSkippingHiddenAndLoops() throws {
        let root = TestImages.scratchFolder("scan")
        defer { TestImages.remove(root) }
        for dir in ["b", "a", "a/deeper", ".hidden", "a/.secret"] { mkdir(root + "/" + dir, 0o755) }
        for file in ["z.jpg", "b/1.JPG", "a/2.jpeg", "a/deeper/3.jpg", "a/notes.txt", ".hidden/4.jpg", "a/.secret/5.jpg",
                     ".dot.jpg", "a/raw.png", "a/photo.heic", "b/odd.JpE"] {
            TestImages.write([0xFF, 0xD8], to: root + "/" + file)
        }
        symlink(root, root + "/a/loop")                 // a loop back to the top
        symlink(root + "/b/1.JPG", root + "/link.jpg")  // a link to a photo counts as a photo
        symlink(root + "/gone.jpg", root + "/dangling.jpg")
        let photos = try FolderScanner().scan(RawPath(root))
        #expect(photos.map(\.relativePath.description) == [
            "a/2.jpeg", "a/deeper/3.jpg", "a/photo.heic", "a/raw.png", "b/1.JPG", "b/odd.JpE",
            "dangling.jpg", "link.jpg", "z.jpg",
        ])
        #expect(photos.first { $0.name == "raw.png" }?.format == .other("PNG"))
        #expect(photos.first { $0.name == "odd.JpE" }?.format == .jpeg)
    }

    @Test func namesThatAreNotUTF8StillOpen() throws {
        let root = TestImages.scratchFolder("names")
        defer { TestImages.remove(root) }
        let name: [UInt8] = Array("caf".utf8) + [0xE9] + Array(".jpg".utf8)     // Latin-1 é
        let path = RawPath(root).appending(name)
        let jpeg = try JPEG.encode(TestImages.gradient(width: 16, height: 16), quality: 80)
        let fd = path.withCString { open($0, O_WRONLY | O_CREAT, 0o644) }
        _ = jpeg.withUnsafeBytes { write(fd, $0.baseAddress!, $0.count) }
        close(fd)
        let photos = try FolderScanner().scan(RawPath(root))
        #expect(photos.count == 1)
        #expect(photos[0].path == path)
        #expect(photos[0].name == "caf\u{FFFD}.jpg")
        #expect(try PhotoDecoder().image(of: photos[0], covering: 8, atMost: 8).image.width == 8)
    }

    @Test func aMissingOrPlainFileRootIsAClearError() {
        #expect(throws: FolderScanner.ScanError.self) { try FolderScanner().scan(RawPath("/nonexistent/photos")) }
        #expect(throws: FolderScanner.ScanError.self) { try FolderScanner().scan(RawPath("/etc/hostname")) }
    }
}
