/// What a gallery URL serves: a manifest or a directory listing, told apart by the rule of
/// docs/remote-gallery.md.
package enum RemoteDocument: Sendable {
    case manifest(GalleryManifest)
    case listing(DirectoryListing)

    /// Reads a response: `body` as fetched from `url` (the final URL, after redirects) with the
    /// `Content-Type` header's value, if there was one.
    ///
    /// - A body that starts with "{" or "[" (after whitespace and a byte-order mark), or any
    ///   body with a JSON content type, is read as JSON, and a syntax error in it is reported with
    ///   its line and column. An object with a `photogrid` member is a manifest; an array is
    ///   nginx's listing; anything else is an error.
    /// - Any other body is read as an HTML listing (see `DirectoryListing.parse` for when a
    ///   page counts as one), and when it is not one, the error says what it looks like.
    package static func classify(body: [UInt8], contentType: String?, url: RemoteURL) throws(ManifestError) -> RemoteDocument {
        let media = contentType.map(DirectoryListing.mediaType)
        let first = DirectoryListing.firstSignificantByte(body)
        if first == UInt8(ascii: "{") || first == UInt8(ascii: "[") || media.map(DirectoryListing.isJSON) == true {
            let document: JSONDocument
            do {
                document = try JSONParser.parse(body, limits: GalleryManifest.limits)
            } catch {
                throw ManifestError(url, syntax: error)
            }
            return try json(document, url: url)
        }
        if let listing = DirectoryListing.parse(body, url: url, contentType: contentType) { return .listing(listing) }
        throw ManifestError(url, message: "neither a photogrid manifest nor a directory listing: \(looks(body, media: media, url: url))")
    }

    private static func json(_ document: JSONDocument, url: RemoteURL) throws(ManifestError) -> RemoteDocument {
        let root = JSONDocument.root
        switch document.kind(root) {
        case .object:
            guard document.memberNames(root).contains(where: { document.string($0, is: "photogrid") }) else {
                throw ManifestError(url, line: 1, column: 1,
                                    message: "a JSON object without a \"photogrid\" member, so not a photogrid manifest")
            }
            return .manifest(try GalleryManifest.parse(document, url: url))
        case .array:
            guard let listing = DirectoryListing.nginx(document, url: url) else {
                throw ManifestError(url, message: "a JSON array, but not nginx's directory listing (objects with \"name\" and \"type\")")
            }
            return .listing(listing)
        default:
            throw ManifestError(url, message: "a lone JSON value, neither a photogrid manifest nor a directory listing")
        }
    }

    /// What a document that is neither looks like, for the error.
    private static func looks(_ body: [UInt8], media: String?, url: RemoteURL) -> String {
        guard let first = DirectoryListing.firstSignificantByte(body) else { return "the response is empty" }
        if let media, !media.contains("html") { return "the response is \(media)" }
        if first == UInt8(ascii: "<") {
            let page = HTMLLinkScanner(body)
            let title = (page.title ?? page.heading).map { " " + ManifestError.quoted($0) } ?? ""
            let directory = String(url.path.prefix { _ in true }.reversed().drop { $0 != "/" }.reversed())
            return "an HTML page\(title) with no links below \(directory)"
        }
        let start = String(decoding: body.prefix(40), as: UTF8.self)
        return "a document that is neither JSON nor HTML, starting \(ManifestError.quoted(start))"
    }
}
