import Testing
@testable import PhotoGridMetadata
import PhotoGridSamples

@Suite struct XMPTests {
    private func packet(_ body: String) -> [UInt8] {
        Array(("<x:xmpmeta xmlns:x=\"adobe:ns:meta/\"><rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">"
            + body + "</rdf:RDF></x:xmpmeta>").utf8)
    }

    @Test func theElementFormPrefersTheDefaultLanguage() {
        #expect(XMPReader.description(XMPBuilder.packet(descriptions: [("x-default", "Harbour at dusk")])) == "Harbour at dusk")
        let later = XMPBuilder.packet(descriptions: [("de-DE", "Hafen"), ("x-default", "Harbour"), ("fr", "Port")])
        #expect(XMPReader.description(later) == "Harbour")
        let none = XMPBuilder.packet(descriptions: [("de-DE", "Hafen"), ("fr", "Port")])
        #expect(XMPReader.description(none) == "Hafen")
        // Another prefix bound to the Dublin Core namespace.
        #expect(XMPReader.description(XMPBuilder.packet(descriptions: [("x-default", "Elsewhere")], prefix: "purl")) == "Elsewhere")
        // Text round-trips through the builder's escaping, non-ASCII included.
        let text = "Fish & chips <at> \"Joe's\" — Blick über den Bodensee, 夕焼け"
        #expect(XMPReader.description(XMPBuilder.packet(descriptions: [("x-default", text)])) == text)
    }

    @Test func theAttributeFormIsReadInEitherQuotes() {
        #expect(XMPReader.description(XMPBuilder.packet(descriptions: [("x-default", "A & B")], form: .attribute)) == "A & B")
        let single = packet("<rdf:Description rdf:about='' xmlns:dc='http://purl.org/dc/elements/1.1/'\n dc:description = 'It&apos;s \"here\"'/>")
        #expect(XMPReader.description(single) == "It's \"here\"")
        // The element form wins over an attribute elsewhere in the packet.
        let both = packet("<rdf:Description dc:description=\"attribute\"/><rdf:Description><dc:description><rdf:Alt>"
            + "<rdf:li xml:lang=\"x-default\">element</rdf:li></rdf:Alt></dc:description></rdf:Description>")
        #expect(XMPReader.description(both) == "element")
    }

    @Test func entitiesAreReplacedAndBadReferencesKept() {
        let raw = "&amp; &lt; &gt; &quot; &apos; &#233; &#xE9; &#X1F600; | &bogus; &#xZZ; &#0; &#xD800; &#1114112; & alone &amp"
        let text = XMPReader.description(packet("<rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">"
            + raw + "</rdf:li></rdf:Alt></dc:description></rdf:Description>"))
        #expect(text == "& < > \" ' é é 😀 | &bogus; &#xZZ; &#0; &#xD800; &#1114112; & alone &amp")
        #expect(XMLScanner.unescape(ArraySlice("&#65;&#x42;C".utf8)) == "ABC")
    }

    @Test func commentsCDATAAndLookalikesAreNotCaptions() {
        let tricky = packet("<!-- <dc:description><rdf:Alt><rdf:li>comment</rdf:li></rdf:Alt></dc:description> -->"
            + "<?php dc:description=\"instruction\" ?><x:note>dc:description=\"text\"</x:note>"
            + "<dc:descriptionary>no</dc:descriptionary><xmp:description>other namespace</xmp:description>")
        #expect(XMPReader.description(tricky) == nil)
        let cdata = packet("<rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\"><![CDATA[a <b> &amp; c]]></rdf:li>"
            + "</rdf:Alt></dc:description></rdf:Description>")
        #expect(XMPReader.description(cdata) == "a <b> &amp; c")
    }

    @Test func unterminatedAndCutOffPacketsYieldNothingPartial() {
        let open = packet("<rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">Half a caption")
        #expect(XMPReader.description(Array(open.prefix(open.count - 25))) == nil)
        let noClose = packet("<rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">Text</rdf:li></rdf:Alt>")
        #expect(XMPReader.description(noClose) == nil)
        let liNotClosed = packet("<rdf:Description><dc:description><rdf:Alt><rdf:li xml:lang=\"x-default\">Half"
            + "</rdf:Alt></dc:description></rdf:Description>")
        #expect(XMPReader.description(liNotClosed) == nil)
        #expect(XMPReader.description(Array("<rdf:Description dc:description=\"no closing quote/>".utf8)) == nil)
        #expect(XMPReader.description(Array("<rdf:Description dc:description=\"value\"".utf8)) == nil)
        #expect(XMPReader.description(Array("<![CDATA[ <dc:description>".utf8)) == nil)
        #expect(XMPReader.description(Array("<!-- never closed <rdf:Description dc:description=\"x\"/>".utf8)) == nil)
        #expect(XMPReader.description([]) == nil)
        // Every prefix of a real packet, in both forms: the whole caption or nothing.
        for form in [XMPBuilder.Form.element, .attribute] {
            let whole = XMPBuilder.packet(descriptions: [("x-default", "Whole caption")], form: form)
            for length in 0...whole.count {
                let text = XMPReader.description(Array(whole.prefix(length)))
                #expect(text == nil || text == "Whole caption", "cut at \(length)")
            }
        }
    }

    @Test func sizesAreCapped() {
        let long = String(repeating: "ab", count: 3000)
        #expect(XMPReader.description(XMPBuilder.packet(descriptions: [("x-default", long)])) == String(long.prefix(2000)))
        var huge = XMPBuilder.packet(descriptions: [("x-default", "small")])
        #expect(XMPReader.description(huge) == "small")
        huge += [UInt8](repeating: 0x20, count: XMPReader.maxPacketBytes)
        #expect(XMPReader.description(huge) == nil)
        // NULs dropped, trailing spaces trimmed, empty is none.
        #expect(XMPReader.description(XMPBuilder.packet(descriptions: [("x-default", "a\u{0}b   ")])) == "ab")
        #expect(XMPReader.description(XMPBuilder.packet(descriptions: [("x-default", "")])) == nil)
    }
}
