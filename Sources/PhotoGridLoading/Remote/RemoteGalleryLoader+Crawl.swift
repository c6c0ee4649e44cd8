import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// A web directory listing and its subfolders, read a few folders at a time (a NAS over Wi-Fi
/// answers each request in tens of milliseconds; one at a time, a year/month/event tree takes
/// seconds). Runs on the calling thread, which waits for the answers the transfer thread hands
/// it; says as it goes what it has found and which photos are settled in the order they are shown.
extension RemoteGalleryLoader {
    /// What the crawl tells as it goes: files found so far, and the gallery of the settled ones.
    package typealias CrawlProgress = (_ found: Int, _ settled: (_ atMost: Int) -> Loaded) -> Void

    /// One folder to read: where, under which path of the gallery, how deep.
    private struct Folder {
        var url: RemoteURL
        var path: String
        var depth: Int
        /// Times it was asked for and failed in a way that may pass.
        var failures = 0
        /// Its path's names, for the order folders are read in.
        var names: [ArraySlice<UInt8>]
        /// A bucket's next page of a folder already begun: until it comes, no photo of the
        /// folder is settled (a bucket lists keys in byte order, not the grid's).
        var continues = false
        /// Which page of its folder's listing this is (a bucket's, from 0).
        var page = 0

        init(url: RemoteURL, path: String, depth: Int) {
            (self.url, self.path, self.depth) = (url, path, depth)
            names = Array(path.utf8).split(separator: UInt8(ascii: "/"))
        }

        /// Whether it comes before `other` where the grid shows them: depth first, a folder
        /// before the folders in it, names in natural order.
        func precedes(_ other: Folder) -> Bool {
            for (a, b) in zip(names, other.names) {
                let order = NaturalOrder.compare(a, b)
                if order != 0 { return order < 0 }
            }
            return names.count < other.names.count
        }
    }

    /// Files of the listing and its subfolders, in natural order; hidden files and folders (a name
    /// starting with a dot) left out, as in a folder on disk. No depth limit but `Limits.depth`,
    /// which only a loop of links reaches; at most `Limits.folders` folders. What it could not
    /// read (a 403, a page that is no listing, the cap) is in `Loaded.leftOut`.
    package func crawl(_ root: DirectoryListing, url: RemoteURL, kind: ListingKind = .web, progress: CrawlProgress? = nil) -> Loaded {
        var found: [(path: String, url: RemoteURL)] = []
        var leftOut = LeftOut()
        // Folders to read, the next at the end: in the order they are shown (depth first, in
        // natural order), so that the first screen's folders are read first, whichever
        // answer comes first.
        var stack: [Folder] = []
        func push(_ folder: Folder) {
            var low = 0, high = stack.count
            while low < high {
                let middle = (low + high) / 2
                if stack[middle].precedes(folder) { high = middle } else { low = middle + 1 }
            }
            stack.insert(folder, at: low)
        }
        var visited: Set<RemoteURL> = [url]
        var seen = Seen()
        // Folders found to be copies of one that comes before them: nothing under them is kept.
        var dropped: [String] = []
        var underWay: [Int: Folder] = [:]
        let arrived = Locked<[(Int, Result<FetchResult, FetchError>)]>([])
        let condition = Condition()
        var tickets: [FetchTicket] = []
        defer { tickets.forEach { $0.cancel() } }

        func take(_ listing: DirectoryListing, path: String, depth: Int, page: Int = 0) {
            if dropped.contains(where: { path.hasPrefix($0) }) { return }
            if let more = listing.more, visited.insert(more).inserted {
                // A server that hands out tokens for ever is not followed for ever.
                if page + 1 >= limits.pages {
                    leftOut.cannotRead(path.isEmpty ? "/" : String(path.dropLast()), because: "more than \(limits.pages) pages of keys")
                } else {
                    var next = Folder(url: more, path: path, depth: depth)
                    (next.continues, next.page) = (true, page + 1)
                    push(next)
                }
            }
            // A bucket has no links: a folder is never a copy of another.
            let copies = kind == .bucket ? [] : copies(of: listing, at: path, in: &seen)
            if !copies.isEmpty {
                // Shown once, under the path that comes first in the grid's order of all the
                // copies, whichever answer came first: the others' photos (and folders) go. A
                // copy met first may be one already dropped for another, so all are weighed.
                func first(_ a: String, _ b: String) -> Bool {
                    Folder(url: url, path: a, depth: 0).precedes(Folder(url: url, path: b, depth: 0))
                }
                let kept = (copies + [path]).min(by: first)!
                for copy in copies where copy != kept && !dropped.contains(copy) {
                    dropped.append(copy)
                    found.removeAll { $0.path.hasPrefix(copy) }
                }
                guard kept == path else { return }
            }
            for file in listing.files where !file.name.hasPrefix(".") { found.append((path + file.name, file.url)) }
            for folder in listing.folders where !folder.name.hasPrefix(".") && visited.insert(folder.url).inserted {
                let name = folder.name.hasSuffix("/") ? folder.name : folder.name + "/"
                if depth + 1 > limits.depth {
                    leftOut.deeper(than: limits.depth)
                } else if visited.count > limits.folders {
                    leftOut.past(cap: limits.folders)
                } else {
                    push(Folder(url: folder.url, path: path + name, depth: depth + 1))
                }
            }
        }
        func start(_ id: Int, _ folder: Folder) {
            underWay[id] = folder
            let then: FetchCompletion = { result in
                condition.lock()
                arrived.withLock { $0.append((id, result)) }
                condition.broadcast()
                condition.unlock()
            }
            if kind == .webDAV {
                fetcher.propfind(folder.url, limit: limits.documentBytes, then: then)
                return
            }
            // A bucket's listings are asked for each visit: pages are named by tokens that
            // differ from one listing to the next.
            if reloads || kind == .bucket {
                fetcher.reload(folder.url, limit: limits.documentBytes, then: then)
                return
            }
            switch fetcher.getLastSeen(folder.url, limit: limits.documentBytes, then: then) {
            case .done(let result): then(result)
            case .pending(let ticket): tickets.append(ticket)
            }
        }
        func report() {
            guard let progress else { return }
            // The folders not read yet: only the first of them in the grid's order holds back
            // any photo (the stack's last, or one under way), and only when settled photos are
            // asked for.
            let (waiting, reading, files) = (stack, underWay, found)
            let paging = waiting.contains(where: \.continues) || reading.values.contains(where: \.continues)
            progress(files.count) { atMost in
                if paging { return settled([], before: nil, atMost: 0, url: url) }
                let first = (reading.values + waiting.suffix(1)).min { $0.precedes($1) }
                return settled(files, before: first?.path, atMost: atMost, url: url)
            }
        }

        take(root, path: "", depth: 0)
        var next = 0
        report()
        while !stack.isEmpty || !underWay.isEmpty {
            while !stack.isEmpty, underWay.count < limits.crawlConnections, found.count < limits.photos {
                start(next, stack.removeLast())
                next += 1
            }
            if underWay.isEmpty { break }
            condition.lock()
            var quiet = false
            while !quiet && arrived.withLock({ $0.isEmpty }) { quiet = !condition.wait(milliseconds: 100) }
            let come = arrived.withLock { list in defer { list = [] }; return list }
            condition.unlock()
            // A folder that answers late: what is settled is told again meanwhile, since whoever
            // listens may have been too early to take it at the last answer (the grid waits a
            // tenth of a second before it starts on a first screen).
            if come.isEmpty {
                report()
                continue
            }
            for (id, result) in come {
                guard let folder = underWay.removeValue(forKey: id) else { continue }
                let shown = String(folder.path.dropLast())
                switch result {
                case .failure(let error) where error.isTransient && folder.failures < 2:
                    // A server busy with the crawl's other requests (a small accept queue, a
                    // 503): asked again once the others are under way.
                    var again = folder
                    again.failures += 1
                    stack.insert(again, at: 0)
                case .failure(let error):
                    if !dropped.contains(where: { folder.path.hasPrefix($0) }) { leftOut.cannotRead(shown, because: error.reason) }
                case .success(let response):
                    let parsed: DirectoryListing?
                    switch kind {
                    case .web: parsed = DirectoryListing.parse(response.body, url: response.url, contentType: response.contentType)
                    case .webDAV: parsed = DirectoryListing.webDAV(response.body, url: response.url)
                    case .sftp: parsed = DirectoryListing.sftp(response.body, url: response.url)
                    case .bucket: parsed = DirectoryListing.bucket(response.body, url: response.url)
                    }
                    guard let listing = parsed else {
                        leftOut.cannotRead(shown, because: "not a folder listing")
                        continue
                    }
                    take(listing, path: folder.path, depth: folder.depth, page: folder.page)
                }
            }
            report()
        }
        var loaded = gallery(of: NaturalOrder.sorted(found) { Array($0.path.utf8) }, url: url, sniffing: true)
        loaded.cut = loaded.cut || found.count >= limits.photos
        loaded.leftOut = leftOut
        return loaded
    }

    /// The files found that nothing found later can come before, at most `atMost` of them: in
    /// natural order, a path under a folder not yet read comes after its folder's own photos
    /// and before those of the folders after it.
    private func settled(_ found: [(path: String, url: RemoteURL)], before folder: String?, atMost: Int, url: RemoteURL) -> Loaded {
        let sorted = NaturalOrder.sorted(found) { Array($0.path.utf8) }
        let first = folder.map { Array($0.utf8) }
        var taken: [(path: String, url: RemoteURL)] = []
        for file in sorted {
            // A folder that comes after `first` in the grid's order brings only photos after
            // those `first` brings: `first` alone decides.
            guard taken.count < atMost, first.map({ NaturalOrder.precedesAllUnder($0, Array(file.path.utf8)) }) ?? true else { break }
            taken.append(file)
        }
        return gallery(of: taken, url: url, sniffing: false)
    }

    /// The files as a gallery: pictures as photos, videos and other files photogrid names but
    /// does not decode as others. Files whose names say nothing are asked for their first bytes
    /// when `sniffing`, else left out until then.
    private func gallery(of files: [(path: String, url: RemoteURL)], url: RemoteURL, sniffing: Bool) -> Loaded {
        var formats = files.map { ImageFormat(fileExtension: RawPath($0.path).lowercasedExtension) }
        if sniffing {
            let unnamed = formats.indices.filter { formats[$0] == .notAnImage }.prefix(limits.sniffs)
            for (i, format) in zip(unnamed, sniff(unnamed.map { files[$0].url })) { formats[i] = format }
        }
        var photos: [RemotePhoto] = [], others: [(String, RemoteURL, ImageFormat)] = []
        for (file, format) in zip(files, formats) {
            if format.isDecoded {
                photos.append(RemotePhoto(id: file.path, name: RawPath(file.path).lastComponent.description, original: file.url))
            } else if format != .notAnImage {
                others.append((file.path, file.url, format))
            }
        }
        let title = RemoteGalleryLoader.title(of: url)
        return Loaded(title: title, photos: Array(photos.prefix(limits.photos)), others: others, cut: photos.count > limits.photos)
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

    /// Listings seen so far, by the names they hold: each folder's path and the URL of its first
    /// file (none for a folder of folders); and the first bytes of the files compared so far.
    private struct Seen {
        var folders: [[String]: [(path: String, probe: RemoteURL?)]] = [:]
        var heads: [RemoteURL: [UInt8]?] = [:]
    }

    /// The folders `listing` (at `path`) is a copy of, among those read already: a folder reached
    /// again through a link (or an exact copy of one). A web listing says nothing of links, so a
    /// folder is taken for one seen before when it names the same files and folders and the
    /// first of its files begins with the same 4 KB there and here (a photo's first bytes hold
    /// its EXIF, with its times). Listings are noted as they come, whatever order they come in.
    private func copies(of listing: DirectoryListing, at path: String, in seen: inout Seen) -> [String] {
        let visible = listing.files.filter { !$0.name.hasPrefix(".") }
        let names = (visible.map(\.name) + listing.folders.filter { !$0.name.hasPrefix(".") }.map { $0.name + "/" }).sorted()
        let probe = visible.min { $0.name < $1.name }?.url
        guard !names.isEmpty else { return [] }
        defer { seen.folders[names, default: []].append((path, probe)) }
        // Folders of folders only: their subfolders' listings are compared in turn.
        guard let probe, let earlier = seen.folders[names] else { return [] }
        // Each file's head asked once in a crawl: a folder linked from three places compares
        // its first file three times.
        func head(_ url: RemoteURL) -> [UInt8]? {
            if let known = seen.heads[url] { return known }
            let bytes = self.head(url)
            seen.heads[url] = bytes
            return bytes
        }
        guard let mine = head(probe), !mine.isEmpty else { return [] }
        return earlier.filter { $0.probe.flatMap(head) == mine }.map(\.path)
    }

    /// A file's first 4 KB, asked again (after a moment) when it fails in a way that may pass: a
    /// folder taken for new when it is not shows its photos twice.
    private func head(_ url: RemoteURL) -> [UInt8]? {
        for attempt in 0..<3 {
            if attempt > 0 { SystemClock.sleep(milliseconds: attempt * 100) }
            do throws(FetchError) {
                return Array(try fetcher.waitFor(url, range: 0..<4096, limit: 4096).body.prefix(4096))
            } catch where error.isTransient {
                continue
            } catch {
                return nil
            }
        }
        return nil
    }
}
