import PhotoGridModel
import PhotoGridSystem

/// Puts a caption (Dublin Core dc:description, as `XMPReader` reads it) into an XMP packet and
/// leaves every other byte of it as it was: a sidecar darktable, digiKam or Lightroom wrote keeps
/// its ratings, tags and develop settings. The packet is scanned with `XMLScanner`; only the bytes
/// of the caption itself are replaced, inserted or removed.
///
/// A packet that does not scan whole (a tag left open, end tags that do not match) or has no
/// `rdf:RDF` element is not edited: nil, and the caller says so rather than overwrite it.
package enum XMPCaptionEdit {
    /// A new sidecar holding only the caption.
    package static func fresh(_ caption: String) -> [UInt8] {
        packet("""
          <rdf:Description rdf:about=""
            xmlns:dc="http://purl.org/dc/elements/1.1/">
           <dc:description>
            <rdf:Alt>
             <rdf:li xml:lang="x-default">\(escaped(caption))</rdf:li>
            </rdf:Alt>
           </dc:description>
          </rdf:Description>
        """)
    }

    /// A whole sidecar around one description: photogrid's new sidecars (a caption's, a
    /// rating's) are all this packet.
    static func packet(_ description: String) -> [UInt8] {
        Array(("""
        <?xpacket begin="\u{FEFF}" id="W5M0MpCehiHzreSzNTczkc9d"?>
        <x:xmpmeta xmlns:x="adobe:ns:meta/" x:xmptk="photogrid">
         <rdf:RDF xmlns:rdf="http://www.w3.org/1999/02/22-rdf-syntax-ns#">

        """ + description + """

         </rdf:RDF>
        </x:xmpmeta>
        <?xpacket end="w"?>

        """).utf8)
    }

    /// `packet` with its caption made `caption`, or taken out when `caption` is empty; nil when
    /// the packet cannot be edited safely.
    package static func merge(_ caption: String, into packet: [UInt8]) -> [UInt8]? {
        guard let found = Layout.scan(packet) else { return nil }
        let text = escaped(caption)
        var out = packet
        if let element = found.element {
            let chosen = element.items.firstIndex { $0.language?.lowercased() == "x-default" }
            if caption.isEmpty {
                // Only the default language goes; with it the element, when it was all it held.
                guard let chosen else { return element.items.isEmpty ? remove(element.whole, from: out) : packet }
                if element.items.count == 1 { return remove(element.whole, from: out) }
                out.replaceSubrange(element.items[chosen].whole, with: [])
                return out
            }
            if let chosen {
                out.replaceSubrange(element.items[chosen].content, with: Array(text.utf8))
            } else if let first = element.items.first {
                // Other languages are kept; the default, which readers show, is put first.
                let item = "<\(found.rdf):li xml:lang=\"x-default\">\(text)</\(found.rdf):li>"
                out.replaceSubrange(first.whole.lowerBound..<first.whole.lowerBound, with: Array(item.utf8))
            } else {
                out.replaceSubrange(element.whole, with: Array(elementText(prefix: element.prefix, rdf: found.rdf, text).utf8))
            }
            return out
        }
        if let attribute = found.attribute {
            if caption.isEmpty { out.replaceSubrange(attribute.whole, with: []) } else { out.replaceSubrange(attribute.value, with: Array(attributeEscaped(caption).utf8)) }
            return out
        }
        guard !caption.isEmpty else { return packet }
        // A description of its own, which RDF allows beside the ones already there.
        let rdf = found.rdf
        let description = " <\(rdf):Description \(rdf):about=\"\" xmlns:dc=\"\(XMPReader.dublinCore)\">\n   "
            + elementText(prefix: "dc", rdf: rdf, text) + "\n  </\(rdf):Description>\n "
        out.replaceSubrange(found.rdfEnd..<found.rdfEnd, with: Array(description.utf8))
        return out
    }

    private static func elementText(prefix: String, rdf: String, _ text: String) -> String {
        "<\(prefix):description><\(rdf):Alt><\(rdf):li xml:lang=\"x-default\">\(text)</\(rdf):li></\(rdf):Alt></\(prefix):description>"
    }

    private static func remove(_ range: Range<Int>, from packet: [UInt8]) -> [UInt8] {
        var out = packet
        out.replaceSubrange(range, with: [])
        return out
    }

    /// Text as XML element content: the three characters that could end it, and control
    /// characters, which XML 1.0 does not allow (a typed caption has none; a pasted one might).
    static func escaped(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\t", "\n": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0x7F || scalar.value == 0xFFFE || scalar.value == 0xFFFF { continue }
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// As `escaped`, for a value between quotes, with the line breaks kept as references.
    static func attributeEscaped(_ text: String) -> String {
        escaped(text).replacingAll("\"", with: "&quot;").replacingAll("'", with: "&apos;")
            .replacingAll("\n", with: "&#10;").replacingAll("\t", with: "&#9;")
    }

    /// Where a packet's caption is, as byte ranges.
    struct Layout {
        struct Item { var language: String?; var whole: Range<Int>; var content: Range<Int> }
        struct Element { var prefix: String; var whole: Range<Int>; var items: [Item] }
        /// The first caption element, the first caption attribute, the RDF prefix and where the
        /// `rdf:RDF` element ends (its end tag's first byte).
        var element: Element?
        var attribute: (whole: Range<Int>, value: Range<Int>)?
        var rdf = "rdf"
        var rdfEnd = 0

        static func scan(_ packet: [UInt8]) -> Layout? {
            var scanner = XMLScanner(packet)
            var layout = Layout()
            var open: [String] = []
            var prefixes: Set<String> = ["dc"]
            var foundRDF = false
            var element: (prefix: String, start: Int, items: [Item])?
            var item: (language: String?, start: Int, contentStart: Int)?
            while let token = scanner.next() {
                let start = scanner.tokenStart, end = scanner.position
                switch token {
                case let .start(name, attributes, selfClosing):
                    XMLScanner.bind(attributes, to: XMPReader.dublinCore, in: &prefixes)
                    if layout.element == nil, element == nil, let prefix = descriptionPrefix(name, prefixes) {
                        if selfClosing { layout.element = Element(prefix: prefix, whole: start..<end, items: []) } else { element = (prefix, start, []) }
                    } else if element != nil, item == nil, name.hasSuffix(":li") {
                        let language = attributes.first { $0.name == "xml:lang" }?.value
                        if selfClosing { element!.items.append(Item(language: language, whole: start..<end, content: end..<end)) } else { item = (language, start, end) }
                    } else if layout.attribute == nil, element == nil,
                              let attribute = attributes.first(where: { descriptionPrefix($0.name, prefixes) != nil }),
                              let ranges = attributeRanges(attribute.name, in: packet, tag: start..<end) {
                        layout.attribute = ranges
                    }
                    if name.hasSuffix(":RDF") { layout.rdf = String(name.dropLast(4)); foundRDF = true }
                    if !selfClosing { open.append(name) }
                case let .end(name):
                    guard open.popLast() == name else { return nil }
                    if let started = item, name.hasSuffix(":li") {
                        element?.items.append(Item(language: started.language, whole: started.start..<end, content: started.contentStart..<start))
                        item = nil
                    } else if let started = element, descriptionPrefix(name, prefixes) == started.prefix {
                        layout.element = Element(prefix: started.prefix, whole: started.start..<end, items: started.items)
                        element = nil
                    }
                    if name == layout.rdf + ":RDF" { layout.rdfEnd = start }
                case .text:
                    break
                }
            }
            guard !scanner.failed, open.isEmpty, foundRDF, layout.rdfEnd > 0 else { return nil }
            return layout
        }

        /// "dc" for "dc:description" when the prefix is bound to Dublin Core.
        private static func descriptionPrefix(_ name: String, _ prefixes: Set<String>) -> String? {
            guard let colon = name.firstIndex(of: ":"), name[name.index(after: colon)...] == "description" else { return nil }
            let prefix = String(name[..<colon])
            return prefixes.contains(prefix) ? prefix : nil
        }

        /// The bytes of ` name="value"` inside a start tag, and of its value alone: the tag is
        /// walked attribute by attribute, as the scanner read it, so text inside another
        /// attribute's value is never taken for it.
        static func attributeRanges(_ name: String, in packet: [UInt8], tag: Range<Int>) -> (whole: Range<Int>, value: Range<Int>)? {
            func isSpace(_ byte: UInt8) -> Bool { byte == 0x20 || byte == 0x09 || byte == 0x0A || byte == 0x0D }
            let wanted = Array(name.utf8), end = tag.upperBound
            var i = tag.lowerBound + 1
            while i < end, !isSpace(packet[i]), packet[i] != UInt8(ascii: ">"), packet[i] != UInt8(ascii: "/") { i += 1 }
            while i < end {
                let spaceStart = i
                while i < end, isSpace(packet[i]) { i += 1 }
                let nameStart = i
                while i < end, !isSpace(packet[i]), packet[i] != UInt8(ascii: "="), packet[i] != UInt8(ascii: ">"), packet[i] != UInt8(ascii: "/") { i += 1 }
                guard i > nameStart else { return nil }
                let found = packet[nameStart..<i].elementsEqual(wanted)
                while i < end, isSpace(packet[i]) { i += 1 }
                guard i < end, packet[i] == UInt8(ascii: "=") else { return nil }
                i += 1
                while i < end, isSpace(packet[i]) { i += 1 }
                guard i < end, packet[i] == UInt8(ascii: "\"") || packet[i] == UInt8(ascii: "'"),
                      let close = packet[(i + 1)..<end].firstIndex(of: packet[i]) else { return nil }
                if found { return (spaceStart..<(close + 1), (i + 1)..<close) }
                i = close + 1
            }
            return nil
        }
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var out = ""
        for character in self { if character == target { out += replacement } else { out.append(character) } }
        return out
    }
}
