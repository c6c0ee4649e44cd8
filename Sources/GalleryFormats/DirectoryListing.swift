import PhotoGridModel
/// The files and subfolders of a web server's directory index: nginx's `autoindex` (HTML, or
/// JSON with `autoindex_format json`), Apache's `mod_autoindex` (plain or fancy), and
/// `python3 -m http.server`; other servers' HTML indexes work the same way.
///
/// From HTML, every `<a href>` is resolved against the listing's URL and kept only when it
/// leads below the listing's directory on the same server, without a query: that drops the
/// parent (`../`, Apache's "Parent Directory"), the listing itself, Apache's sort links
/// (`?C=N;O=D`), and links elsewhere. A link ending in "/" is a folder. Names come from the URL
/// (percent-decoded), not from the link's text, which nginx cuts short and Apache may
/// abbreviate. Links deeper than one level (`sub/x.jpg`, in hand-written pages) are kept, named
/// by their path below the directory. Repeats of a URL are dropped.
///
/// Pass the listing's final URL, after redirects: servers redirect `/photos` to `/photos/`, and
/// relative links are resolved against the directory the URL names.
package struct DirectoryListing: Sendable {
    package var files: [(name: String, url: RemoteURL)]
    package var folders: [(name: String, url: RemoteURL)]
    /// A bucket's listing (`bucket`), whose folders are listed the same way.
    package var isBucket = false
    /// A bucket's next page of this folder, when there is more than one.
    package var more: RemoteURL?

    package init(files: [(name: String, url: RemoteURL)] = [], folders: [(name: String, url: RemoteURL)] = []) {
        self.files = files
        self.folders = folders
    }

    /// nginx's JSON listing has about ten values per entry; this allows 800,000 entries.
    static let jsonLimits = JSONLimits(maxBytes: 64 << 20, maxDepth: 8, maxValues: 8_000_000)

    /// The listing in `bytes`, served from `url` with `contentType` (the header's value, if
    /// any); nil when it is not a directory listing.
    ///
    /// JSON (a body starting with "[", or a JSON content type) must be nginx's array of
    /// `{"name", "type"}` objects. Anything else is read as HTML, unless its content type says it
    /// is something else (an image, say) or, without one, it does not start with "<". An HTML
    /// page is a listing when at least one of its links leads below its directory, or when it
    /// has none but its title or first heading reads as an index ("Index of /x/", as nginx,
    /// Apache and lighttpd write; "Directory listing for /x/", as Python does): an empty folder's
    /// listing. Any other page is not, so an error page or a site's front page is not taken for
    /// an empty folder.
    package static func parse(_ bytes: [UInt8], url: RemoteURL, contentType: String?) -> DirectoryListing? {
        let media = contentType.map(mediaType)
        let first = firstSignificantByte(bytes)
        if first == UInt8(ascii: "[") || media.map(isJSON) == true {
            // nginx writes names as they are on disk, UTF-8 or not.
            guard let document = try? JSONParser.parse(RawName.keepingInvalidBytes(bytes), limits: jsonLimits) else { return nil }
            return nginx(document, url: url)
        }
        if first == UInt8(ascii: "<"), let bucket = bucket(bytes, url: url) { return bucket }
        if let media {
            guard media.contains("html") else { return nil }
        } else {
            guard first == UInt8(ascii: "<") else { return nil }
        }
        return html(bytes, url: url)
    }

    /// nginx's `autoindex_format json`: `[{"name": "a b.jpg", "type": "file", ...}, ...]`, the
    /// names as they are on disk (not encoded). Entries of other types ("other": sockets,
    /// devices) and names no file could have ("", ".", "..", anything with "/") are skipped.
    static func nginx(_ document: JSONDocument, url: RemoteURL) -> DirectoryListing? {
        let root = JSONDocument.root
        guard document.kind(root) == .array else { return nil }
        var listing = DirectoryListing()
        for element in document.elements(root) {
            guard document.kind(element) == .object else { return nil }
            var name: String?
            var type: String?
            for member in document.memberNames(element) where document.isString(member + 1) {
                if document.string(member, is: "name") { name = document.string(member + 1) }
                if document.string(member, is: "type") { type = document.string(member + 1) }
            }
            guard let name, let type else { return nil }
            guard !name.isEmpty, name != ".", name != "..", !name.contains("/"), !name.contains("\0") else { continue }
            let folder = type == "directory"
            guard folder || type == "file",
                  let target = url.resolving(RawName.pathSegment(name) + (folder ? "/" : "")) else { continue }
            let shown = RawName.shown(name)
            if folder { listing.folders.append((shown, target)) } else { listing.files.append((shown, target)) }
        }
        return listing
    }

    static func html(_ bytes: [UInt8], url: RemoteURL) -> DirectoryListing? {
        let page = HTMLLinkScanner(bytes)
        // Links are kept when their path continues the directory's on the same server; the rest
        // of the path names them. (`RemoteURL.contains`, with the directory worked out once.)
        let origin = url.origin
        let path = Array(url.path.utf8)
        let directory = path[...(path.lastIndex(of: UInt8(ascii: "/")) ?? 0)]
        var listing = DirectoryListing()
        var seen = Set<RemoteURL>()
        for link in page.links {
            // Browsers drop the whitespace around a URL and the tabs and line breaks inside it.
            var cleaned = link
            if cleaned.utf8.contains(where: { $0 == 0x09 || $0 == 0x0A || $0 == 0x0D || $0 == 0x20 }) {
                cleaned = String(String.UnicodeScalarView(link.unicodeScalars.filter { $0 != "\t" && $0 != "\n" && $0 != "\r" })).trimmingWhitespace
            }
            guard let target = url.resolving(cleaned), target.query == nil, target.origin == origin else { continue }
            let targetPath = target.path.utf8
            guard targetPath.count > directory.count, targetPath.starts(with: directory), seen.insert(target).inserted else { continue }
            let below = targetPath.dropFirst(directory.count)
            let folder = below.last == UInt8(ascii: "/")
            let name = RemoteURL.percentDecoded(String(decoding: folder ? below.dropLast() : below, as: UTF8.self))
            if folder { listing.folders.append((name, target)) } else { listing.files.append((name, target)) }
        }
        // A page that names itself for the folder, as every server's listing does; a site's
        // front page or a blog post links below its folder too, but is titled for its site.
        guard isIndex(title: page.title, heading: page.heading, url: url) else { return nil }
        return listing
    }

    /// Whether a page's title or first heading reads as a folder's listing: "Index of /x/"
    /// (nginx, Apache, lighttpd), "Directory listing for /x/" (python), the folder's path
    /// (rclone: "/x") or name (Caddy: "x"). A page with neither is a bare list of links, read as
    /// one.
    static func isIndex(title: String?, heading: String?, url: RemoteURL) -> Bool {
        guard title != nil || heading != nil else { return true }
        let path = RemoteURL.percentDecoded(url.path)
        let trimmed = path.count > 1 && path.hasSuffix("/") ? String(path.dropLast()) : path
        let name = url.pathSegments.last { !$0.isEmpty } ?? "/"
        return [title, heading].contains { text in
            guard let text = text?.trimmingWhitespace else { return false }
            let squeezed = String(text.unicodeScalars.filter { $0 != " " && $0 != "\n" && $0 != "\t" }.map(Character.init))
            return text.hasPrefix("Index of ") || text.hasPrefix("Directory listing for ")
                || [path, trimmed, name].contains(text) || [path, trimmed].contains(squeezed)
        }
    }

    // MARK: - Content types

    /// `text/html; charset=utf-8` → `text/html`.
    static func mediaType(_ contentType: String) -> String {
        String(contentType.prefix { $0 != ";" }).trimmingWhitespace.lowercased()
    }

    static func isJSON(_ media: String) -> Bool {
        media == "application/json" || media == "text/json" || media.hasSuffix("+json")
    }

    /// The first byte that is not whitespace or a byte-order mark; nil for an empty body.
    static func firstSignificantByte(_ bytes: [UInt8]) -> UInt8? {
        var i = bytes.starts(with: [0xEF, 0xBB, 0xBF]) ? 3 : 0
        while i < bytes.count, [0x20, 0x09, 0x0A, 0x0D, 0x0C].contains(bytes[i]) { i += 1 }
        return i < bytes.count ? bytes[i] : nil
    }
}
