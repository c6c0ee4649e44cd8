import Testing
@testable import PhotoGridMetadata
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// Keywords written as `dc:subject`'s bag: the element replaced where it is, added where there is
/// none, the rest of the packet kept; an attribute form is left alone.
@Suite struct KeywordWritingTests {
    @Test func theBagIsReplacedAndTheRestKept() throws {
        let digiKam = Array(XMPCaptionEdit.packet("""
          <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/"
            xmp:Rating="2">
           <dc:subject>
            <rdf:Bag>
             <rdf:li>glacier</rdf:li>
            </rdf:Bag>
           </dc:subject>
           <dc:title><rdf:Alt><rdf:li xml:lang="x-default">Jökulsárlón</rdf:li></rdf:Alt></dc:title>
          </rdf:Description>
        """))
        let merged = try #require(XMPKeywordEdit.merge(["glacier", "iceland", "fish & chips"], into: digiKam))
        #expect(XMPReader.keywords(merged) == ["glacier", "iceland", "fish & chips"])
        #expect(XMPRating.read(merged) == 2)
        #expect(String(decoding: merged, as: UTF8.self).contains("<rdf:li xml:lang=\"x-default\">Jökulsárlón</rdf:li>"))
        // Only the bag's bytes changed: what comes before and after it is the same.
        let text = String(decoding: digiKam, as: UTF8.self), out = String(decoding: merged, as: UTF8.self)
        #expect(out.hasPrefix(String(text[..<text.range(of: "<dc:subject>")!.lowerBound])))
        #expect(out.hasSuffix(String(text[text.range(of: "</dc:subject>")!.upperBound...])))
        // None there: a description of its own.
        let added = try #require(XMPKeywordEdit.merge(["iceland"], into: XMPRating.fresh(4)))
        #expect(XMPReader.keywords(added) == ["iceland"] && XMPRating.read(added) == 4)
        // Keywords as an attribute: not edited.
        let attribute = Array(XMPCaptionEdit.packet("""
          <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" dc:subject="one"/>
        """))
        #expect(XMPKeywordEdit.merge(["two"], into: attribute) == nil)
        #expect(XMPReader.keywords(XMPKeywordEdit.fresh(["a", "b"])) == ["a", "b"])
    }
}
