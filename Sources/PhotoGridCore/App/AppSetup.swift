import PhotoGridCatalog
import PhotoGridCanvas
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What start-up decided from the command line, the terminal's answers and the gallery's
/// source, as one value: the app is built from it in one place (`GridController(setup:)`), and
/// nothing is set on it afterwards.
package struct AppSetup {
    package var title: String
    /// `--columns`; nil: the fewest at which every photo fits on a screen, else 4.
    package var columns: Int?
    /// The protocol's name for the status line.
    package var modeName: String
    package var settings = GridController.Settings()
    /// How the screens make cells plain (`Capabilities.blanking`).
    package var blanking = Blanking()
    /// Said until the first key (how this terminal could show pictures), and said first.
    package var startHint: String?
    package var notice: String?
    /// Every photo as the gallery listed them, raw files paired with a JPEG included.
    package var listed: [Photo] = []
    /// `--sort`, `--reverse`: nil for the gallery's own order.
    package var order: PhotoOrder?
    package var showHidden = false
    package var filter: RatingFilter = .all
    /// `--filter`: applied once what it asks is read.
    package var query: PhotoQuery?
    package var grouping: Grouping = .none
    /// The photo to focus (`photogrid PHOTO`), by its path below the folder.
    package var focus: RawPath?
    /// How the gallery is read again, and its dates and ratings read (`GalleryModel.Readers`);
    /// nil for a fixed list.
    package var rescan: ((Bool) throws -> [Photo])?
    package var readDates: (([Photo]) -> CaptureDates)?
    package var readRatings: (([Photo]) -> RatingScan)?
    /// The gallery's part of the catalog, for the filter.
    package var catalog: GalleryCatalog?
    package var leftOut: (() -> LeftOut)?
    /// The folder still being read, and word of a remote gallery's changes.
    package var reading: BackgroundScan?
    package var changes: GalleryChanges?
    /// The folder watched, and how the folders it names are read again.
    package var watch: FolderWatch?
    package var rescanFolders: (([FolderWatch.Change], Bool) -> [Photo])?
    package var readInfo: ((Photo) -> PhotoInfo?)?
    package var trash: Trash?
    /// Starts looking for bursts among photos whose dates are known (`StackScan`); nil: no stacks.
    package var findStacks: (([Photo], [PhotoSource: Int64?]) -> StackScan)?

    package init(title: String, modeName: String) {
        self.title = title
        self.modeName = modeName
    }
}

extension GridController {
    /// The app as `setup` says, showing `session`'s photos on `screen`.
    package convenience init(setup: AppSetup, session: GridSession, screen: ScreenMetrics, clock: any Clock = SystemClock()) {
        self.init(title: setup.title, session: session, screen: screen, columns: setup.columns, modeName: setup.modeName, clock: clock)
        settings = setup.settings
        blanking = setup.blanking
        let (shown, raws) = setup.reading == nil ? RawPairs.pair(setup.listed) : (setup.listed, [:])
        if !shown.isEmpty && !raws.isEmpty {
            gallery.raws = raws
            gallery.listed = setup.listed
        }
        gallery.readers.readRatings = setup.readRatings
        gallery.readers.catalog = setup.catalog
        gallery.readers.leftOut = setup.leftOut
        gallery.trash = setup.trash
        gallery.reading = setup.reading
        gallery.changes = setup.changes
        gallery.readers.watch = setup.watch
        gallery.readers.rescanFolders = setup.rescanFolders
        gallery.readers.readInfo = setup.readInfo
        gallery.readers.findStacks = setup.findStacks
        allowChanges(order: setup.order, showHidden: setup.showHidden, rescan: setup.rescan, readDates: setup.readDates)
        if setup.filter != .all { setFilter(setup.filter) }
        if let query = setup.query { setQuery(query) }
        if setup.grouping != .none { setGrouping(setup.grouping) }
        if let focus = setup.focus, let id = session.photos.ids.first(where: { session.table[$0].relativePath == focus }) {
            grid.move(to: id, context)
            keyPressed = true
        }
        notice = setup.notice
        startHint = setup.startHint
    }
}
