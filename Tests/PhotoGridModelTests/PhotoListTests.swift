import PhotoGridSystem
import Testing
@testable import PhotoGridModel
import PhotoGridTestSupport

/// A photo's identity, issued by the table and kept through every list made of it: what lets a
/// new order or a filter keep the pipeline's work (docs/architecture.md, "A list change").
@Suite struct PhotoListTests {
    static func photo(_ name: String, size: Int = 100, modified: Int64 = 1) -> Photo {
        Photo(path: RawPath("/pictures/" + name), relativePath: RawPath(name), fileSize: size, format: .jpeg,
              stamp: FileStamp(size: size, modified: modified))
    }

    @Test func aPhotoSeenAgainKeepsItsIdentityWhateverTheOrder() {
        let table = PhotoTable()
        let first = table.ids(for: ["a.jpg", "b.jpg", "c.jpg"].map { Self.photo($0) })
        let again = table.ids(for: ["c.jpg", "a.jpg", "d.jpg", "b.jpg"].map { Self.photo($0) })
        #expect(again == [first[2], first[0], PhotoID(raw: 3), first[1]])
        #expect(table.count == 4)
        #expect(table.id(of: .file(RawPath("/pictures/b.jpg"))) == first[1])
        #expect(table.id(of: .file(RawPath("/pictures/nowhere.jpg"))) == nil)
    }

    @Test func aPhotoReadAgainKeepsItsIdentityAndTakesTheNewRecord() {
        let table = PhotoTable()
        let id = table.id(for: Self.photo("a.jpg", size: 100, modified: 1))
        #expect(table.id(for: Self.photo("a.jpg", size: 250, modified: 9)) == id)
        #expect(table[id].stamp == FileStamp(size: 250, modified: 9))
    }

    @Test func aFileAndARemotePhotoOfOneNameAreTwoPhotos() {
        let table = PhotoTable()
        let file = table.id(for: Self.photo("a.jpg"))
        let remote = table.id(for: .remote("https://example.org/a.jpg", relativePath: RawPath("a.jpg")))
        let sameRemote = table.id(for: .remote("https://example.org/a.jpg", relativePath: RawPath("elsewhere/a.jpg")))
        #expect(file != remote)
        #expect(remote == sameRemote)
    }

    @Test func aListFindsItsPhotosByIdentity() {
        let table = PhotoTable()
        let ids = table.ids(for: (0..<6).map { Self.photo("p\($0).jpg") })
        // Sorted the other way, then filtered to every second photo: positions change, names do not.
        let sorted = PhotoList(table: table, ids: ids.reversed())
        let filtered = PhotoList(table: table, ids: sorted.ids.enumerated().filter { $0.offset % 2 == 0 }.map(\.element))
        #expect(sorted.index(of: ids[5]) == 0)
        #expect(sorted[0].name == "p5.jpg")
        #expect(filtered.map(\.name) == ["p5.jpg", "p3.jpg", "p1.jpg"])
        #expect(filtered.index(of: ids[3]) == 1)
        #expect(filtered.index(of: ids[4]) == nil)
        #expect(!filtered.contains(ids[0]))
        #expect(filtered.records.map(\.name) == filtered.map(\.name))
    }

    @Test func anIdentityFromBeyondTheListIsNotInIt() {
        let list = PhotoList([Self.photo("a.jpg")])
        #expect(list.index(of: PhotoID(raw: 7)) == nil)
        #expect(list.index(of: PhotoID(raw: 0)) == 0)
        #expect(PhotoList(table: list.table, ids: []).isEmpty)
    }

    @Test func aPhotoTwiceInAListIsFoundAtItsFirstPlace() {
        let table = PhotoTable()
        let ids = table.ids(for: [Self.photo("a.jpg"), Self.photo("b.jpg")])
        let list = PhotoList(table: table, ids: [ids[1], ids[0], ids[1]])
        #expect(list.index(of: ids[1]) == 0)
        #expect(list.count == 3)
    }
}
