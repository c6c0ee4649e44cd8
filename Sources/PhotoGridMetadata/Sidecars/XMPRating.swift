import PhotoGridModel
import PhotoGridSystem

/// A photo's rating as culling tools keep it: XMP Basic's `xmp:Rating`, 1 to 5 stars, 0 for none
/// and -1 for a reject (darktable, digiKam, Lightroom and the cameras that rate all read and
/// write it so). Read in both forms writers use, the attribute `xmp:Rating="4"` on an
/// `rdf:Description` (darktable, Lightroom) and the element `<xmp:Rating>4</xmp:Rating>`
/// (exiftool's, digiKam's); written where it was found, every other byte of the packet kept.
package enum XMPRating {
    static let namespace = "http://ns.adobe.com/xap/1.0/"
    /// The values photogrid reads: the spec's -1...5. A value out of it (or not a number) is no rating.
    package static let range = -1...5

    /// The packet's rating, nil when it has none.
    package static func read(_ packet: [UInt8]) -> Int? {
        guard packet.count <= XMPReader.maxPacketBytes, let found = find(packet) else { return nil }
        let text = String(decoding: packet[found.value], as: UTF8.self)
        return parse(text)
    }

    /// "4", "-1", and "4.0" (the spec's type is a real number; some writers write one).
    static func parse(_ text: String) -> Int? {
        let trimmed = String(text.drop { $0.isWhitespace }.reversed().drop { $0.isWhitespace }.reversed())
        guard let value = Double(trimmed), value.isFinite else { return nil }
        let rounded = Int(value.rounded())
        return range.contains(rounded) ? rounded : nil
    }

    /// A new sidecar holding only the rating.
    package static func fresh(_ rating: Int) -> [UInt8] { XMPBasicProperty.rating.fresh(String(rating)) }

    /// `packet` with its rating made `rating`; nil when the packet cannot be edited safely (it
    /// does not scan whole, or has no `rdf:RDF`).
    package static func merge(_ rating: Int, into packet: [UInt8]) -> [UInt8]? {
        XMPBasicProperty.rating.merge(String(rating), into: packet)
    }

    /// Where the first rating's value is (`XMPBasicProperty.find`).
    static func find(_ packet: [UInt8]) -> (value: Range<Int>, attribute: Bool)? { XMPBasicProperty.rating.find(packet) }
}

/// A simple property (`xmp:Rating`, `xmp:Label`, `tiff:Orientation`) as culling tools write it:
/// read where it is, as an attribute of an `rdf:Description` (darktable, Lightroom) or as an
/// element (exiftool's, digiKam's); changed in place, every other byte of the packet kept; or
/// added in a description of its own.
package struct XMPBasicProperty: Sendable {
    package let name: String
    /// The prefix it is written with, and the namespace any prefix that counts is bound to.
    let prefix: String
    let namespace: String

    init(name: String, prefix: String = "xmp", namespace: String = XMPRating.namespace) {
        self.name = name
        self.prefix = prefix
        self.namespace = namespace
    }

    package static let rating = XMPBasicProperty(name: "Rating")
    package static let label = XMPBasicProperty(name: "Label")
    /// How a photo is to be turned to stand upright, EXIF's values 1-8 (`Orientation`): what
    /// Lightroom and digiKam keep in a sidecar for a photo turned without touching its file.
    package static let orientation = XMPBasicProperty(name: "Orientation", prefix: "tiff", namespace: "http://ns.adobe.com/tiff/1.0/")

    /// A new sidecar holding only this property (`value` written as it is: a number or a word).
    package func fresh(_ value: String) -> [UInt8] {
        XMPCaptionEdit.packet("""
          <rdf:Description rdf:about=""
            xmlns:\(prefix)="\(namespace)"
            \(prefix):\(name)="\(value)"/>
        """)
    }

    /// `packet` with this property made `value`; nil when the packet cannot be edited safely.
    package func merge(_ value: String, into packet: [UInt8]) -> [UInt8]? {
        guard let layout = XMPCaptionEdit.Layout.scan(packet) else { return nil }
        var out = packet
        if let found = find(packet) {
            out.replaceSubrange(found.value, with: Array(value.utf8))
            return out
        }
        // A description of its own, which RDF allows beside the ones already there.
        let rdf = layout.rdf
        let description = " <\(rdf):Description \(rdf):about=\"\" xmlns:\(prefix)=\"\(namespace)\" \(prefix):\(name)=\"\(value)\"/>\n "
        out.replaceSubrange(layout.rdfEnd..<layout.rdfEnd, with: Array(description.utf8))
        return out
    }

    /// The property's value as written, nil when the packet has none.
    package func read(_ packet: [UInt8]) -> String? {
        guard packet.count <= XMPReader.maxPacketBytes, let found = find(packet) else { return nil }
        return String(decoding: packet[found.value], as: UTF8.self)
    }

    /// Where the first value is: the bytes between an attribute's quotes, or an element's text.
    /// Only a prefix bound to the property's namespace counts ("xmp", "tiff" in practice).
    func find(_ packet: [UInt8]) -> (value: Range<Int>, attribute: Bool)? {
        var scanner = XMLScanner(packet)
        var prefixes: Set<String> = [prefix]
        var element: (name: String, contentStart: Int)?
        while let token = scanner.next() {
            let start = scanner.tokenStart, end = scanner.position
            switch token {
            case let .start(tag, attributes, selfClosing):
                XMLScanner.bind(attributes, to: namespace, in: &prefixes)
                if let attribute = attributes.first(where: { isThis($0.name, prefixes) }),
                   let ranges = XMPCaptionEdit.Layout.attributeRanges(attribute.name, in: packet, tag: start..<end) {
                    return (ranges.value, true)
                }
                if isThis(tag, prefixes) {
                    if selfClosing { continue }
                    element = (tag, end)
                }
            case let .end(tag):
                if let open = element, open.name == tag { return (open.contentStart..<start, false) }
            case .text:
                break
            }
        }
        return nil
    }

    private func isThis(_ tag: String, _ prefixes: Set<String>) -> Bool {
        guard let colon = tag.firstIndex(of: ":"), tag[tag.index(after: colon)...] == name else { return false }
        return prefixes.contains(String(tag[..<colon]))
    }
}

/// The colour labels Lightroom, darktable and digiKam write as `xmp:Label`, by the keys that
/// set them (`L` then `r` `y` `g` `b` `p`).
package enum ColourLabel {
    package static let byKey: [Character: String] = ["r": "Red", "y": "Yellow", "g": "Green", "b": "Blue", "p": "Purple"]
}
