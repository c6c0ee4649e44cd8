import PhotoGridModel
/// A WebDAV folder's answer to `PROPFIND` with `Depth: 1` (RFC 4918): a `multistatus` of one
/// `response` for the folder and one for each member, each with its `href` and, for a folder,
/// a `collection` in its `resourcetype`. Synology, QNAP, Nextcloud, Apache's mod_dav and rclone
/// all answer it, also where a GET of a folder gives no listing. Read with a plain tag scanner:
/// namespace prefixes differ between servers (`D:`, `d:`, none), so elements are known by their
/// local names; nothing else of XML is needed.
extension DirectoryListing {
    /// What photogrid asks for: each member's type, nothing more.
    package static let propfindBody = Array("""
        <?xml version="1.0" encoding="utf-8"?>
        <D:propfind xmlns:D="DAV:"><D:prop><D:resourcetype/></D:prop></D:propfind>
        """.utf8)

    /// The members of the folder at `url` in a multistatus body; nil when it is none.
    package static func webDAV(_ bytes: [UInt8], url: RemoteURL) -> DirectoryListing? {
        var listing = DirectoryListing()
        var sawMultistatus = false
        var href: [UInt8]?, isFolder = false
        let path = url.path.hasSuffix("/") ? url.path : url.path + "/"
        scanTags(bytes) { name, closing, text in
            switch (name, closing) {
            case ("multistatus", false): sawMultistatus = true
            case ("response", false): (href, isFolder) = (nil, false)
            case ("href", true): href = text()
            case ("collection", false): isFolder = true
            case ("response", true):
                guard let href, let entry = member(href, isFolder: isFolder, url: url, folderPath: path) else { return }
                if entry.folder { listing.folders.append((entry.name, entry.url)) } else { listing.files.append((entry.name, entry.url)) }
            default: break
            }
        }
        return sawMultistatus ? listing : nil
    }

    /// Calls `element` for each start and end tag with the element's local name (a self-closing
    /// one as both); at an end tag, `text()` gives the text since the tag before, XML's five
    /// entities and character references expanded (no other: no document grows as it is read).
    /// Processing instructions, comments and declarations are passed over.
    static func scanTags(_ bytes: [UInt8], element: (String, Bool, () -> [UInt8]) -> Void) {
        var i = 0, textStart = 0
        while i < bytes.count {
            guard bytes[i] == UInt8(ascii: "<") else { i += 1; continue }
            guard let end = bytes[i...].firstIndex(of: UInt8(ascii: ">")) else { return }
            let tag = bytes[(i + 1)..<end]
            let text = bytes[textStart..<i]
            i = end + 1
            textStart = i
            guard let first = tag.first, first != UInt8(ascii: "?"), first != UInt8(ascii: "!") else { continue }
            let closing = first == UInt8(ascii: "/")
            let name = localName(closing ? tag.dropFirst() : tag)
            element(name, closing) { unescaped(Array(text)) }
            if !closing, tag.last == UInt8(ascii: "/") { element(name, true) { [] } }
        }
    }

    /// A member of the folder at `folderPath`: its name and URL; nil for the folder itself and
    /// for anything outside it (another server, a path elsewhere, deeper than one level).
    private static func member(_ href: [UInt8], isFolder: Bool, url: RemoteURL, folderPath: String)
        -> (name: String, url: RemoteURL, folder: Bool)? {
        let text = String(decoding: href, as: UTF8.self).trimmingWhitespace
        guard let target = url.resolving(text), target.origin == url.origin, target.query == nil else { return nil }
        var targetPath = target.path
        if isFolder && !targetPath.hasSuffix("/") { targetPath += "/" }
        guard targetPath.count > folderPath.count, targetPath.hasPrefix(folderPath) else { return nil }
        var below = targetPath.dropFirst(folderPath.count)
        if isFolder { below = below.dropLast() }
        guard !below.isEmpty, !below.contains("/") else { return nil }
        let name = RemoteURL.percentDecoded(below)
        guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0"),
              let resolved = url.resolving(RemoteURL.relativePath(segments: [name], directory: isFolder)) else { return nil }
        return (name, resolved, isFolder)
    }

    /// `D:href`, `lp1:collection ...attributes`, `collection/` → `href`, `collection`.
    private static func localName(_ tag: ArraySlice<UInt8>) -> String {
        let nameEnd = tag.firstIndex { $0 == 0x20 || $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == UInt8(ascii: "/") } ?? tag.endIndex
        let qualified = tag[..<nameEnd]
        let local = qualified.lastIndex(of: UInt8(ascii: ":")).map { qualified[($0 + 1)...] } ?? qualified
        return String(decoding: local, as: UTF8.self)
    }

    /// XML's five entities and numeric character references in an href's text.
    private static func unescaped(_ text: [UInt8]) -> [UInt8] {
        guard text.contains(UInt8(ascii: "&")) else { return text }
        var out: [UInt8] = [], i = 0
        let named: [String: UInt8] = ["amp": 0x26, "lt": 0x3C, "gt": 0x3E, "quot": 0x22, "apos": 0x27]
        while i < text.count {
            if text[i] == UInt8(ascii: "&"), let semi = text[i...].prefix(12).firstIndex(of: UInt8(ascii: ";")) {
                let entity = String(decoding: text[(i + 1)..<semi], as: UTF8.self)
                if let byte = named[entity] {
                    out.append(byte)
                    i = semi + 1
                    continue
                }
                if entity.hasPrefix("#"), let scalar = (entity.hasPrefix("#x") ? UInt32(entity.dropFirst(2), radix: 16) : UInt32(entity.dropFirst()))
                    .flatMap(Unicode.Scalar.init) {
                    out += Array(String(Character(scalar)).utf8)
                    i = semi + 1
                    continue
                }
            }
            out.append(text[i])
            i += 1
        }
        return out
    }
}
