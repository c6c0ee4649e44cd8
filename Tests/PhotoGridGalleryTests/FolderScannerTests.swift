import Glibc
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridSystem
import PhotoGridTestFixtures

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
        // Natural order: the top folder's photos first, each folder's before its subfolders'.
        #expect(photos.map(\.relativePath.description) == [
            "dangling.jpg", "link.jpg", "z.jpg", "a/2.jpeg", "a/photo.heic", "a/raw.png", "a/deeper/3.jpg",
            "b/1.JPG", "b/odd.JpE",
        ])
        #expect(photos.first { $0.name == "raw.png" }?.format == .png)
        #expect(photos.first { $0.name == "odd.JpE" }?.format == .jpeg)
    }

    /// Pictures whose names say nothing are known by their first bytes; other files stay out.
    @Test func picturesWithoutAPictureNameAreKnownByTheirContent() throws {
        let root = TestImages.scratchFolder("sniff")
        defer { TestImages.remove(root) }
        let jpeg: [UInt8] = [0xFF, 0xD8, 0xFF, 0xE0, 0, 16, 0x4A, 0x46, 0x49, 0x46]
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]
        let webp = Array("RIFF\u{0}\u{0}\u{0}\u{0}WEBPVP8 ".utf8)
        let mp4 = [0, 0, 0, 24] + Array("ftypmp42".utf8) + [0, 0, 0, 0]
        let heic = [0, 0, 0, 24] + Array("ftypheic".utf8) + [0, 0, 0, 0]
        for (name, bytes) in [("IMG_0001", jpeg), ("screenshot", png), ("download.bin", webp), ("photo.txt", jpeg),
                              ("README", Array("# not a picture\n".utf8)), ("tiny", [0xFF, 0xD8]),
                              ("clip.mp4", mp4), ("IMG_0002", heic), ("BMW.txt", Array("BMW service notes".utf8))] {
            TestImages.write(bytes, to: root + "/" + name)
        }
        let photos = try FolderScanner().scan(RawPath(root))
        // The video is in the grid too, as a tile that plays it.
        #expect(photos.map(\.relativePath.description) == ["clip.mp4", "download.bin", "IMG_0001", "IMG_0002", "photo.txt", "screenshot"])
        #expect(photos.map(\.format) == [.video("MP4 video"), .webp, .jpeg, .heif, .jpeg, .png])
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
        #expect(photos[0].file == path)
        #expect(photos[0].name == "caf\u{FFFD}.jpg")
        #expect(try PhotoDecoder().image(of: photos[0], covering: 8, atMost: 8).image.width == 8)
    }

    @Test func aMissingOrPlainFileRootIsAClearError() {
        #expect(throws: FolderScanner.ScanError.self) { try FolderScanner().scan(RawPath("/nonexistent/photos")) }
        #expect(throws: FolderScanner.ScanError.self) { try FolderScanner().scan(RawPath("/etc/hostname")) }
    }
}
