import Foundation
import Glibc
import Testing
@testable import PhotoGridCore
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Ratings as culling tools keep them (`XMPRating`, `Sidecar.save(rating:)`): read in both forms
/// writers use, written where they were found with every other byte kept, in the sidecar a
/// photo has under either naming, and read back by exiftool.
struct RatingTests {
    static let darktable = try! String(contentsOfFile: Paths.root + "/Tests/Fixtures/sidecars/darktable-IMG_0042.CR2.xmp", encoding: .utf8)

    func packet(_ description: String, namespaces: String = "xmlns:xmp=\"http://ns.adobe.com/xap/1.0/\"") -> [UInt8] {
        Array("""
        <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">
        <rdf:Description rdf:about="" \(namespaces)>\(description)</rdf:Description></rdf:RDF></x:xmpmeta>
        """.utf8)
    }

    @Test func ratingsReadInBothFormsAndOnlyFromXMPBasic() {
        #expect(XMPRating.read(Array(Self.darktable.utf8)) == 2)
        #expect(XMPRating.read(packet("<xmp:Rating>4</xmp:Rating>")) == 4)
        #expect(XMPRating.read(packet("<xmp:Rating> -1 </xmp:Rating>")) == -1)
        #expect(XMPRating.read(packet("<xap:Rating>5.0</xap:Rating>", namespaces: "xmlns:xap=\"http://ns.adobe.com/xap/1.0/\"")) == 5)
        // Another namespace's Rating is not the one culling tools write.
        #expect(XMPRating.read(packet("<foo:Rating>3</foo:Rating>", namespaces: "xmlns:foo=\"http://example.com/\"")) == nil)
        // Out of the spec's range, or not a number: no rating.
        #expect(XMPRating.read(packet("<xmp:Rating>9</xmp:Rating>")) == nil)
        #expect(XMPRating.read(packet("<xmp:Rating>four</xmp:Rating>")) == nil)
        #expect(XMPRating.read(packet("")) == nil)
    }

    @Test func aRatingInADarktableSidecarChangesOnlyItsValue() throws {
        let merged = try #require(XMPRating.merge(5, into: Array(Self.darktable.utf8)))
        #expect(XMPRating.read(merged) == 5)
        let (removed, inserted) = SidecarTests().difference(Self.darktable, String(decoding: merged, as: UTF8.self))
        #expect(removed == "2" && inserted == "5", "changed \(removed) into \(inserted)")
    }

    @Test func aRatingJoinsACaptionOnlySidecarAndTheCaptionStays() throws {
        let captioned = XMPCaptionEdit.fresh("Harbour at dawn")
        let merged = try #require(XMPRating.merge(-1, into: captioned))
        #expect(XMPRating.read(merged) == -1)
        #expect(XMPReader.description(merged) == "Harbour at dawn")
        // Nothing of the old packet was taken away.
        let (removed, _) = SidecarTests().difference(String(decoding: captioned, as: UTF8.self), String(decoding: merged, as: UTF8.self))
        #expect(removed.isEmpty)
        // A packet that does not scan whole is not edited.
        #expect(XMPRating.merge(3, into: Array("<x:xmpmeta><rdf:RDF><rdf:Description>".utf8)) == nil)
    }

    @Test func sidecarsAreFoundUnderEitherNamingAndWrittenInPlace() throws {
        let folder = TestImages.scratchFolder("ratings")
        defer { TestImages.remove(folder) }
        // Lightroom's IMG.xmp alone: read from it and written to it.
        let lightroomPhoto = RawPath(folder + "/IMG_0001.JPG")
        TestImages.write(Array(Self.darktable.utf8), to: folder + "/IMG_0001.xmp")
        #expect(Sidecar.of(lightroomPhoto).path.description == folder + "/IMG_0001.xmp")
        #expect(Sidecar.of(lightroomPhoto).rating() == 2)
        #expect(Sidecar.of(lightroomPhoto).save(rating: 4) == nil)
        #expect(XMPRating.read(TestImages.read(folder + "/IMG_0001.xmp") ?? []) == 4)
        #expect(access(folder + "/IMG_0001.JPG.xmp", F_OK) != 0, "a second sidecar was made")
        // Both there: darktable's and digiKam's naming first.
        TestImages.write(XMPRating.fresh(1), to: folder + "/IMG_0001.JPG.xmp")
        #expect(Sidecar.of(lightroomPhoto).rating() == 1)

        // None there: photo.jpg.xmp is made; clearing the rating takes the file photogrid made away.
        let fresh = RawPath(folder + "/new.jpg")
        #expect(Sidecar.of(fresh).save(rating: 3) == nil)
        #expect(Sidecar(photo: fresh).rating() == 3)
        #expect(Sidecar.of(fresh).save(rating: 0) == nil)
        #expect(access(folder + "/new.jpg.xmp", F_OK) != 0, "a sidecar photogrid made for a rating alone was left behind")
        // Someone else's keeps its file and says 0, so the photo's own rating does not show through.
        TestImages.write(Array(Self.darktable.utf8), to: folder + "/dt.jpg.xmp")
        #expect(Sidecar.of(RawPath(folder + "/dt.jpg")).save(rating: 0) == nil)
        #expect(XMPRating.read(TestImages.read(folder + "/dt.jpg.xmp") ?? []) == 0)
    }

    @Test func aPhotosOwnRatingIsReadAndItsSidecarsWins() throws {
        let folder = TestImages.scratchFolder("ratings-own")
        defer { TestImages.remove(folder) }
        let jpeg = JPEGSegmentsWriter.insert(segments: [(0xE1, XMPBuilder.identifier + XMPRating.fresh(3))],
                                             into: try MetadataFixtures.jpeg())
        TestImages.write(jpeg, to: folder + "/rated.jpg")
        let photo = Photo(path: RawPath(folder + "/rated.jpg"), relativePath: RawPath("rated.jpg"))
        #expect(PhotoDecoder().info(of: photo)?.rating == 3)
        #expect(Sidecar.of(RawPath(folder + "/rated.jpg")).save(rating: -1) == nil)
        #expect(PhotoDecoder().info(of: photo)?.rating == -1)
    }

    @Test(.enabled(if: ExiftoolTests.installed, "exiftool is not installed"))
    func exiftoolReadsTheRatingsPhotogridWrites() throws {
        let folder = TestImages.scratchFolder("ratings-exiftool")
        defer { TestImages.remove(folder) }
        TestImages.write(Array(Self.darktable.utf8), to: folder + "/IMG_0042.CR2.xmp")
        #expect(Sidecar.of(RawPath(folder + "/IMG_0042.CR2")).save(rating: 4) == nil)
        #expect(Sidecar.of(RawPath(folder + "/new.jpg")).save(rating: -1) == nil)
        #expect(Sidecar.of(RawPath(folder + "/captioned.jpg")).save(caption: "Boats") == nil)
        #expect(Sidecar.of(RawPath(folder + "/captioned.jpg")).save(rating: 5) == nil)
        for (name, rating) in [("IMG_0042.CR2.xmp", "4"), ("new.jpg.xmp", "-1"), ("captioned.jpg.xmp", "5")] {
            let result = try Subprocess.run(["exiftool", "-s3", "-XMP-xmp:Rating", "-XMP-dc:Description", "-XMP-dc:Subject", folder + "/" + name])
            let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(lines.first == rating, "\(name): \(lines)")
            if name == "captioned.jpg.xmp" { #expect(lines.dropFirst().first == "Boats") }
            if name.hasPrefix("IMG") { #expect(lines.last == "harbour, darktable|format|cr2", "darktable's tags: \(lines)") }
        }
    }
}
