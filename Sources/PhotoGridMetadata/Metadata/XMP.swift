import PhotoGridModel
import PhotoGridSystem

/// Reads the caption (Dublin Core dc:description) out of an XMP packet.
///
/// XMP writers put it in one of two forms: the element form every tool writes,
/// `<dc:description><rdf:Alt><rdf:li xml:lang="x-default">TEXT</rdf:li></rdf:Alt></dc:description>`,
/// and the attribute form `<rdf:Description dc:description="TEXT"/>` that some write for short
/// values. Both are read with `XMLScanner`, not an XML parser: a packet is small, and nothing else
/// in it matters here.
///
/// Packets are not trusted: the element form only counts once its closing tag has been seen, so a
/// packet cut short or left unterminated yields nothing rather than part of a caption.
package enum XMPReader {
    /// Larger than any caption-carrying packet; a JPEG segment holds at most 64 KB anyway.
    package static let maxPacketBytes = 1 << 20
    /// Captions are cut to this many characters: enough for a panel, bounded for a hostile file.
    package static let maxCharacters = 2_000

    static let dublinCore = "http://purl.org/dc/elements/1.1/"

    package static func description(_ packet: [UInt8]) -> String? {
        guard packet.count <= maxPacketBytes else { return nil }
        var scanner = XMLScanner(packet)
        // "dc" is the prefix in practice; another one bound to the Dublin Core namespace is read too.
        var prefixes: Set<String> = ["dc"]
        var attributeForm: String?
        var inDescription = false
        var item: (language: String?, text: String)?
        var items: [(language: String?, text: String)] = []

        while let token = scanner.next() {
            switch token {
            case let .start(name, attributes, selfClosing):
                XMLScanner.bind(attributes, to: dublinCore, in: &prefixes)
                if inDescription {
                    guard name == "rdf:li" else { continue }
                    let language = attributes.first { $0.name == "xml:lang" }?.value
                    if selfClosing { items.append((language, "")) } else { item = (language, "") }
                } else if isDescription(name, prefixes) {
                    if !selfClosing { inDescription = true; items = [] }
                } else if attributeForm == nil {
                    attributeForm = attributes.first { isDescription($0.name, prefixes) }?.value
                }
            case let .text(text):
                if item != nil { item!.text += text }
            case let .end(name):
                if name == "rdf:li", let finished = item {
                    items.append(finished)
                    item = nil
                } else if inDescription && isDescription(name, prefixes) {
                    // The default language, else the first one written.
                    let chosen = items.first { $0.language?.lowercased() == "x-default" } ?? items.first
                    if let text = chosen.flatMap({ cleaned($0.text) }) { return text }
                    inDescription = false
                }
            }
        }
        return attributeForm.flatMap(cleaned)
    }

    private static func isDescription(_ name: String, _ prefixes: Set<String>) -> Bool {
        guard let colon = name.firstIndex(of: ":"), name[name.index(after: colon)...] == "description" else { return false }
        return prefixes.contains(String(name[..<colon]))
    }

    /// Without NULs and trailing spaces, as `ExifInfo` reads text; nil when nothing is left.
    static func cleaned(_ text: String) -> String? {
        var scalars = text.unicodeScalars.filter { $0 != "\0" }
        while scalars.last == " " { scalars.removeLast() }
        guard !scalars.isEmpty else { return nil }
        return String(String(String.UnicodeScalarView(scalars)).prefix(maxCharacters))
    }
}
