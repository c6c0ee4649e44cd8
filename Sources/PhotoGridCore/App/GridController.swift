import PhotoGridCanvas
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// The app without a terminal: the gallery, the view stack, and what a frame is. The event loop
/// (`GridApp`) feeds it keys and sizes and writes out its frames; the benchmark and the screen
/// oracle drive it the same way.
///
/// The views (`AppView`) own their state, keys and part of the frame: the grid always at the
/// bottom, the screens opened over it (`screens`: the time zoom, compare, the photo view, in the
/// order they were opened), and over those the layers (search and caption prompts, questions,
/// the details and help panels). A key goes to the top layer, down through the layers that pass
/// it, then to the top screen; what the view that took it asks for (`Action`) is applied here
/// (`GridController+Actions`). A frame is the top screen's, with the panel over it and the status
/// line composed from all of them (`status`). The controller keeps what is the app's: the
/// screen, the canvas, what is written before the next frame, the notice.
package final class GridController {
    package let gallery: GalleryModel
    /// The grid, the bottom of the view stack (set in `init`, never nil after).
    private(set) var grid: GridView!
    /// The screens over the grid, the last on top; closing one shows the one it was opened from.
    var screens: [ScreenView] = []
    /// Prompts and panels over the screens, the last on top.
    var layers: [AppView] = []
    package private(set) var screen: ScreenMetrics
    /// How the terminal's protocol draws tiles and what it holds, for every screen.
    package let canvas: any Canvas
    package let modeName: String
    /// Written before the next frame: freeing pictures the terminal may have lost track of, a
    /// path for the clipboard.
    var pendingBytes: [UInt8] = []
    /// The whole screen must be repainted (after a resize, a column change, Ctrl-L, a resume).
    package internal(set) var needsClear = true
    /// The next full repaint sends every picture again (`repaint`): through tmux.
    var picturesMayBeLost = false
    /// Said once on the status line after an action (a rescan's result, an error), until the next key.
    package var notice: String?
    /// Whether the status line says that the memory budget is too small.
    var budgetNotice = BudgetNotice()
    /// Said on the status line until the first key: how this terminal could show real pictures
    /// (plain xterm: started as `xterm -ti vt340`).
    package var startHint: String?
    /// `q` was pressed.
    package internal(set) var quitRequested = false
    /// A key was pressed since start-up.
    var keyPressed = false
    /// What the app's timing reads (`Clock`).
    package let clock: any Clock
    /// What start-up settles from the options and the terminal's answers.
    package var settings = Settings()
    /// The panel as last written, so that an unchanged one is not written again.
    var drawnPanel: [UInt8]?

    package struct Settings {
        /// The terminal takes synchronized output (`CSI ? 2026`, asked at start-up): a frame is
        /// shown whole or not at all.
        package var synchronizedOutput = false
        /// The slideshow's pace, in seconds.
        package var slideshowSeconds = 4
        /// `--read-only`: no caption or rating is saved, nothing is moved to the trash;
        /// photogrid writes nothing but its cache.
        package var readOnly = false
        /// Running inside tmux, which takes the clipboard its own way (`copyPath`).
        package var insideTmux = false
        /// Keys bound in the config file (`ConfigFile`): a key pressed, and the key it stands for.
        package var bindings: [Key: Key] = [:]
    }

    /// What one frame changes on screen.
    package struct Frame {
        /// Clear the screen first (and forget what was drawn).
        package var clear: Bool
        package var status: String
        /// The grid's changes, escape sequences to write after the status line.
        package var bytes: [UInt8]
        package var tilesLoading: Int
        /// Pictures ready but left for the next frame (a slow link's budget).
        package var heldBack = false
    }

    /// What starts and ends a synchronized update.
    package static let beginSynchronized = Array("\u{1B}[?2026h".utf8), endSynchronized = Array("\u{1B}[?2026l".utf8)

    package init(title: String, session: GridSession, screen: ScreenMetrics, columns: Int?, modeName: String,
                 clock: any Clock = SystemClock()) {
        gallery = GalleryModel(title: title, session: session)
        self.clock = clock
        self.modeName = modeName
        self.screen = screen
        canvas = session.mode.format.makeCanvas()
        grid = GridView(context, columns: columns)
    }

    /// The screen on top: the last opened, else the grid.
    var topScreen: ScreenView { screens.last ?? grid }

    /// What the views read of the app, as it is now.
    var context: ViewContext { context(panelArea: overlayArea) }

    /// The same, with the panel's cells given: the details panel itself is made from a context
    /// (its photo is the top screen's), which cannot hold the panel's size yet.
    func context(panelArea: (column: Int, rows: Int)?) -> ViewContext {
        ViewContext(gallery: gallery, screen: screen, canvas: canvas, modeName: modeName, settings: settings, clock: clock,
                    detailsOpen: layers.contains { $0 is DetailsView }, panelArea: panelArea,
                    areaRows: grid?.layout.areaRows ?? max(1, screen.rows - GridLayout.statusRows),
                    onGrid: screens.isEmpty, gridFocus: grid?.position.focus ?? 0)
    }

    /// Asks the pipeline for what the state needs and says what to draw now.
    package func frame() -> Frame {
        if canvas.beforeFrame(now: clock.now()) { repaint() }
        let clear = needsClear
        var before = pendingBytes
        pendingBytes = []
        if needsClear {
            drawnPanel = nil
            needsClear = false
            before += canvas.startOver(lost: picturesMayBeLost, areaRows: grid.layout.areaRows)
            picturesMayBeLost = false
        }
        budgetNotice.update(shortfalls: gallery.session.pipeline.budgetShortfalls, now: clock.now())
        canvas.panel = overlayArea.map { CellRect(row: 0, column: $0.column, columns: screen.columns - $0.column, rows: $0.rows) }
        let context = self.context
        let view = topScreen.frame(context, clear: clear)
        // Written first: what the canvas frees or hides, a path for the clipboard (`y`).
        let bytes = withPanel(before + view.bytes + canvas.endFrame())
        return Frame(clear: clear, status: status(view.status, hint: view.hint, context), bytes: bytes, tilesLoading: view.tilesLoading,
                     heldBack: view.heldBack)
    }

    /// The status line: the prompts of the layers over the top screen first, the screen's own
    /// words, the notices, and at the right the keys that matter, in the words of the top view.
    func status(_ parts: [StatusLine.Part], hint screenHint: String?, _ context: ViewContext) -> String {
        var parts = parts
        for prompt in layers.compactMap({ $0.prompt(context) }).reversed() { parts.insert(StatusLine.Part(prompt), at: 0) }
        // What an action or the app has to say, after the state's parts: they keep their places.
        let said = [notice, budgetNotice.isShown ? BudgetNotice.text : startHint].compactMap { $0 }
        let hint = layers.reversed().lazy.compactMap { $0.hint(context) }.first ?? screenHint
        let shown = !budgetNotice.isShown
        return StatusLine.compose(parts, notice: said.isEmpty ? nil : said.joined(separator: StatusLine.separator),
                                  hint: shown ? hint : nil, shortHint: shown ? "? keys " : nil, width: screen.columns)
    }

    /// Takes a new screen size and keeps the focused photo where it was.
    package func resize(to newScreen: ScreenMetrics) {
        screen = newScreen
        relayoutAll()
        needsClear = true
        // ncurses clears the screen after a resize, and the tiles' sizes change anyway.
        pendingBytes += canvas.forgetAll()
    }

    /// Every screen's layout made again for the screen and the sections.
    func relayoutAll() {
        let context = self.context
        grid.relayout(context)
        for view in screens { view.relayout(context) }
    }

    /// The link's pace as the event loop measured it: on a slow one the pictures' bytes a frame
    /// may write, and the share of their size at which scaled pictures go (a new scale asks for
    /// new tiles, so it changes only between 1, 3/4 and 1/2); at full size again while `sharp`
    /// (the screen has stayed put: the sharp pictures follow the small ones).
    package func follow(_ link: LinkMeter, sharp: Bool = false) {
        var next = screen
        // Rounded, so that the running mean's small changes change nothing.
        next.frameBudget = link.frameBudget.map { ($0 / 65536 + 1) * 65536 }
        next.slowLink = link.isSlow
        next.pictureScale = sharp ? 1 : linkScale(link)
        guard next != screen else { return }
        let relaid = next.pictureScale != screen.pictureScale || next.slowLink != screen.slowLink
        screen = next
        if relaid { relayoutAll() }
    }

    /// The share of their size at which pictures go over `link`, for this screen.
    package func linkScale(_ link: LinkMeter) -> Double {
        link.pictureScale(screenPixels: screen.columns * screen.cellWidth * screen.rows * screen.cellHeight)
    }

    /// The terminal was handed back after a suspend: repaint, and send what the terminal held
    /// again (the screen was cleared meanwhile, and a terminal may free what a cleared screen held).
    package func resumed() {
        pendingBytes += canvas.forgetAll()
        repaint()
    }

    /// Focuses photo `index` and scrolls it into view (start-up with `photogrid PHOTO`); a date
    /// order that comes later keeps it there, as it keeps a photo focused by a key.
    package func focus(_ index: Int) {
        grid.move(to: index, context)
        keyPressed = true
    }

    /// Ctrl-R in the photo view, and a rescan that found the same photos: the photos on screen
    /// whose files changed since they were drawn are made again (a deleted one says so), and the
    /// screen is repainted.
    package func reloadChanged() {
        let context = self.context
        if let photo = topScreen.currentPhoto(context), !(topScreen is GridView) {
            gallery.session.pipeline.recheck([photo])
        } else {
            let ids = context.photos.ids
            gallery.session.pipeline.recheck(grid.layout.visibleIndexes(topRow: grid.position.topRow, photos: ids.count).map { ids[$0] })
        }
        repaint()
    }

    /// Asks for a full repaint: Ctrl-L, the window settled after a resize, or the terminal was
    /// handed back after a suspend. Where the canvas may lose pictures on the way (through tmux,
    /// which drops what passes through it while the pane is hidden, while it is about to redraw,
    /// and while the terminal falls behind it), they are sent again too.
    package func repaint() {
        needsClear = true
        if canvas.losesPicturesOnRepaint { picturesMayBeLost = true }
    }

    /// When the top screen wants to be woken (a slideshow's step, an animation's frame).
    package var viewDue: Int? { topScreen.due(context) }

    /// The top screen's time has come.
    package func wakeViews() {
        guard let due = viewDue, clock.now() >= due else { return }
        apply(topScreen.wake(context))
    }
}

/// What the rest of photogrid (start-up, the tests, the benchmark) reads of the app's state.
extension GridController {
    package var title: String { gallery.title }
    package var session: GridSession { gallery.session }
    package var layout: GridLayout { grid.layout }
    package var position: GridPosition { grid.position }
    var photoView: PhotoView? { screens.last { $0 is PhotoView } as? PhotoView }
    var timeView: TimeView? { screens.last { $0 is TimeView } as? TimeView }
    var compareView: CompareView? { screens.last { $0 is CompareView } as? CompareView }
    package var zoom: ZoomState? { photoView?.state }
    package var marked: Set<PhotoID> { gallery.marked }
    package var order: PhotoOrder? { gallery.order }
    package var showHidden: Bool { gallery.showHidden }
    package var grouping: Grouping { gallery.grouping }
    package var reading: BackgroundScan? {
        get { gallery.reading }
        set { gallery.reading = newValue }
    }
    package var changes: GalleryChanges? {
        get { gallery.changes }
        set { gallery.changes = newValue }
    }
    package var leftOut: (() -> LeftOut)? {
        get { gallery.readers.leftOut }
        set { gallery.readers.leftOut = newValue }
    }
    package var search: NameSearch? { layers.lazy.compactMap { ($0 as? SearchView)?.state }.first }
    package var captionEdit: CaptionEdit? { layers.lazy.compactMap { ($0 as? CaptionView)?.edit }.first }
    package var showDetails: Bool { layers.contains { $0 is DetailsView } }
    package var showHelp: Bool { layers.contains { $0 is HelpView } }
    /// How the screens make cells plain (`Blanking`).
    package var blanking: Blanking {
        get { canvas.blanking }
        set { canvas.blanking = newValue }
    }
    /// Pictures were held back (through tmux, the pane not on screen): the loop looks again soon.
    package var picturesHeld: Bool { canvas.picturesHeld }
    /// The slideshow's next step (the app clock's ms), while one runs in the photo view.
    package var slideshowDue: Int? { photoView?.slideshowDue }
    package func advanceSlideshow() { photoView?.advanceSlideshow(now: clock.now(), context) }
    package var zoomShowsPicture: Bool { photoView?.showsPicture(context) ?? false }
    package func contents() -> (tiles: [PaintTile], marker: FocusMarker?, loading: Int) { grid.contents(context) }
    package func setColumns(_ columns: Int) { apply(grid.setColumns(columns, context)) }
    package func openZoom(_ index: Int) { openPhoto(session.id(at: index)) }
    package func closeZoom() { if let photoView { close(photoView) } }
    /// The photo at a position of the list shown.
    package func photo(at index: Int) -> PhotoID { session.id(at: index) }
}
