import PhotoGridModel
import PhotoGridSystem

/// A photo's colour label and keywords as photographers' tools keep them in XMP: `xmp:Label`
/// (Lightroom, Bridge, darktable and digiKam write a colour's name: "Red") and Dublin Core's
/// `dc:subject`, a bag of keywords. Each in both forms writers use, an attribute on an
/// `rdf:Description` or an element; an element counts only once its closing tag is seen, so a
/// packet cut short yields nothing of it rather than a part.
extension XMPReader {
    static let xmpBasic = "http://ns.adobe.com/xap/1.0/"
    /// Bounds against a hostile packet: enough for any real photo's keywords.
    static let maxKeywords = 200
    static let maxKeywordCharacters = 200

    /// The colour label, nil when the packet has none.
    package static func label(_ packet: [UInt8]) -> String? {
        guard packet.count <= maxPacketBytes else { return nil }
        var scanner = XMLScanner(packet)
        var prefixes: Set<String> = ["xmp"]
        var element: String?
        while let token = scanner.next() {
            switch token {
            case let .start(name, attributes, selfClosing):
                XMLScanner.bind(attributes, to: xmpBasic, in: &prefixes)
                if let value = attributes.first(where: { isProperty($0.name, "Label", prefixes) })?.value, let label = cleaned(value) {
                    return String(label.prefix(maxKeywordCharacters))
                }
                if isProperty(name, "Label", prefixes) && !selfClosing { element = "" }
            case let .text(text):
                if element != nil { element! += text }
            case let .end(name):
                if isProperty(name, "Label", prefixes), let text = element {
                    if let label = cleaned(text.filter { $0 != "\n" && $0 != "\r" && $0 != "\t" }) {
                        return String(label.prefix(maxKeywordCharacters))
                    }
                    element = nil
                }
            }
        }
        return nil
    }

    /// The keywords, in the packet's order, each once.
    package static func keywords(_ packet: [UInt8]) -> [String] {
        guard packet.count <= maxPacketBytes else { return [] }
        var scanner = XMLScanner(packet)
        var prefixes: Set<String> = ["dc"]
        var inSubject = false
        var item: String?
        var items: [String] = []
        var found: [String] = []
        func add(_ words: [String]) {
            for word in words {
                guard found.count < maxKeywords, let keyword = cleaned(word).map({ String($0.prefix(maxKeywordCharacters)) }),
                      !found.contains(keyword) else { continue }
                found.append(keyword)
            }
        }
        while let token = scanner.next() {
            switch token {
            case let .start(name, attributes, selfClosing):
                XMLScanner.bind(attributes, to: dublinCore, in: &prefixes)
                if inSubject {
                    if name == "rdf:li" && !selfClosing { item = "" }
                } else if isProperty(name, "subject", prefixes) {
                    if !selfClosing { inSubject = true; items = [] }
                } else if let value = attributes.first(where: { isProperty($0.name, "subject", prefixes) })?.value {
                    add([value])
                }
            case let .text(text):
                if item != nil { item! += text }
            case let .end(name):
                if name == "rdf:li", let finished = item {
                    items.append(finished)
                    item = nil
                } else if inSubject && isProperty(name, "subject", prefixes) {
                    add(items)
                    inSubject = false
                }
            }
        }
        return found
    }

    private static func isProperty(_ name: String, _ local: String, _ prefixes: Set<String>) -> Bool {
        guard let colon = name.firstIndex(of: ":"), name[name.index(after: colon)...] == local else { return false }
        return prefixes.contains(String(name[..<colon]))
    }
}
