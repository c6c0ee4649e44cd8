import PhotoGridCore
import GalleryFormats

/// Reads what a URL points at into the photos of a gallery: a manifest and the pages after it,
/// or a web directory listing and its subfolders, three levels deep. Everything is bounded: pages,
/// folders, photos and bytes, so that a hostile or broken server cannot keep photogrid loading.
package struct RemoteGalleryLoader {
    package struct Limits: Sendable {
        package var pages = 1_000
        package var folders = 2_000
        package var depth = 3
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
    }

    package enum LoadError: Error, CustomStringConvertible {
        case fetch(RemoteURL, FetchError)
        case document(String)
        package var description: String {
            switch self {
            case .fetch(let url, let error):
                // A status already names the URL that answered (the last one, after redirects).
                if case .status = error { return error.description }
                return "\(url): \(error)"
            case .document(let text): return text
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

    package func load(_ url: RemoteURL) throws(LoadError) -> Loaded {
        let first = try get(url)
        let document: RemoteDocument
        do { document = try RemoteDocument.classify(body: first.body, contentType: first.contentType, url: first.url) } catch {
            throw .document("\(first.url): \(error)")
        }
        switch document {
        case .manifest(let manifest): return try pages(from: manifest, url: first.url)
        case .listing(let listing): return try crawl(listing, url: first.url)
        }
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

    /// Files of the listing and its subfolders, breadth first, in natural order; hidden files and
    /// folders (a name starting with a dot) left out, as in a folder on disk.
    private func crawl(_ root: DirectoryListing, url: RemoteURL) throws(LoadError) -> Loaded {
        var found: [(path: String, url: RemoteURL)] = []
        var queue: [(listing: DirectoryListing, prefix: String, depth: Int)] = [(root, "", 0)]
        var visited: Set<RemoteURL> = [url]
        var listings: [[String]: RemoteURL?] = [:]
        while !queue.isEmpty, found.count < limits.photos {
            let (listing, prefix, depth) = queue.removeFirst()
            if isSeenBefore(listing, in: &listings) { continue }
            for file in listing.files where !file.name.hasPrefix(".") { found.append((prefix + file.name, file.url)) }
            guard depth < limits.depth else { continue }
            for folder in listing.folders where !folder.name.hasPrefix(".") && visited.count < limits.folders && visited.insert(folder.url).inserted {
                // A folder that cannot be listed is left out rather than failing the gallery.
                guard let response = try? get(folder.url),
                      let sub = DirectoryListing.parse(response.body, url: response.url, contentType: response.contentType) else { continue }
                let name = folder.name.hasSuffix("/") ? folder.name : folder.name + "/"
                queue.append((sub, prefix + name, depth + 1))
            }
        }
        found = NaturalOrder.sorted(found) { Array($0.path.utf8) }
        var formats = found.map { ImageFormat(fileExtension: RawPath($0.path).lowercasedExtension) }
        let unnamed = formats.indices.filter { formats[$0] == .notAnImage }.prefix(limits.sniffs)
        for (i, format) in zip(unnamed, sniff(unnamed.map { found[$0].url })) { formats[i] = format }
        var photos: [RemotePhoto] = [], others: [(String, RemoteURL, ImageFormat)] = []
        for (file, format) in zip(found, formats) {
            if format.isDecoded {
                photos.append(RemotePhoto(id: file.path, name: RawPath(file.path).lastComponent.description, original: file.url))
            } else if format != .notAnImage {
                others.append((file.path, file.url, format))
            }
        }
        let title = url.lastPathSegment.isEmpty ? url.host : url.lastPathSegment
        return Loaded(title: title, photos: Array(photos.prefix(limits.photos)), others: others,
                      cut: photos.count > limits.photos || found.count >= limits.photos)
    }

    /// What the files at `urls` are, from their first 16 bytes, as a folder on disk is read: a
    /// picture named `IMG_0001` or `photo.dat` is shown for what it is. A server that ignores
    /// `Range` sends whole files (python's http.server does): they are read up to the size of a
    /// photo and no further. A file that cannot be read is not a picture here.
    private func sniff(_ urls: [RemoteURL]) -> [ImageFormat] {
        let formats = Locked([ImageFormat](repeating: .notAnImage, count: urls.count))
        JoinableThread.forEach(urls.count, threads: limits.sniffConnections) { [fetcher] i in
            guard let head = try? fetcher.waitFor(urls[i], range: 0..<16, limit: 16),
                  let format = ImageFormat(content: Array(head.body.prefix(16))) else { return }
            formats.withLock { $0[i] = format }
        }
        return formats.withLock { $0 }
    }

    /// Whether `listing` is a folder already crawled, reached again through a link (or an exact
    /// copy of one): a web listing says nothing of links, so a folder is taken for one seen
    /// before when it names the same files and folders and the first of its files begins with the
    /// same 4 KB there and here (a photo's first bytes hold its EXIF, with its times). It is then
    /// shown once, under the path the crawl reached first. Listings are noted as they come.
    private func isSeenBefore(_ listing: DirectoryListing, in listings: inout [[String]: RemoteURL?]) -> Bool {
        let visible = listing.files.filter { !$0.name.hasPrefix(".") }
        let names = (visible.map(\.name) + listing.folders.filter { !$0.name.hasPrefix(".") }.map { $0.name + "/" }).sorted()
        let probe = visible.min { $0.name < $1.name }?.url
        guard !names.isEmpty else { return false }
        guard let earlier = listings[names] else {
            listings[names] = probe
            return false
        }
        // Folders of folders only: their subfolders' listings are compared in turn.
        guard let earlier, let probe else { return false }
        func head(_ url: RemoteURL) -> [UInt8]? {
            (try? fetcher.waitFor(url, range: 0..<4096, limit: 4096)).map { Array($0.body.prefix(4096)) }
        }
        guard let mine = head(probe), !mine.isEmpty else { return false }
        return head(earlier) == mine
    }
}
