import Foundation
import Glibc
import Testing
@testable import PhotoGridCore
import PhotoGridSamples

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
