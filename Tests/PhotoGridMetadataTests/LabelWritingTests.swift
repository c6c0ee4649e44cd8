import Testing
@testable import PhotoGridMetadata
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// Colour labels written as `xmp:Label`, the way ratings are: a sidecar of its own when there is
/// none, the value changed in place in one that is there (attribute or element), the rest kept.
@Suite struct LabelWritingTests {
    @Test func aLabelGoesWhereTheSidecarKeepsIt() throws {
        let property = XMPBasicProperty.label
        // Attribute form beside a rating (darktable's): only the label's bytes change.
        let darktable = Array(XMPCaptionEdit.packet("""
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/" xmlns:darktable="http://darktable.sf.net/"
            xmp:Rating="3" xmp:Label="Blue" darktable:history_end="4"/>
        """))
        let relabelled = try #require(property.merge("Red", into: darktable))
        #expect(property.read(relabelled) == "Red" && XMPRating.read(relabelled) == 3)
        #expect(relabelled.count == darktable.count - 1, "Blue became Red and nothing else changed")
        #expect(String(decoding: relabelled, as: UTF8.self).contains("darktable:history_end=\"4\""))
        // Element form (exiftool's).
        let element = Array(XMPCaptionEdit.packet("""
          <rdf:Description rdf:about="" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
           <xmp:Label>Green</xmp:Label>
          </rdf:Description>
        """))
        #expect(property.read(try #require(property.merge("Purple", into: element))) == "Purple")
        // None there: a description of its own, and the reader of labels finds it.
        let ratingOnly = XMPRating.fresh(4)
        let added = try #require(property.merge("Yellow", into: ratingOnly))
        #expect(XMPReader.label(added) == "Yellow" && XMPRating.read(added) == 4)
    }

    @Test func aSidecarMadeForALabelGoesWithIt() throws {
        let folder = TestImages.scratchFolder("label-sidecar")
        defer { TestImages.remove(folder) }
        let photo = RawPath(folder + "/a.jpg")
        TestImages.write([0xFF, 0xD8, 0xFF, 0xD9], to: photo.description)
        let sidecar = Sidecar.of(photo)
        #expect(sidecar.save(label: "") == nil && (sidecar.path.status() == nil), "nothing to clear, no file made")
        #expect(sidecar.save(label: "Red") == nil)
        #expect(XMPReader.label(TestImages.read(sidecar.path.description) ?? []) == "Red")
        #expect(sidecar.save(label: "") == nil)
        #expect((sidecar.path.status() == nil), "photogrid's own sidecar for a label alone goes when it is cleared")
        // One with a rating too stays, its label empty.
        #expect(sidecar.save(rating: 2) == nil && sidecar.save(label: "Green") == nil && sidecar.save(label: "") == nil)
        let kept = TestImages.read(sidecar.path.description) ?? []
        #expect(XMPRating.read(kept) == 2 && XMPBasicProperty.label.read(kept) == "")
    }
}
