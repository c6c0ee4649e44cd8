import PhotoGridCatalog
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The gallery as the app shows it: its photos (in a `GridSession` with their caches and
/// pipeline), their order, hidden files, the capture dates read so far, sections, marks, and
/// where the list comes from (a folder read in the background, a rescan, news of a remote
/// gallery). Owned by the controller; the views read it, the controller changes it
/// (`GridController+Gallery`), and the views find their photos in a new list by identity.
package final class GalleryModel {
    package let title: String
    package let session: GridSession
    /// The order the photos are shown in; nil while they are in the gallery's own order (a
    /// manifest's, before `s` is pressed).
    package internal(set) var order: PhotoOrder?
    /// Names starting with a dot are shown (`.` toggles).
    package internal(set) var showHidden = false
    /// The folder still being read: the grid shows the photos found first.
    var reading: BackgroundScan?
    /// Word from a gallery read from elsewhere (`GalleryChanges`): changes, or a failure.
    var changes: GalleryChanges?
    /// Marked photos (`m`, `M`), by identity: a new order or a rescan keeps them.
    package internal(set) var marked: Set<PhotoID> = []
    /// Sections (`--group`, `S`), and each photo's group while they are on.
    package internal(set) var grouping: Grouping = .none
    var groupNames: [String]?
    /// The photos that start a group: each starts a row.
    var groupStarts: [Int] = []
    /// The photos' paths in lower case for the search; nil until the first search of a list.
    var searchIndex: [String]?
    /// Ratings known so far, and which photos are shown by them (`f`, `--min-rating`).
    let ratings = Ratings()
    package internal(set) var filter: RatingFilter = .all
    /// The filter by what photos are (`--filter`, `\`), nil when off, and the photos it let
    /// through when it was applied (a photo rated since keeps its place until it is applied again).
    package internal(set) var query: PhotoQuery?
    var queryMatches: Set<PhotoSource> = []
    /// The raw files shown as one tile with the JPEG of their name (`RawPairs`), by the JPEG.
    package internal(set) var raws: [PhotoSource: Photo] = [:]
    /// The trash `d` moves photos to; nil without a home (`Trash`).
    var trash: Trash?
    /// The changes to files `u` takes back, newest last (`FileChange`).
    var history: [FileChange] = []
    /// Folders photos were copied or moved to, newest first; nil until first asked.
    var recentFolders: [String]?

    /// Colour labels set here (`L`), by photo: what the badges and the filter go by before the
    /// photo's details are read again (nil inside: the label taken off).
    var labels: [PhotoSource: String?] = [:]
    /// Keywords set here (`t`), by photo: each photo's whole list now.
    var keywords: [PhotoSource: [String]] = [:]
    /// Bursts shown as one tile each (`GridController+Stacks`).
    var stacks = Stacks()

    /// How the photos are read and made into sessions, set at start-up from the gallery's
    /// source; each nil where that source cannot (`--print`, the benchmark, a fixed list).
    package var readers = Readers()
    /// The capture dates read so far, and what waits for them.
    var dates = Dates()
    /// The rating filter's state while it hides photos or waits for ratings.
    var filtering = Filtering()

    package struct Readers {
        /// The list may change: a new order, a filter, a rescan (false for a fixed list, as the
        /// benchmark's and `--print`'s).
        var changes = false
        /// Reads the gallery again, hidden files too when asked (`GallerySource.rescan`).
        var rescan: ((Bool) throws -> [Photo])?
        /// Starts reading capture dates for the date order.
        var readDates: (([Photo]) -> CaptureDates)?
        /// What is kept of the photos between runs, which the filter asks (nil: not a folder).
        package var catalog: GalleryCatalog?
        /// Starts reading the ratings of some photos (`RatingScan`).
        package var readRatings: (([Photo]) -> RatingScan)?
        /// What the gallery's last reading left out (`LeftOut`), said after each reading.
        package var leftOut: (() -> LeftOut)?
        /// The folder watched while open (`FolderWatch`), and how the folders it names are read
        /// again: the photos in them now.
        package var watch: FolderWatch?
        package var rescanFolders: (([FolderWatch.Change], Bool) -> [Photo])?
        /// A photo's details read now, outside the pipeline (its keywords before `t` changes them).
        package var readInfo: ((Photo) -> PhotoInfo?)?
        /// Starts looking for bursts (`StackScan`).
        package var findStacks: (([Photo], [PhotoSource: Int64?]) -> StackScan)?
    }

    struct Dates {
        /// Capture dates read so far (nil inside: the photo has none).
        var known: [PhotoSource: Int64?] = [:]
        /// Ratings read with the dates (the catalog's, the headers'), not 0: what the time
        /// cards choose their key photos by before the photos are shown.
        var ratings: [PhotoSource: Int] = [:]
        /// Reading dates; `pendingOrder` is the date order shown on estimates meanwhile.
        var reader: CaptureDates?
        var pendingOrder: PhotoOrder?
        /// The filter asked for while what it asks is read.
        var pendingQuery: PhotoQuery?
        /// The time zoom's months or years: each photo's, and the photos that start one; made
        /// again when the photos or the dates known change.
        var timeCache: (scale: TimeScale, list: [PhotoID], dates: Int, names: [String], starts: [Int])?
    }

    struct Stacks {
        /// Off with `--no-stacks`.
        var enabled = true
        /// Each stack's photos, in the order they were found in; and each photo's stack.
        var groups: [[PhotoSource]] = []
        var of: [PhotoSource: Int] = [:]
        /// The stacks opened with Tab, by number.
        var open: Set<Int> = []
        /// Photos the closed stacks hide from the list shown now.
        var hidden = 0
        var scan: StackScan?
        /// The dates are being read for the stacks alone: the status line need not say so.
        var waitingForDates = false
        /// The first screen was drawn: stacks are looked for once the folder is read whole.
        var wanted = false

        /// The list with each closed stack's photos after its first left out, and how many were.
        func collapse(_ photos: [Photo]) -> (shown: [Photo], hidden: Int) {
            guard !groups.isEmpty else { return (photos, 0) }
            var seen = Set<Int>()
            let shown = photos.filter { photo in
                guard let group = of[photo.source], !open.contains(group) else { return true }
                return seen.insert(group).inserted
            }
            return (shown, photos.count - shown.count)
        }

        /// A photo's stack, if it is in one.
        func group(of photo: PhotoSource) -> [PhotoSource]? { of[photo].map { groups[$0] } }
        func isClosed(_ photo: PhotoSource) -> Bool { of[photo].map { !open.contains($0) } ?? false }

        /// The badge of a photo in a stack: "[5]" on a closed one's tile, "[2/5]" in an open one.
        func badge(_ photo: PhotoSource) -> String? {
            guard let number = of[photo] else { return nil }
            let group = groups[number]
            if !open.contains(number) { return "[\(group.count)]" }
            return "[\((group.firstIndex(of: photo) ?? 0) + 1)/\(group.count)]"
        }
    }

    struct Filtering {
        /// Every photo, in order, while a filter hides some (the session holds those shown).
        var unfiltered: [Photo]?
        /// Reading ratings for `pending`, the filter asked for; what was rated since it started.
        var scan: RatingScan?
        var pending: RatingFilter?
        var setSinceScan: Set<PhotoSource> = []
    }

    init(title: String, session: GridSession) {
        self.title = title
        self.session = session
    }

    var photos: PhotoList { session.photos }
    /// Every photo in order as the gallery lists them, those a filter hides and the raw files
    /// paired with a JPEG too: what a new order, a filter or a rescan starts from.
    var allPhotos: [Photo] { listed ?? filtering.unfiltered ?? session.photos.records }
    /// Every photo as listed, a raw file paired with its JPEG included, when pairing hid some
    /// from the grid (`showList`); nil while the grid shows them all.
    var listed: [Photo]?

    /// Each photo's group again, after the photos or the known dates changed.
    func refreshGroups() {
        groupNames = grouping.names(grouping == .none ? [] : session.photos.records, dates: dates.known, title: title)
        groupStarts = groupNames.map { names in names.indices.filter { $0 == 0 || names[$0 - 1] != names[$0] } } ?? []
    }

    func timeGroups(_ scale: TimeScale) -> (names: [String], starts: [Int]) {
        if let cached = dates.timeCache, cached.scale == scale, cached.list == session.photos.ids, cached.dates == dates.known.count {
            return (cached.names, cached.starts)
        }
        let names = scale.grouping.names(session.photos.records, dates: dates.known, title: title) ?? []
        let starts = names.indices.filter { $0 == 0 || names[$0 - 1] != names[$0] }
        dates.timeCache = (scale, session.photos.ids, dates.known.count, names, starts)
        return (names, starts)
    }

    /// Reads the capture dates not known yet, unless a reading is under way.
    func startReadingDates() {
        guard dates.reader == nil, let readDates = readers.readDates else { return }
        let missing = allPhotos.filter { dates.known[$0.source] == nil }
        if !missing.isEmpty { dates.reader = readDates(missing) }
    }

    /// The gallery is shown in the scanner's own order (by name), which new photos can be merged into.
    var inScannerOrder: Bool { order == nil || order == PhotoOrder() }

    /// A list just read from the gallery in the current order. The scanner's is in name order
    /// already, and sorting 100,000 paths again would hold up the event loop for nothing.
    func arranged(_ scanned: [Photo]) -> [Photo] {
        guard let order, !inScannerOrder else { return scanned }
        return order.apply(scanned, dates: dates.known)
    }

    /// Every photo's path in lower case, made on the first search of a list of photos: lowering
    /// 100,000 paths took about 100 ms, too long to do again at every key typed.
    var searchablePaths: [String] {
        if let searchIndex, searchIndex.count == session.photos.count { return searchIndex }
        let paths = session.photos.records.map { $0.relativePath.description.lowercased() }
        searchIndex = paths
        return paths
    }

    /// Marks a photo, or unmarks it; whether it is marked now.
    func toggleMark(_ photo: PhotoID) -> Bool {
        if marked.remove(photo) == nil { marked.insert(photo) }
        return marked.contains(photo)
    }

    /// Takes the marks off photos that are gone.
    func unmark(_ gone: Set<PhotoID>) { marked.subtract(gone) }

    /// Marks every photo, or none when all are marked.
    func toggleMarkAll() {
        let all = Set(session.photos.ids)
        marked = marked.isSuperset(of: all) ? [] : all
    }

    /// A photo's rating, 0 when it has none.
    func rating(of photo: PhotoID) -> Int {
        ratings.rating(of: session.table[photo], info: session.pipeline.info(photo))
    }

    /// A photo's rating as far as it is known without reading a file (set or scanned here, or
    /// read with the dates), 0 when it is not: what the time cards choose their key photos by.
    func knownRating(of photo: PhotoID) -> Int {
        if dates.ratings.isEmpty && !ratings.anyKnown { return 0 }
        let record = session.table[photo]
        return ratings.known(record) ?? dates.ratings[record.source] ?? 0
    }

    /// The photo when it is a video (by its name or, once read, its content).
    func video(_ id: PhotoID) -> PhotoSource? {
        let photo = session.table[id]
        if photo.format.isVideo { return photo.source }
        if case .unsupportedFormat(let name)? = session.pipeline.failure(forPhoto: id), name.hasSuffix(" video") { return photo.source }
        return nil
    }

    /// "4+ stars: 120 hidden", or how far the ratings are read, for the status line.
    var filterStatus: String? {
        if let scan = filtering.scan { return "reading ratings \(scan.progress.done) of \(scan.total)" }
        if let reader = dates.reader, dates.pendingQuery != nil { return "filter: reading \(reader.progress.done) of \(reader.total)" }
        let words = [filter.words, query.map { "filter " + $0.description }].compactMap { $0 }
        guard !words.isEmpty, let all = filtering.unfiltered else { return nil }
        return words.joined(separator: ", ") + ": \(all.count - session.photos.count - stacks.hidden) hidden"
    }

    /// "dates estimated: reading 1200 of 40000" while the date order stands on estimates,
    /// "reading dates ..." while sections wait for them.
    var dateProgress: String? {
        guard let reader = dates.reader, dates.pendingQuery == nil, !stacks.waitingForDates || dates.pendingOrder != nil || grouping.byDate else { return nil }
        let counts = "\(reader.progress.done) of \(reader.total)"
        return dates.pendingOrder != nil ? "dates estimated: reading " + counts : "reading dates " + counts
    }
}
