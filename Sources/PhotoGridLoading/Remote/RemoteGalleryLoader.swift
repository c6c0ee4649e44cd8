import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// Reads what a URL points at into the photos of a gallery: a manifest and the pages after it,
/// or a web directory listing and its subfolders (`+Crawl`). Everything is bounded: pages,
/// folders, photos and bytes, so that a hostile or broken server cannot keep photogrid loading.
package struct RemoteGalleryLoader {
    package struct Limits: Sendable {
        package var pages = 1_000
        /// Folders of a tree read at most: a photo library's year/month/event tree has hundreds;
        /// past this, the rest are counted and said.
        package var folders = 50_000
        /// Deeper than any tree people make: only a loop of links that the crawl cannot tell
        /// from new folders (folders of folders alone) reaches it.
        package var depth = 40
        /// Folders asked for at a time.
        package var crawlConnections = 8
        package var photos = 1_000_000
        /// A manifest page or a listing.
        package var documentBytes = 64 * 1024 * 1024
        /// Files of a listing whose names say nothing (no extension, or one no picture has)
        /// whose first bytes are asked for, to show the pictures among them.
        package var sniffs = 256
        /// Requests at a time for those first bytes.
        package var sniffConnections = 6
        package init() {}
    }

    package struct Loaded: Sendable {
        package var title: String
        package var photos: [RemotePhoto]
        /// Files of the listing photogrid does not decode (videos, TIFF...), for tiles that say so.
        package var others: [(name: String, url: RemoteURL, format: ImageFormat)]
        /// The gallery had more photos than `Limits.photos`: only the first are here.
        package var cut = false
        /// Where the server takes batches of renditions, as its manifest's first page says.
        package var batch: RemoteURL?
        /// Folders of a listing's tree the crawl could not read or did not.
        package var leftOut = LeftOut()

        package init(title: String, photos: [RemotePhoto], others: [(name: String, url: RemoteURL, format: ImageFormat)], cut: Bool = false,
                     batch: RemoteURL? = nil, leftOut: LeftOut = LeftOut()) {
            (self.title, self.photos, self.others, self.cut, self.batch, self.leftOut) = (title, photos, others, cut, batch, leftOut)
        }
    }

    /// The first document at a URL: a manifest (read with its pages at once) or a listing
    /// (whose tree `crawl` reads).
    package indirect enum First: Sendable {
        case manifest(Loaded)
        /// A listing, and how its subfolders are listed too.
        case listing(DirectoryListing, RemoteURL, ListingKind)
        /// A photo's URL: its folder's gallery, the grid on that photo (its id), as
        /// `photogrid PHOTO` opens its folder.
        case focused(First, photo: String)
    }

    /// How a tree's folders are listed: a web server's page, WebDAV's PROPFIND, SFTP's long
    /// listing, a bucket's ListObjectsV2.
    package enum ListingKind: Sendable {
        case web, webDAV, sftp, bucket
    }

    package enum LoadError: Error, CustomStringConvertible {
        case fetch(RemoteURL, FetchError)
        /// What the document is not; `photo`, the name of a photo the URL turned out to be.
        case document(String, photo: String? = nil)
        package var description: String {
            switch self {
            case .fetch(let url, let error):
                // A status already names the URL that answered (the last one, after redirects).
                if case .status = error { return error.description }
                return "\(url): \(error)"
            case .document(let text, _): return text
            }
        }
    }

    let fetcher: Fetching
    let limits: Limits
    /// Every document asked of the server again, not taken from the cache (Ctrl-R).
    package var reloads = false

    package init(fetcher: Fetching, limits: Limits = Limits()) {
        self.fetcher = fetcher
        self.limits = limits
    }

    /// The whole gallery at `url`, waited for.
    package func load(_ url: RemoteURL) throws(LoadError) -> Loaded {
        return try load(try first(url))
    }

    /// The whole gallery of what `first` found.
    package func load(_ first: First) throws(LoadError) -> Loaded {
        switch first {
        case .manifest(let loaded): return loaded
        case .listing(let listing, let at, let kind): return crawl(listing, url: at, kind: kind)
        case .focused(let inner, _): return try load(inner)
        }
    }

    /// The document at `url`, and a manifest's pages after it. When the URL's GET gives
    /// neither, what else it may have meant is tried, and if nothing answers, the GET's failure
    /// is what is said: a folder given without its `/`; an export folder whose server lists no
    /// folders (its `manifest.json`); a WebDAV share, which refuses GET on a folder or answers
    /// it with a page of its own (PROPFIND); a photo's URL (its folder, on that photo).
    package func first(_ url: RemoteURL) throws(LoadError) -> First {
        let failure: LoadError
        do { return try document(at: url) } catch { failure = error }
        if case .fetch(_, .status) = failure {} else if case .document = failure {} else { throw failure }
        if case .document(_, let photo?) = failure, let folder = url.resolving("./") {
            if let inFolder = try? first(folder) { return .focused(inFolder, photo: RemoteURL.percentDecoded(photo)) }
            throw failure
        }
        if url.scheme.isWeb, !url.hasDirectoryPath, !url.lastPathSegment.isEmpty,
           let folder = url.resolving(RemoteURL.percentEncode(path: url.lastPathSegment) + "/"), let found = try? document(at: folder) {
            return found
        }
        if url.scheme.isWeb, url.hasDirectoryPath, let manifest = url.resolving("manifest.json"),
           case .manifest(let loaded)? = try? document(at: manifest) {
            return .manifest(loaded)
        }
        if url.scheme.isWeb, case .fetch(_, .bucket) = failure, let found = try? bucketFolder(url) { return found }
        if url.scheme.isWeb, let listing = webDAVListing(url) { return .listing(listing.listing, listing.url, .webDAV) }
        throw failure
    }

    /// A bucket's folder named by an https URL, path-style (`https://HOST/BUCKET/PREFIX/`) or
    /// virtual-hosted (`https://BUCKET.HOST/PREFIX/`): a GET of a folder's key is S3's 404
    /// (or 403 in a private bucket), so each form's listing is asked for, path-style first.
    private func bucketFolder(_ url: RemoteURL) throws(LoadError) -> First {
        let segments = url.pathSegments.map { RemoteURL.percentDecoded($0) }.filter { !$0.isEmpty }
        func prefix(_ parts: ArraySlice<String>) -> String { parts.isEmpty ? "" : parts.joined(separator: "/") + "/" }
        var candidates: [BucketLocation] = []
        if let bucket = segments.first, let base = RemoteURL(url.origin + "/" + BucketLocation.encode(Array(bucket.utf8), keepingSlash: false) + "/"),
           let location = BucketLocation(base: base, prefix: prefix(segments.dropFirst())) {
            candidates.append(location)
        }
        if let base = RemoteURL(url.origin + "/"), let location = BucketLocation(base: base, prefix: prefix(segments[...])) {
            candidates.append(location)
        }
        var failure = LoadError.document("\(url): not a bucket's folder")
        for location in candidates {
            guard let listingURL = location.listing(prefix: location.prefix) else { continue }
            do {
                if case .listing(let listing, let at, .bucket) = try document(at: listingURL) { return .listing(listing, at, .bucket) }
            } catch {
                // A forbidden or missing prefix says so, rather than "not a bucket".
                if case .fetch(_, .bucket(_, let code, _)) = error, code != "NoSuchKey" { failure = error }
            }
        }
        throw failure
    }

    /// A listing's title: its folder's name, the host's for the root; a bucket's prefix's last
    /// part, or the bucket's name for its root.
    package static func title(of url: RemoteURL) -> String {
        if BucketLocation.isFolderListing(url), let location = BucketLocation(listingURL: url),
           let last = location.prefix.split(separator: "/").last {
            return String(last)
        }
        return url.lastPathSegment.isEmpty ? url.host : url.lastPathSegment
    }

    /// What the document at `url` is, without guessing what else the URL meant.
    private func document(at url: RemoteURL) throws(LoadError) -> First {
        let first = try get(url)
        if ImageFormat(content: Array(first.body.prefix(16))) != nil {
            throw .document("\(first.url): a picture, not a gallery", photo: first.url.lastPathSegment)
        }
        if url.scheme == .sftp {
            // A folder's URL lists it (a file's gives its bytes, which are no listing).
            guard let listing = DirectoryListing.sftp(first.body, url: first.url) else {
                throw .document("\(first.url): not a folder (an SFTP gallery's URL ends with /)")
            }
            return .listing(listing, first.url, .sftp)
        }
        let kind: RemoteDocument
        do { kind = try RemoteDocument.classify(body: first.body, contentType: first.contentType, url: first.url) } catch {
            throw .document("\(first.url): \(error)")
        }
        switch kind {
        case .manifest(let manifest): return .manifest(try pages(from: manifest, url: first.url))
        case .listing(let listing):
            // A bucket's listing that is not one folder's (the bucket's own URL lists every
            // key): its first folder's, asked for as such.
            if listing.isBucket, !BucketLocation.isFolderListing(first.url), let location = BucketLocation(listingURL: first.url),
               let folder = location.listing(prefix: location.prefix), folder != first.url {
                return try document(at: folder)
            }
            // An export folder listed by its server: its manifest, not its renditions as photos.
            if let manifest = listing.files.first(where: { $0.name == "manifest.json" })?.url,
               case .manifest(let loaded)? = try? document(at: manifest) {
                return .manifest(loaded)
            }
            return .listing(listing, first.url, listing.isBucket ? .bucket : .web)
        }
    }

    /// The WebDAV listing of the folder at `url` (with a `/` added: a collection's URL ends in
    /// one), if the server answers PROPFIND with one.
    private func webDAVListing(_ url: RemoteURL) -> (listing: DirectoryListing, url: RemoteURL)? {
        let folder = url.hasDirectoryPath ? url : (url.resolving(url.lastPathSegment.isEmpty ? "./" : RemoteURL.percentEncode(path: url.lastPathSegment) + "/") ?? url)
        let answer = Pending<Result<FetchResult, FetchError>>()
        fetcher.propfind(folder, limit: limits.documentBytes) { answer.fulfil($0) }
        guard let response = try? answer.wait().get(),
              let listing = DirectoryListing.webDAV(response.body, url: response.url) else { return nil }
        return (listing, response.url)
    }

    private func get(_ url: RemoteURL) throws(LoadError) -> FetchResult {
        do throws(FetchError) {
            return try reloads ? fetcher.waitForReload(url, limit: limits.documentBytes) : fetcher.waitFor(url, limit: limits.documentBytes)
        } catch {
            throw .fetch(url, error)
        }
    }

    /// The manifest's photos and those of every `next` page after it, once each.
    private func pages(from first: GalleryManifest, url: RemoteURL) throws(LoadError) -> Loaded {
        var photos = first.photos
        var seen: Set<RemoteURL> = [url]
        var next = first.next
        var cut = false
        while let page = next {
            // More photos or pages than photogrid takes: the rest are left, and the title says so.
            guard photos.count < limits.photos, seen.count < limits.pages else { cut = true; break }
            guard seen.insert(page).inserted else { break }        // a loop of pages: all seen
            let response = try get(page)
            let manifest: GalleryManifest
            do { manifest = try GalleryManifest.parse(response.body, url: response.url) } catch {
                throw .document("\(page): \(error)")
            }
            photos += manifest.photos
            next = manifest.next
        }
        if photos.count > limits.photos {
            cut = true
            photos.removeLast(photos.count - limits.photos)
        }
        // Pages must not repeat a photo: its id names its tiles and cache entries.
        var ids = Set<String>()
        photos = photos.filter { ids.insert($0.id).inserted }
        let title = first.title ?? (url.lastPathSegment.isEmpty || url.lastPathSegment.hasSuffix(".json") ? url.host : url.lastPathSegment)
        return Loaded(title: title, photos: photos, others: [], cut: cut, batch: first.batch)
    }
}
