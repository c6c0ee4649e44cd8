import Foundation
import Glibc
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// Captions put into XMP packets (`XMPCaptionEdit`) and sidecars written beside photos (`Sidecar`):
/// the caption reads back with `XMPReader`, every other byte of a packet stays as it was, and a
/// packet or a file that cannot be edited safely is left alone.
struct SidecarTests {

    func text(_ bytes: [UInt8]?) -> String { String(decoding: bytes ?? [], as: UTF8.self) }

    /// `edited` is `original` with one run of bytes replaced: what was there and what came instead.
    func difference(_ original: String, _ edited: String) -> (removed: String, inserted: String) {
        let a = Array(original.utf8), b = Array(edited.utf8)
        var start = 0
        while start < a.count, start < b.count, a[start] == b[start] { start += 1 }
        var endA = a.count, endB = b.count
        while endA > start, endB > start, a[endA - 1] == b[endB - 1] { endA -= 1; endB -= 1 }
        return (String(decoding: a[start..<endA], as: UTF8.self), String(decoding: b[start..<endB], as: UTF8.self))
    }

    @Test func aFreshSidecarReadsBackWithItsTextEscaped() {
        let caption = "Sunset at the <pier> & \"bay\" — ☀"
        let packet = XMPCaptionEdit.fresh(caption)
        #expect(XMPReader.description(packet) == caption)
        #expect(text(packet).contains("&lt;pier&gt; &amp;"))
        // Control characters, which XML does not allow, are left out; line breaks stay.
        #expect(XMPReader.description(XMPCaptionEdit.fresh("a\u{1B}[31mb\nc\u{7}")) == "a[31mb\nc")
    }

    @Test func aCaptionJoinsADarktableSidecarAndNothingElseChanges() throws {
        let merged = try #require(XMPCaptionEdit.merge("Harbour at dawn", into: Array(MetadataFixtures.darktable.utf8)))
        #expect(XMPReader.description(merged) == "Harbour at dawn")
        let (removed, inserted) = difference(MetadataFixtures.darktable, text(merged))
        #expect(removed.isEmpty, "bytes were taken out: \(removed)")
        #expect(inserted.contains("xmlns:dc=\"http://purl.org/dc/elements/1.1/\"") && inserted.contains("Harbour at dawn"))
        // Edited again: only the text changes. Taken out: the packet is as it was.
        let again = try #require(XMPCaptionEdit.merge("Harbour & boats", into: merged))
        #expect(text(again) == text(merged).replacingOccurrences(of: ">Harbour at dawn<", with: ">Harbour &amp; boats<"))
        let emptied = try #require(XMPCaptionEdit.merge("", into: again))
        #expect(XMPReader.description(emptied) == nil)
        #expect(text(emptied).contains("darktable:history_end=\"2\"") && text(emptied).contains("xmp:Rating=\"3\""))
        #expect(!text(emptied).contains("dc:description"))
    }

    @Test func otherLanguagesAreKeptAndTheDefaultIsWhatChanges() throws {
        let packet = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmlns:dc="http://purl.org/dc/elements/1.1/"><dc:description><rdf:Alt>
        <rdf:li xml:lang="de-DE">Hafen</rdf:li><rdf:li xml:lang="x-default">Harbour</rdf:li>
        </rdf:Alt></dc:description></rdf:Description></rdf:RDF></x:xmpmeta>
        """
        let merged = try #require(XMPCaptionEdit.merge("Old harbour", into: Array(packet.utf8)))
        #expect(text(merged) == packet.replacingOccurrences(of: ">Harbour</rdf:li>", with: ">Old harbour</rdf:li>"))
        let emptied = try #require(XMPCaptionEdit.merge("", into: merged))
        #expect(text(emptied).contains("<rdf:li xml:lang=\"de-DE\">Hafen</rdf:li>") && !text(emptied).contains("x-default"))
        // Without a default, one is put first: readers show it, and the German one stays.
        let added = try #require(XMPCaptionEdit.merge("Harbour", into: emptied))
        #expect(XMPReader.description(added) == "Harbour")
        #expect(text(added).contains("<rdf:li xml:lang=\"x-default\">Harbour</rdf:li><rdf:li xml:lang=\"de-DE\">Hafen</rdf:li>"))
    }

    @Test func theAttributeFormIsEditedWhereItIs() throws {
        let packet = """
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description xmp:Label="dc:description='no'" dc:description='Old' xmlns:dc="http://purl.org/dc/elements/1.1/"/>
        </rdf:RDF></x:xmpmeta>
        """
        let merged = try #require(XMPCaptionEdit.merge("It's \"new\"\nline", into: Array(packet.utf8)))
        #expect(XMPReader.description(merged) == "It's \"new\"\nline")
        // Text inside another attribute's value is not taken for the caption.
        #expect(text(merged).contains("xmp:Label=\"dc:description='no'\""))
        let emptied = try #require(XMPCaptionEdit.merge("", into: merged))
        #expect(text(emptied) == packet.replacingOccurrences(of: " dc:description='Old'", with: ""))
    }

    @Test func packetsThatDoNotScanWholeAreNotEdited() {
        let cut = String(MetadataFixtures.darktable.prefix(300))
        let mismatched = MetadataFixtures.darktable.replacingOccurrences(of: "</rdf:Seq>", with: "</rdf:Bag>")
        let noRDF = "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"></x:xmpmeta>"
        let unquoted = MetadataFixtures.darktable.replacingOccurrences(of: "xmp:Rating=\"3\"", with: "xmp:Rating=3")
        for packet in [cut, mismatched, noRDF, unquoted, "", "not xml at all"] {
            #expect(XMPCaptionEdit.merge("x", into: Array(packet.utf8)) == nil, "\(packet.prefix(60))")
        }
    }

    @Test func savingWritesBesideThePhotoAndKeepsThePermissions() throws {
        let folder = TestImages.scratchFolder("sidecar")
        defer { TestImages.remove(folder) }
        let photo = RawPath(folder + "/IMG_1.jpg")
        TestImages.write([0xFF, 0xD8, 0xFF, 0xD9], to: photo.description)
        let sidecar = Sidecar(photo: photo)
        #expect(sidecar.path.description == folder + "/IMG_1.jpg.xmp")
        // Nothing to take out of a sidecar that is not there: no file.
        #expect(sidecar.save(caption: "") == nil)
        #expect(access(sidecar.path.description, F_OK) != 0)
        let mask = umask(0o022)
        defer { umask(mask) }
        #expect(sidecar.save(caption: "First") == nil)
        #expect(sidecar.caption() == "First")
        var info = stat()
        stat(sidecar.path.description, &info)
        #expect(info.st_mode & 0o777 == 0o644)
        chmod(sidecar.path.description, 0o640)
        #expect(sidecar.save(caption: "Second") == nil)
        stat(sidecar.path.description, &info)
        #expect(info.st_mode & 0o777 == 0o640 && sidecar.caption() == "Second")
        // No temporary file is left behind, and the photo is as it was.
        let names = try FileManager.default.contentsOfDirectory(atPath: folder).sorted()
        #expect(names == ["IMG_1.jpg", "IMG_1.jpg.xmp"])
        #expect(try FileReader.read(photo) == [0xFF, 0xD8, 0xFF, 0xD9])
        // The caption cleared: the sidecar photogrid made for it alone goes with it.
        #expect(sidecar.save(caption: "") == nil)
        #expect(access(sidecar.path.description, F_OK) != 0)
        // One someone else wrote, or one with anything more in it, stays, without the caption.
        TestImages.write(Array(MetadataFixtures.darktable.utf8), to: sidecar.path.description)
        #expect(sidecar.save(caption: "Third") == nil && sidecar.save(caption: "") == nil)
        #expect(access(sidecar.path.description, F_OK) == 0 && sidecar.caption() == nil)
    }

    @Test func linksHugeAndMalformedSidecarsAreLeftAlone() throws {
        let folder = TestImages.scratchFolder("sidecar")
        let outside = TestImages.scratchFolder("outside")
        defer { TestImages.remove(folder); TestImages.remove(outside) }
        let target = outside + "/elsewhere.xmp"
        TestImages.write(Array(MetadataFixtures.darktable.utf8), to: target)
        let linked = Sidecar(photo: RawPath(folder + "/a.jpg"))
        symlink(target, linked.path.description)
        #expect(linked.read() == .failure(.link))
        #expect(linked.caption() == nil)
        #expect(linked.save(caption: "x") == .link)
        #expect(try FileReader.read(RawPath(target)) == Array(MetadataFixtures.darktable.utf8))
        #expect(linked.message(.link) == "a.jpg.xmp is a symbolic link: photogrid does not follow it")

        let huge = Sidecar(photo: RawPath(folder + "/b.jpg"))
        let big = Array(MetadataFixtures.darktable.utf8) + [UInt8](repeating: 0x20, count: Sidecar.maxBytes)
        TestImages.write(big, to: huge.path.description)
        #expect(huge.save(caption: "x") == .tooLarge)
        #expect(try FileReader.read(huge.path, limit: .max) == big)

        let broken = Sidecar(photo: RawPath(folder + "/c.jpg"))
        let cut = Array(MetadataFixtures.darktable.utf8.prefix(200))
        TestImages.write(cut, to: broken.path.description)
        #expect(broken.checkWritable() == .malformed)
        #expect(broken.save(caption: "x") == .malformed)
        #expect(try FileReader.read(broken.path) == cut)

        let folderAsSidecar = Sidecar(photo: RawPath(folder + "/d.jpg"))
        mkdir(folderAsSidecar.path.description, 0o755)
        #expect(folderAsSidecar.save(caption: "x") == .notAFile)
    }

    @Test func theDetailsTakeTheSidecarsCaptionFirst() throws {
        let folder = TestImages.scratchFolder("sidecar")
        defer { TestImages.remove(folder) }
        let path = folder + "/p.jpg"
        TestImages.write(try JPEG.encode(TestImages.gradient(width: 64, height: 48), quality: 80), to: path)
        let photo = try #require(try FolderScanner().scan(RawPath(folder)).first)
        #expect(PhotoDecoder().info(of: photo)?.captionSource == nil)
        #expect(Sidecar(photo: try #require(photo.file)).save(caption: "From the sidecar") == nil)
        let info = try #require(PhotoDecoder().info(of: photo))
        #expect(info.caption == "From the sidecar" && info.captionSource == .sidecar)
        // A photo that is not a file (a remote one) has no sidecar to read, even where its name
        // ends like this one's.
        let remote = Photo.remote("http://127.0.0.1:9/p.jpg", relativePath: photo.relativePath)
        #expect(PhotoInfo().withSidecar(of: remote).caption == nil)
        #expect(PhotoInfo().withSidecar(of: photo).caption == "From the sidecar")
        // The photo's own details stay beside the sidecar's caption.
        #expect(PhotoDecoder().info(of: photo)?.width == 64)
        // A video's details are its sidecar's caption, when it has one.
        TestImages.write([0, 0, 0, 24] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("mp42isom".utf8), to: folder + "/clip.mp4")
        let video = try #require(try FolderScanner().scan(RawPath(folder)).first { $0.name == "clip.mp4" })
        #expect(PhotoDecoder().info(of: video) == nil)
        #expect(Sidecar(photo: try #require(video.file)).save(caption: "Jumping in") == nil)
        #expect(PhotoDecoder().info(of: video)?.caption == "Jumping in")
    }
}
