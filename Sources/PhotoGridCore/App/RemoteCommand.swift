import PhotoGridLoading
import GalleryFormats

/// `photogrid --url URL`: the gallery at a URL as a `GallerySource` for the grid, with a clear
/// error at start-up when the URL cannot be reached or read.
package enum RemoteCommand {
    package static func run(_ options: Options) -> Int32 {
        guard let typed = options.url.map(RemoteURL.splittingLogin) else { return PhotoGrid.main(options) }
        // From here on the URL is the one without its login: what is asked, cached and said.
        let text = typed.url
        var settings = TransferSettings.fromEnvironment()
        let url: RemoteURL
        do throws(BucketAccess.Problem) {
            guard let bucketURL = try bucket(text, typed: typed, settings: settings) else {
                guard let plain = RemoteURL(text) else {
                    PhotoGrid.printError("\(text): \(problem(with: text))")
                    return 2
                }
                url = plain
                do { settings.login = try login(typed, user: options.remote.user, for: url) } catch {
                    PhotoGrid.printError(error.description)
                    return 2
                }
                return run(options, url: url, settings: settings)
            }
            url = bucketURL
        } catch {
            PhotoGrid.printError(error.description)
            return 2
        }
        return run(options, url: url, settings: settings)
    }

    /// A bucket's folder for `s3://BUCKET/PREFIX/` (its listing's URL), its requests signed
    /// when there are credentials; and the signer set for an https URL of a known S3 endpoint
    /// (the configured one, AWS, R2, B2), whose buckets the listing's answer reveals. Nil for
    /// any other URL. Keys are never sent to any other server.
    static func bucket(_ text: String, typed: RemoteURL.TypedLogin, settings: TransferSettings) throws(BucketAccess.Problem) -> RemoteURL? {
        let isS3 = text.lowercased().hasPrefix("s3://")
        let plain = RemoteURL(text)
        guard isS3 || plain != nil else { return nil }
        if isS3, typed.user != nil {
            throw BucketAccess.Problem(description: "\(text): an s3:// URL holds no login (photogrid reads AWS_ACCESS_KEY_ID, AWS_PROFILE "
                                       + "and ~/.aws/credentials)")
        }
        let access: BucketAccess
        do throws(BucketAccess.Problem) { access = try BucketAccess.fromEnvironment() } catch {
            // The environment's AWS settings matter only for a bucket.
            if isS3 { throw error }
            return nil
        }
        if !isS3 {
            guard let plain, let signer = access.signer, BucketAccess.isS3Endpoint(plain, configured: access.endpoint) else { return nil }
            settings.buckets.add(signer, for: plain.origin)
            return nil
        }
        let location = try access.location(of: text)
        if let signer = access.signer { settings.buckets.add(signer, for: location.base.origin) }
        guard let listing = location.listing(prefix: location.prefix) else {
            throw BucketAccess.Problem(description: "\(text): not a bucket photogrid can reach")
        }
        return listing
    }

    static func run(_ options: Options, url: RemoteURL, settings: TransferSettings) -> Int32 {
        var settings = settings
        settings.connectionsPerHost = options.remote.connections
        settings.trustedCertificates = options.remote.trustedCertificates
        let cache = options.diskCacheMegabytes > 0 ? HTTPCache.standard(limitBytes: options.diskCacheMegabytes * 1024 * 1024) : nil
        let fetcher = Fetcher(loop: TransferLoop(settings: settings), cache: cache)
        // A manifest shown from the cache is checked once the first screen is drawn (or after
        // two seconds): the screen is drawn from the disk first, with both cores.
        fetcher.holdRevalidations(upTo: 2)
        defer {
            // A manifest shown from the cache is being checked: its answer is kept for next time.
            fetcher.releaseRevalidations()
            fetcher.waitForRevalidations(seconds: 2)
            fetcher.shutdown()
        }
        return PhotoGrid.main(options) { firstScreen in
            // A first visit asks for the first screen's renditions beside the manifest, in the
            // manifest's order (a sort of photogrid's own would show others first).
            let opening = options.sortGiven ? nil : firstScreen.flatMap { OpeningBatch.start(for: $0, manifest: url, fetcher: fetcher) }
            var first: RemoteGalleryLoader.First
            do {
                // The first answer is waited for where the user sees it, and can be given up on.
                first = try StartWait.run(for: "\(url.host):\(url.effectivePort)", keys: !options.print) { try RemoteGalleryLoader(fetcher: fetcher).first(url) }
            } catch let stopped as StartWait.Stopped {
                opening?.cancel()
                throw stopped
            } catch {
                opening?.cancel()
                throw ExitError("cannot load the gallery: \(error)")
            }
            // A photo's URL: its folder's gallery, on that photo.
            var focus: RawPath?, url = url
            if case .focused(let folder, let photo) = first {
                opening?.cancel()
                (first, focus) = (folder, RawPath(photo))
                url = url.resolving("./") ?? url
            }
            let loaded: RemoteGalleryLoader.Loaded
            switch first {
            case .manifest(let manifest):
                loaded = manifest
            case .listing(let listing, let at, let kind):
                opening?.cancel()
                // --print takes the tree's first photos as they settle, as the grid does, unless
                // an order or a filter asks for every photo before the first screen is known.
                if options.print && (options.sortGiven || options.query != nil || options.filter != .all) {
                    loaded = RemoteGalleryLoader(fetcher: fetcher).crawl(listing, url: at, kind: kind)
                } else {
                    var gallery = try crawling(listing, at: at, kind: kind, options: options, firstScreen: firstScreen, fetcher: fetcher)
                    gallery.focus = focus
                    return gallery
                }
            case .focused: throw ExitError("cannot load the gallery: \(url): a photo's folder is a photo")
            }
            guard !loaded.photos.isEmpty || !loaded.others.isEmpty else {
                opening?.cancel()
                throw ExitError("no photos at \(url)" + (loaded.leftOut.summary.map { " (\($0))" } ?? ""))
            }
            let batches = loaded.batch.map { BatchFetcher(endpoint: $0, fetcher: fetcher) }
            if let opening {
                if let batches, batches.endpoint == opening.endpoint { batches.adopt(opening, photos: loaded.photos) } else { opening.cancel() }
            }
            var gallery = source(loaded, fetcher: fetcher, batches: batches)
            gallery.leftOut = Locked(loaded.leftOut)
            keep(&gallery, url: url, options: options, fetcher: fetcher)
            if options.sortGiven { gallery.photos = options.order.apply(gallery.photos) }
            gallery.focus = focus
            return gallery
        }
    }

    /// What a remote gallery keeps besides its photos: tiles on disk, Ctrl-R, and the reading
    /// again when the gallery changed on the server.
    static func keep(_ gallery: inout GallerySource, url: RemoteURL, options: Options, fetcher: Fetcher) {
        if let loader = gallery.loader as? RemoteLoader {
            // Tiles are kept on disk as a folder's are, under their renditions' validators.
            let (store, problem) = Caches.tierStoreOrProblem(options) { loader.identity(of: $0, for: $1) }
            gallery.tierStore = store
            gallery.notices += problem.map { [$0] } ?? []
            // The grid reads the gallery again from the cache when a manifest shown from
            // there turns out to have changed, and when Ctrl-R's request, made on a thread
            // of its own (the loop never waits for the network), has brought it.
            let sortGiven = options.sortGiven, order = options.order
            let changes = GalleryChanges()
            gallery.rescan = { _ in
                let again: RemoteGalleryLoader.Loaded
                do { again = try RemoteGalleryLoader(fetcher: fetcher).load(url) } catch {
                    throw ExitError("cannot read the gallery again: \(error)")
                }
                let photos = photos(of: again)
                return sortGiven ? order.apply(photos) : photos
            }
            changes.onAskAgain {
                WorkerThreads.start {
                    var loader = RemoteGalleryLoader(fetcher: fetcher)
                    loader.reloads = true
                    do throws(RemoteGalleryLoader.LoadError) {
                        _ = try loader.load(url)
                        changes.post()
                    } catch {
                        changes.post(failure: "cannot read the gallery again: \(error)")
                    }
                }
            }
            gallery.changes = changes
            gallery.onScreenComplete = { fetcher.releaseRevalidations() }
            fetcher.onChange.withLock { $0 = { _ in changes.post() } }
        }
    }

    /// A listing's tree, read in the background: the grid starts once a first screen of photos is
    /// settled (or the tree is read), says on its status line how many are found, and takes the
    /// whole tree when the crawl is done.
    static func crawling(_ listing: DirectoryListing, at url: RemoteURL, kind: RemoteGalleryLoader.ListingKind, options: Options,
                         firstScreen: FirstScreen?,
                         fetcher: Fetcher) throws -> GallerySource {
        let leftOut = Locked(LeftOut())
        let sortGiven = options.sortGiven, order = options.order
        let arrange: @Sendable ([Photo]) -> [Photo] = { sortGiven ? order.apply($0) : $0 }
        // Two screens: the first and the rows prefetched after it.
        let enough = max(24, 2 * (firstScreen?.count ?? 30))
        let title = RemoteGalleryLoader.title(of: url)
        let scan = BackgroundScan(title: title, firstScreen: enough) { progress in
            let loaded = RemoteGalleryLoader(fetcher: fetcher).crawl(listing, url: url, kind: kind) { found, settled in
                progress(found) { photos(of: settled(.max)) }
            }
            leftOut.withLock { $0 = loaded.leftOut }
            guard !loaded.photos.isEmpty || !loaded.others.isEmpty else {
                throw ExitError("no photos at \(url)" + (loaded.leftOut.summary.map { " (\($0))" } ?? ""))
            }
            return arrange(photos(of: loaded))
        }
        let (found, complete) = try scan.waitForStart()
        var gallery = source(RemoteGalleryLoader.Loaded(title: title, photos: [], others: []), fetcher: fetcher)
        gallery.photos = arrange(found)
        gallery.leftOut = leftOut
        if !complete { gallery.reading = scan }
        keep(&gallery, url: url, options: options, fetcher: fetcher)
        return gallery
    }

    /// The login for the gallery's server: `--user`'s name (or the URL's) with the URL's password
    /// or one asked on the terminal; for SFTP a name alone, its keys doing the rest. Nil without
    /// a name: libcurl reads ~/.netrc for the host then.
    static func login(_ typed: RemoteURL.TypedLogin, user given: String?, for url: RemoteURL) throws(ExitError) -> Login? {
        // SFTP without a name logs in as the local user, as ssh does.
        let local = url.scheme == .sftp ? Environment.value("USER") ?? Environment.value("LOGNAME") : nil
        guard let user = given ?? typed.user ?? local else { return nil }
        if let password = typed.password, given == nil || given == typed.user { return Login(user: user, password: password, origin: url.origin) }
        if url.scheme == .sftp { return Login(user: user, password: nil, origin: url.origin) }
        guard let password = SecretPrompt.ask("Password for \(TerminalText.sanitize(user)) at \(url.host): ") else {
            throw ExitError("--user \(TerminalText.sanitize(user)): no password given (photogrid asks for it on the terminal; "
                            + "without one, put the login in ~/.netrc)", status: 2)
        }
        return Login(user: user, password: password, origin: url.origin)
    }

    /// Why `RemoteURL` refused a URL, in the words a user needs: a missing scheme gets the
    /// URL it probably meant, an http URL without a usable host says so.
    static func problem(with text: String) -> String {
        let lower = text.lowercased()
        if lower.hasPrefix("http://") || lower.hasPrefix("https://") || lower.hasPrefix("sftp://") {
            let authority = text.drop { $0 != ":" }.dropFirst(3).prefix { $0 != "/" && $0 != "?" && $0 != "#" }
            if text.unicodeScalars.contains(where: { $0.value <= 0x20 || $0.value == 0x7F }) {
                return "a URL cannot hold spaces or control characters (write a space as %20)"
            }
            if !authority.hasPrefix("["), let colon = authority.lastIndex(of: ":") {
                let port = authority[authority.index(after: colon)...]
                if !port.isEmpty && !(Int(port).map { (1...65535).contains($0) } ?? false) {
                    return "the port must be a number from 1 to 65535"
                }
            }
            return "not a valid URL (no host, or a malformed one)"
        }
        if !lower.contains("://") && !text.isEmpty && !text.hasPrefix("/") {
            return "not an http, https, sftp or s3 URL (did you mean http://\(text)?)"
        }
        return "not an http, https, sftp or s3 URL"
    }

    /// The loaded gallery as the grid's photos; files it does not decode keep their places.
    static func source(_ loaded: RemoteGalleryLoader.Loaded, fetcher: Fetching, batches: BatchFetcher? = nil) -> GallerySource {
        let photos = photos(of: loaded)
        // A gallery larger than photogrid takes says so where the user looks: the title.
        let title = loaded.cut ? loaded.title + " (its first \(loaded.photos.count) photos)" : loaded.title
        return GallerySource(title: title, photos: photos, loader: RemoteLoader(fetcher: fetcher, batches: batches),
                             decoder: PhotoDecoder(gate: MemoryGate()), tierStore: nil)
    }

    /// The loaded gallery's photos for the grid, in its order.
    static func photos(of loaded: RemoteGalleryLoader.Loaded) -> [Photo] {
        var photos = loaded.photos.map { RemoteLoader.photo($0) }
        if !loaded.others.isEmpty {
            // A listing: its files in natural order, whatever their kind. (A manifest keeps its own order.)
            photos += loaded.others.map {
                RemoteLoader.photo(RemotePhoto(id: $0.name, name: RawPath($0.name).lastComponent.description, original: $0.url), format: $0.format)
            }
            photos = NaturalOrder.sorted(photos) { $0.relativePath.bytes }
        }
        return photos
    }
}
