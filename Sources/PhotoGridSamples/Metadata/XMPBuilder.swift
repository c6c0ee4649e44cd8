/// Writes the XMP APP1 segment of a sample photo: the identifier and a packet holding a caption
/// (Dublin Core dc:description).
///
/// The element form, a language alternative with an "x-default" item, is what Adobe's tools and
/// exiftool write and what every reader takes; the attribute form (`dc:description="..."` on
/// rdf:Description) is there for tests of readers that must accept it as well.
package enum XMPBuilder {
    /// How the caption is written into the packet.
    package enum Form: Sendable, Equatable {
        /// `<dc:description><rdf:Alt><rdf:li xml:lang="...">` items, in the order given.
        case element
        /// `dc:description="..."` on rdf:Description; only the first text is written.
        case attribute
    }

    /// The identifier that starts an XMP APP1 payload, NUL included.
    package static let identifier: [UInt8] = Array("http://ns.adobe.com/xap/1.0/".utf8) + [0]

    /// The whole APP1 payload with a caption in the default language.
    package static func app1(description: String, form: Form = .element) -> [UInt8] {
        identifier + packet(descriptions: [("x-default", description)], form: form)
    }

    /// The whole APP1 payload with a caption in several languages.
    package static func app1(descriptions: [(language: String, text: String)], form: Form = .element) -> [UInt8] {
        identifier + packet(descriptions: descriptions, form: form)
    }

    /// The packet alone, as `XMPReader.description` takes it.
    package static func packet(descriptions: [(language: String, text: String)], form: Form = .element,
                              prefix: String = "dc") -> [UInt8] {
        var description = "  <rdf:Description rdf:about=\"\"\n"
            + "    xmlns:\(prefix)=\"http://purl.org/dc/elements/1.1/\""
        switch form {
        case .attribute:
            description += "\n    \(prefix):description=\"\(escape(descriptions.first?.text ?? ""))\"/>\n"
        case .element:
            description += ">\n   <\(prefix):description>\n    <rdf:Alt>\n"
            for (language, text) in descriptions {
                description += "     <rdf:li xml:lang=\"\(escape(language))\">\(escape(text))</rdf:li>\n"
            }
            description += "    </rdf:Alt>\n   </\(prefix):description>\n  </rdf:Description>\n"
        }
        let text = "<?xpacket begin=\"\u{FEFF}\" id=\"W5M0MpCehiHzreSzNTczkc9d\"?>\n"
            + "<x:xmpmeta xmlns:x=\"adobe:ns:meta/\">\n"
            + " <rdf:RDF xmlns:rdf=\"http://www.w3.org/1999/02/22-rdf-syntax-ns#\">\n"
            + description
            + " </rdf:RDF>\n"
            + "</x:xmpmeta>\n"
            + "<?xpacket end=\"w\"?>"
        return Array(text.utf8)
    }

    /// The characters XML gives a meaning to, as entity references (both quotes, since the text
    /// may go into an attribute).
    static func escape(_ text: String) -> String {
        var out = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            default: out.unicodeScalars.append(scalar)
            }
        }
        return out
    }
}
