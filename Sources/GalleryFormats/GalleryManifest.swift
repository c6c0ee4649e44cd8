/// One page of a gallery manifest (docs/remote-gallery.md, version 1), read and checked: every
/// URL resolved against the manifest's own and limited to http and https, the renditions
/// template expanded for every photo, every value of the wrong type reported with its line and
/// column.
///
/// Reading is linear in the size of the document. A million photos is the most one page may
/// hold (larger galleries continue in `next`); the JSON limits (`limits`) bound what a page may
/// cost before a single photo is looked at.
package struct GalleryManifest: Sendable {
    /// The gallery's name; nil when the manifest gives none (the doc's default, the URL's last
    /// path segment, is the caller's to apply, since only it knows the gallery's first URL).
    package var title: String?
    /// In the manifest's order.
    package var sections: [(id: String, title: String?)]
    /// In the manifest's order.
    package var photos: [RemotePhoto]
    /// The next page, whose photos follow these.
    package var next: RemoteURL?
    /// Where the server takes batches of renditions (docs/remote-gallery.md, "Batches"), if it does.
    package var batch: RemoteURL?

    package init(title: String? = nil, sections: [(id: String, title: String?)] = [], photos: [RemotePhoto] = [], next: RemoteURL? = nil,
                 batch: RemoteURL? = nil) {
        self.batch = batch
        self.title = title
        self.sections = sections
        self.photos = photos
        self.next = next
    }

    /// The format version this reads.
    package static let version = 1
    /// The most photos one page may hold.
    package static let maxPhotos = 1_000_000
    /// 256 MB, 64 levels, 20 million values: room for a million photos with every field and two
    /// renditions of their own each, while bounding the parse's table to 320 MB at worst. The
    /// HTTP client should stop reading a body at `limits.maxBytes`.
    package static let limits = JSONLimits(maxBytes: 256 << 20, maxDepth: 64, maxValues: 20_000_000)

    /// Reads the manifest in `bytes`, fetched from `url` (the final URL, after redirects: the
    /// manifest's relative URLs are resolved against it).
    package static func parse(_ bytes: [UInt8], url: RemoteURL) throws(ManifestError) -> GalleryManifest {
        let document: JSONDocument
        do {
            document = try JSONParser.parse(bytes, limits: limits)
        } catch {
            throw ManifestError(url, syntax: error)
        }
        return try ManifestReader(document: document, url: url).manifest()
    }

    /// Reads a manifest already parsed as JSON, as `RemoteDocument.classify` has.
    static func parse(_ document: JSONDocument, url: RemoteURL) throws(ManifestError) -> GalleryManifest {
        try ManifestReader(document: document, url: url).manifest()
    }
}
