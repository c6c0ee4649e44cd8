import PhotoGridCatalog
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem

/// What a grid shows: the photos, where their bytes come from and what makes pictures of them,
/// and a title. A folder on disk here; `RemoteCommand` makes one from a URL.
package struct GallerySource: Sendable {
    package var title: String
    package var photos: [Photo]
    package var loader: PhotoLoading
    package var decoder: PhotoDecoding
    package var tierStore: TierStoring?
    /// The photo to focus first (`photogrid PHOTO`): its relative path.
    package var focus: RawPath?
    /// Reads the gallery again (Ctrl-R, the hidden-files key): the photos now there, hidden ones
    /// too when asked. Nil for a gallery that cannot be read again.
    package var rescan: (@Sendable (_ showHidden: Bool) throws -> [Photo])?
    /// The folder's reading, when the grid starts before it is done (a large tree).
    package var reading: BackgroundScan?
    /// What is known of the photos between runs (dates for the date order, cameras, ratings):
    /// the catalog, by the folder's path. Nil for a gallery that is not a folder.
    package var catalog: GalleryCatalog?
    /// Word that the gallery changed since it was read (with `rescan`, which reads it again).
    package var changes: GalleryChanges?
    /// The folder watched while open, and how the folders it names are read again.
    package var watch: FolderWatch?
    package var rescanFolders: (@Sendable (_ changes: [FolderWatch.Change], _ showHidden: Bool) -> [Photo])?
    /// Called once, when the first screen has no tile loading any more (`--print`: once it is
    /// written): what can wait for it starts then, such as a remote gallery's revalidation.
    package var onScreenComplete: (@Sendable () -> Void)?
    /// What the last reading of the folder left out (`LeftOut`): said once, on the status line or
    /// on stderr.
    package var leftOut: Locked<LeftOut>?
    /// Said once at the start: what does not work as it should (a disk cache that cannot be written).
    package var notices: [String] = []

    package init(title: String, photos: [Photo], loader: PhotoLoading = FileLoader(), decoder: PhotoDecoding = PhotoDecoder(gate: MemoryGate()),
                 tierStore: TierStoring?) {
        self.title = title
        self.photos = photos
        self.loader = loader
        self.decoder = decoder
        self.tierStore = tierStore
    }

    /// Details read outside the pipeline, through this gallery's loader and decoder.
    package var infoReader: InfoReader { InfoReader(loader: loader, decoder: decoder) }

    /// The photos below a folder, with the disk cache unless turned off; a clear error when the
    /// folder cannot be read or holds no photos. A photo instead of a folder opens its folder
    /// (without subfolders: a photo in the home folder should not mean scanning all of home)
    /// with that photo focused.
    package static func folder(_ options: Options) throws -> GallerySource {
        let given = RawPath(Caches.absolute(options.path))
        var folder = given, focus: RawPath?, depth = FolderScanner().maxDepth
        if given.isRegularFile {
            guard Photo(path: given, relativePath: given.lastComponent).format != .notAnImage
                    || ((try? OpenFile(given).head(16)).flatMap { ImageFormat(content: $0) }) != nil else {
                throw ExitError("\(options.path): not a picture photogrid shows", status: 2)
            }
            folder = given.parent
            focus = given.lastComponent
            depth = 0
        }
        // The scanner's list is in name order already: sorted again only for another order.
        let order = options.order
        let arrange: @Sendable ([Photo]) -> [Photo] = { order == PhotoOrder() ? $0 : order.apply($0) }
        let (root, maxDepth) = (folder, depth)
        let leftOut = Locked(LeftOut())
        // A write photogrid was killed in left a hidden temporary: the grid's readings take it
        // away (not --print's, nor with --read-only: they write nothing in the folder).
        let removesLeftovers = !options.print && !options.readOnly
        let scan: @Sendable (Bool) throws -> [Photo] = { showHidden in
            var scanner = FolderScanner()
            scanner.maxDepth = maxDepth
            scanner.showHidden = showHidden
            scanner.removesLeftovers = removesLeftovers
            return arrange(try PhotoGrid.loadPhotos(root, scanner: scanner, leftOut: leftOut))
        }
        var photos: [Photo]
        var reading: BackgroundScan?
        // What changes from here on is seen by the watch, which starts after the first screen.
        // A folder modified before the reading began is read with its change; 50 ms of margin
        // for the file system's coarse clock (a jiffy behind), not more: a library copied just
        // before the start must not be read twice.
        let readingSince = SystemClock().wallNanoseconds() - 50_000_000
        if !options.print && focus == nil {
            // The grid starts once the first screen is known; the rest comes in the background.
            let scan = BackgroundScan(root, maxDepth: maxDepth, showHidden: options.showHidden, removesLeftovers: removesLeftovers, leftOut: leftOut)
            let (found, complete) = try scan.waitForStart()
            photos = arrange(found)
            if !complete { reading = scan }
        } else {
            photos = try scan(options.showHidden)
        }
        if let focus, !photos.contains(where: { $0.relativePath == focus }) {
            throw ExitError("\(options.path): not a picture photogrid shows", status: 2)
        }
        let (tierStore, cacheProblem) = Caches.tierStoreOrProblem(options)
        var source = GallerySource(title: folder.title, photos: photos, tierStore: tierStore)
        source.leftOut = leftOut
        source.notices = cacheProblem.map { [$0] } ?? []
        // A contact sheet asks the catalog only to sort by date or to filter: opening it (and
        // making it, in a new cache) took 2-3 ms before the first decode could start.
        if !options.print || options.query != nil || options.sortsByDate {
            let (catalog, catalogProblem) = Caches.catalog(options)
            source.catalog = catalog.map { GalleryCatalog(catalog: $0, root: folder) }
            source.notices += [catalogProblem].compactMap { $0 } + (catalog?.takeNotices() ?? [])
        }
        source.focus = focus
        source.rescan = scan
        source.reading = reading
        if !options.print && options.watch {
            let cache = DiskCache.defaultDirectory(environment: Environment.values(Environment.cacheNames))
                .flatMap { RawPath($0).resolved }
            source.watch = FolderWatch(root: folder, maxDepth: maxDepth, showHidden: options.showHidden, skipping: cache.map { [$0] } ?? [],
                                       changedSince: readingSince)
            source.rescanFolders = { changes, showHidden in
                changes.flatMap { change -> [Photo] in
                    var scanner = FolderScanner()
                    scanner.showHidden = showHidden
                    scanner.removesLeftovers = removesLeftovers
                    let depth = change.folder.bytes.isEmpty ? 0 : change.folder.bytes.count { $0 == UInt8(ascii: "/") } + 1
                    scanner.maxDepth = change.whole ? max(0, maxDepth - depth) : 0
                    scanner.relativeRoot = change.folder
                    var unused = LeftOut()
                    // A folder gone has no photos now.
                    let path = change.folder.bytes.isEmpty ? root : root.appending(change.folder.bytes)
                    return (try? scanner.scan(path, leftOut: &unused)) ?? []
                }
            }
        }
        return source
    }
}
