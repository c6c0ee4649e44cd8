import PhotoGridModel
import PhotoGridSystem

/// Puts a photo's keywords (Dublin Core's `dc:subject`, a bag, as `XMPReader.keywords` reads
/// it) into an XMP packet: the `dc:subject` element's bytes are replaced by the new bag, or a
/// description of its own is added for it; every other byte of the packet stays. A packet that
/// does not scan whole, or keeps its keywords as an attribute, is not edited (nil).
package enum XMPKeywordEdit {
    /// A new sidecar holding only these keywords.
    package static func fresh(_ keywords: [String]) -> [UInt8] {
        XMPCaptionEdit.packet("  <rdf:Description rdf:about=\"\"\n    xmlns:dc=\"\(XMPReader.dublinCore)\">\n   <dc:subject>\n    <rdf:Bag>\n"
            + keywords.map { "     <rdf:li>\(XMPCaptionEdit.escaped($0))</rdf:li>\n" }.joined()
            + "    </rdf:Bag>\n   </dc:subject>\n  </rdf:Description>")
    }

    /// `packet` with its keywords made `keywords`; nil when it cannot be edited safely.
    package static func merge(_ keywords: [String], into packet: [UInt8]) -> [UInt8]? {
        guard let layout = XMPCaptionEdit.Layout.scan(packet) else { return nil }
        let rdf = layout.rdf
        func bag(_ element: String) -> String {
            "<\(element)><\(rdf):Bag>" + keywords.map { "<\(rdf):li>\(XMPCaptionEdit.escaped($0))</\(rdf):li>" }.joined()
                + "</\(rdf):Bag></\(element)>"
        }
        var out = packet
        switch find(packet) {
        case .attribute: return nil
        case .element(let name, let whole):
            out.replaceSubrange(whole, with: Array(bag(name).utf8))
        case .none:
            let description = " <\(rdf):Description \(rdf):about=\"\" xmlns:dc=\"\(XMPReader.dublinCore)\">" + bag("dc:subject")
                + "</\(rdf):Description>\n "
            out.replaceSubrange(layout.rdfEnd..<layout.rdfEnd, with: Array(description.utf8))
        }
        return out
    }

    enum Found { case none, attribute, element(name: String, whole: Range<Int>) }

    /// The first `dc:subject`: the whole element, from its start tag to its end tag.
    static func find(_ packet: [UInt8]) -> Found {
        var scanner = XMLScanner(packet)
        var prefixes: Set<String> = ["dc"]
        var open: (name: String, start: Int)?
        while let token = scanner.next() {
            let start = scanner.tokenStart, end = scanner.position
            switch token {
            case let .start(name, attributes, selfClosing):
                XMLScanner.bind(attributes, to: XMPReader.dublinCore, in: &prefixes)
                if open == nil, attributes.contains(where: { isSubject($0.name, prefixes) }) { return .attribute }
                if open == nil, isSubject(name, prefixes) {
                    if selfClosing { return .element(name: name, whole: start..<end) }
                    open = (name, start)
                }
            case let .end(name):
                if let element = open, element.name == name { return .element(name: name, whole: element.start..<end) }
            case .text:
                break
            }
        }
        return .none
    }

    private static func isSubject(_ name: String, _ prefixes: Set<String>) -> Bool {
        guard let colon = name.firstIndex(of: ":"), name[name.index(after: colon)...] == "subject" else { return false }
        return prefixes.contains(String(name[..<colon]))
    }
}
