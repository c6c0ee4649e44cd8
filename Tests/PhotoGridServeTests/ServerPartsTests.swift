import Foundation
import Testing
@testable import GalleryFormats
@testable import PhotoGridDiskCache
@testable import PhotoGridMetadata
@testable import PhotoGridServe
import PhotoGridTestFixtures

/// The server's pieces without the network: routes, percent-encoding, ranges, validators, JSON.
@Suite struct ServerPartsTests {
    /// The manifest's photos in natural order, a folder reached through a link listed once under
    /// its own path, hidden files left out: as the grid shows the same folder.
    @Test func theIndexListsAFolderAsTheGridShowsIt() throws {
        let root = RemotePaths.scratch("index-order")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let jpeg = try Data(contentsOf: URL(fileURLWithPath: RemotePaths.gallery + "/travel/beach-01.jpg"))
        try FileManager.default.createDirectory(atPath: root + "/Camera", withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: root + "/.cache", withIntermediateDirectories: true)
        for name in ["IMG_10.jpg", "img_2.jpg", "Camera/b.jpg", ".hidden.jpg", ".cache/c.jpg"] {
            try jpeg.write(to: URL(fileURLWithPath: root + "/" + name))
        }
        try FileManager.default.createSymbolicLink(atPath: root + "/A-favourites", withDestinationPath: root + "/Camera")
        let index = try GalleryIndex(folder: root)
        #expect(index.entries.map(\.id) == ["img_2.jpg", "IMG_10.jpg", "Camera/b.jpg"])
    }

    @Test func routes() {
        let id = Array("travel/a b.jpg".utf8)
        #expect(Route(target: "/") == .manifest)
        #expect(Route(target: "/manifest.json?page=2") == .manifest)
        #expect(Route(target: "/originals/travel/a%20b.jpg") == .original(id: id))
        #expect(Route(target: "/renditions/travel/a%20b.jpg/512.jpg") == .rendition(id: id, size: 512))
        // Decoded once: a %2F is a slash inside the id, a %25 stays a percent sign.
        #expect(Route(target: "/originals/travel%2Fa%20b.jpg") == .original(id: id))
        #expect(Route(target: "/originals/100%25.jpg") == .original(id: Array("100%.jpg".utf8)))
        for target in ["", "*", "manifest.json", "/originals/", "/originals/a%00b.jpg", "/originals/%4", "/originals/%g0",
                       "/renditions/a.jpg/0512.jpg", "/renditions/a.jpg/-1.jpg", "/renditions/a.jpg/9999999.jpg",
                       "/renditions/a.jpg/.jpg", "/renditions//512.jpg", "/renditions/512.jpg", "/other"] {
            #expect(Route(target: target) == .notFound, "\(target)")
        }
        #expect(Route.path(of: "/a%20b?x=1#y") == "/a%20b")
    }

    @Test func percentEncodingKeepsEveryByte() {
        #expect(RemoteURL.percentEncode(path: "alps/lake 01.jpg") == "alps/lake%2001.jpg")
        #expect(RemoteURL.percentEncode(path: "été?#%+&.jpg") == "%C3%A9t%C3%A9%3F%23%25%2B%26.jpg")
        // Names that are not UTF-8 make it through too.
        let bytes: [UInt8] = [0x61, 0xFF, 0x2F, 0x00, 0x7E]
        let encoded = RemoteURL.percentEncode(pathBytes: bytes)
        #expect(encoded == "a%FF/%00~")
        #expect(RemoteURL.strictlyPercentDecoded(encoded[...].utf8) == bytes)
        #expect(RemoteURL.strictlyPercentDecoded("%2541"[...].utf8) == Array("%41".utf8))
        #expect(RemoteURL.strictlyPercentDecoded("a+b"[...].utf8) == Array("a+b".utf8))
        #expect(RemoteURL.strictlyPercentDecoded("%"[...].utf8) == nil)
    }

    @Test func byteRanges() {
        #expect(ByteRange(header: "bytes=0-9")?.resolve(size: 100) == .bytes(0..<10))
        #expect(ByteRange(header: "BYTES = 5 - ") == nil)
        #expect(ByteRange(header: "bytes= 5- ")?.resolve(size: 100) == .bytes(5..<100))
        #expect(ByteRange(header: "bytes=-30")?.resolve(size: 100) == .bytes(70..<100))
        #expect(ByteRange(header: "bytes=-300")?.resolve(size: 100) == .bytes(0..<100))
        #expect(ByteRange(header: "bytes=90-500")?.resolve(size: 100) == .bytes(90..<100))
        #expect(ByteRange(header: "bytes=0-\(Int.max)")?.resolve(size: 100) == .bytes(0..<100))
        #expect(ByteRange(header: "bytes=100-")?.resolve(size: 100) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-0")?.resolve(size: 100) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=0-")?.resolve(size: 0) == .unsatisfiable)
        #expect(ByteRange(header: "bytes=-5")?.resolve(size: 0) == .unsatisfiable)
        for ignored in ["bytes=9-0", "bytes=0-1,3-4", "bytes=", "bytes=-", "items=0-1", "bytes=x-1", "bytes=1-y", "0-1"] {
            #expect(ByteRange(header: ignored) == nil, "\(ignored)")
        }
    }

    @Test func validators() {
        #expect(Validators.noneMatch("\"a\", \"b\"", matches: "\"b\""))
        #expect(Validators.noneMatch("W/\"b\"", matches: "\"b\""))
        #expect(Validators.noneMatch("*", matches: "\"b\""))
        #expect(!Validators.noneMatch("\"a\"", matches: "\"b\""))
        #expect(!Validators.noneMatch("b", matches: "\"b\""))
        #expect(Validators.ifRange("\"b\"", etag: "\"b\"", lastModified: "d"))
        #expect(!Validators.ifRange("W/\"b\"", etag: "\"b\"", lastModified: "d"))
        #expect(Validators.ifRange("Sun, 06 Nov 1994 08:49:37 GMT", etag: "\"b\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(!Validators.ifRange("Sun, 06 Nov 1994 08:49:38 GMT", etag: "\"b\"", lastModified: "Sun, 06 Nov 1994 08:49:37 GMT"))
        #expect(Validators.httpDate(secondsSinceEpoch: 784_111_777) == "Sun, 06 Nov 1994 08:49:37 GMT")
        #expect(Validators.httpDate(secondsSinceEpoch: 0) == "Thu, 01 Jan 1970 00:00:00 GMT")
        #expect(Validators.etag(inode: 255, size: 16, modified: 1) == "\"ff-10-1\"")
        // ETags hash fields with their lengths: ("ab", "c") and ("a", "bc") differ.
        var a = Hash128(), b = Hash128()
        a.combine(field: Array("ab".utf8)); a.combine(field: Array("c".utf8))
        b.combine(field: Array("a".utf8)); b.combine(field: Array("bc".utf8))
        #expect(a.value64 != b.value64)
    }

    @Test func jsonStringsSurviveAParser() throws {
        let nasty = "quote \" backslash \\ newline \n tab \t nul \u{0} bell \u{7} sep \u{2028} é 🌄 </script>"
        var json = JSONWriter()
        json.beginObject(linePerMember: true)
        json.member("text", nasty)
        json.member("number", 46.3636)
        json.member("count", 3)
        json.member("absent", nil as String?)
        json.key("list")
        json.beginArray(linePerMember: true)
        json.value(1)
        json.beginObject()
        json.endObject()
        json.endArray()
        json.endObject()
        let parsed = try #require(try JSONSerialization.jsonObject(with: Data(json.output)) as? [String: Any])
        #expect(parsed["text"] as? String == nasty)
        #expect(parsed["number"] as? Double == 46.3636)
        #expect(parsed["count"] as? Int == 3)
        #expect(parsed["absent"] == nil)
        #expect((parsed["list"] as? [Any])?.count == 2)
        #expect(!json.output.contains(0))
    }

    @Test func datesAndPositions() {
        #expect(Manifest.isoDate("2024:07:14 19:42:05") == "2024-07-14T19:42:05")
        for bad in ["0000:00:00 00:00:00", "    :  :     :  :  ", "2024:13:01 00:00:00", "2024-07-14 19:42:05", "2024:07:14 19:42"] {
            #expect(Manifest.isoDate(bad) == nil, "\(bad)")
        }
        var info = PhotoInfo()
        info.latitude = 43.076600000000006
        info.longitude = 200
        #expect(Manifest.details(of: info).latitude == nil)          // half a position is none
        info.longitude = 11.679699999999999
        #expect(Manifest.details(of: info).latitude == 43.0766)
        #expect(Manifest.details(of: info).longitude == 11.6797)
    }

    @Test func renditionSizes() {
        #expect(Rendition.size(width: 4000, height: 3000, longSide: 1024) == (1024, 768))
        #expect(Rendition.size(width: 1200, height: 1800, longSide: 512) == (341, 512))
        #expect(Rendition.size(width: 120, height: 80, longSide: 2048) == (120, 80))
        #expect(Rendition.size(width: 10000, height: 10, longSide: 256) == (256, 1))
    }

    /// A manual lens's EXIF says f/0 and 0 mm: the manifest leaves those out rather than carry
    /// values its readers refuse (which would make the whole gallery unreadable).
    @Test func cameraValuesAManifestMayNotCarryAreLeftOut() throws {
        var info = PhotoInfo()
        (info.make, info.iso, info.fNumber, info.exposureTime, info.focalLength) = ("Canon", 0, 0, 1.0 / 250, 0)
        let camera = Manifest.details(of: info).camera
        #expect(camera == RemotePhoto.Camera(make: "Canon", exposure: 1.0 / 250))
    }
}
