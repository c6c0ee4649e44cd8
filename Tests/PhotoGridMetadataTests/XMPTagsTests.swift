import Testing
@testable import PhotoGridMetadata
import PhotoGridTestFixtures

/// Colour labels and keywords read out of XMP packets in the forms writers use, and packets that
/// should give nothing.
@Suite struct XMPTagsTests {
    static func packet(_ body: String) -> [UInt8] {
        Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
               + body + "</rdf:RDF></x:xmpmeta>").utf8)
    }

    @Test func theElementFormAsExiftoolAndDigiKamWriteIt() {
        let xmp = Self.packet("""
            <rdf:Description rdf:about="" xmlns:dc="http://purl.org/dc/elements/1.1/" xmlns:xmp="http://ns.adobe.com/xap/1.0/">
             <dc:subject><rdf:Bag><rdf:li>iceland</rdf:li><rdf:li>glacier &amp; ice</rdf:li><rdf:li>iceland</rdf:li></rdf:Bag></dc:subject>
             <xmp:Label>Red</xmp:Label>
            </rdf:Description>
            """)
        #expect(XMPReader.keywords(xmp) == ["iceland", "glacier & ice"])
        #expect(XMPReader.label(xmp) == "Red")
    }

    @Test func theAttributeFormAndAnotherPrefix() {
        let xmp = Self.packet("""
            <rdf:Description rdf:about="" xmlns:b="http://ns.adobe.com/xap/1.0/" xmlns:d="http://purl.org/dc/elements/1.1/"
              b:Label="Green" d:subject="harbour"/>
            """)
        #expect(XMPReader.label(xmp) == "Green")
        #expect(XMPReader.keywords(xmp) == ["harbour"])
    }

    /// Cut before the closing tags: nothing, rather than part of a list; another namespace's
    /// `Label` or `subject` is not the photo's; none at all is none.
    @Test func packetsThatSayNothingGiveNothing() {
        let cut = Array(Self.packet("<rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:subject><rdf:Bag><rdf:li>a</rdf:li>").prefix(200))
        #expect(XMPReader.keywords(cut) == [])
        let other = Self.packet("<rdf:Description xmlns:q=\"urn:other\" q:Label=\"Red\"><q:subject><rdf:Bag><rdf:li>x</rdf:li></rdf:Bag></q:subject></rdf:Description>")
        #expect(XMPReader.label(other) == nil)
        #expect(XMPReader.keywords(other) == [])
        #expect(XMPReader.keywords(Self.packet("")) == [] && XMPReader.label(Self.packet("")) == nil)
    }

    /// A hostile packet: thousands of keywords, a keyword of megabytes' worth: bounded.
    @Test func keywordsAreBounded() {
        let many = (0..<5000).map { "<rdf:li>k\($0)</rdf:li>" }.joined()
        let long = "<rdf:li>" + String(repeating: "x", count: 100_000) + "</rdf:li>"
        let xmp = Self.packet("<rdf:Description xmlns:dc=\"http://purl.org/dc/elements/1.1/\"><dc:subject><rdf:Bag>" + long + many
                              + "</rdf:Bag></dc:subject></rdf:Description>")
        let keywords = XMPReader.keywords(xmp)
        #expect(keywords.count == XMPReader.maxKeywords)
        #expect(keywords[0].count == XMPReader.maxKeywordCharacters)
    }
}
