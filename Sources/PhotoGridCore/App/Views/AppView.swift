import PhotoGridCatalog
import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// One screen or panel of the app on the view stack (the grid, the photo view, compare, the time
/// zoom; the details and help panels, the search, caption and question prompts): it owns its
/// state, its keys and its part of the frame. A key goes to the top view, which changes its own
/// state and returns what it wants done (`Action`), which the controller applies; a view never
/// holds the controller, and reads the app through the `ViewContext` it is handed (Bubble Tea's
/// `Update` returning a command; house style 23).
protocol AppView: AnyObject {
    /// A key: taken, with what it asks for, or passed to the view below.
    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome
    /// What it puts first on the status line (a prompt being typed), if anything.
    func prompt(_ context: ViewContext) -> String?
    /// The keys that matter while it is on top, at the right of the status line.
    func hint(_ context: ViewContext) -> String?
}

extension AppView {
    func prompt(_ context: ViewContext) -> String? { nil }
    func hint(_ context: ViewContext) -> String? { nil }
}

/// A view's answer to a key.
enum KeyOutcome {
    case taken([Action])
    case passed

    static var done: KeyOutcome { .taken([]) }
    static func taken(_ action: Action) -> KeyOutcome { .taken([action]) }
}

/// A view that fills the screen with photos: the grid, the photo view, compare, the time zoom.
protocol ScreenView: AppView {
    /// What it shows now, asking the pipeline for what it needs.
    func frame(_ context: ViewContext, clear: Bool) -> ViewFrame
    /// The photo the panels and the acting keys (`m`, `o`, `y`, `e`, `i`, the culling keys) are
    /// about; nil when the list is empty.
    func currentPhoto(_ context: ViewContext) -> PhotoID?
    /// The list changed under the view (a new order, a filter, a rescan): it finds its photos
    /// again, by identity; false when one it cannot go on without is gone (it is closed).
    func listChanged(_ context: ViewContext) -> Bool
    /// A new screen size, or the layout's sections changed.
    func relayout(_ context: ViewContext)
    /// When it wants to be woken (the app clock's ms), though nothing else happens.
    func due(_ context: ViewContext) -> Int?
    /// The time it wanted to be woken at has come: what it does then.
    func wake(_ context: ViewContext) -> [Action]
}

extension ScreenView {
    func listChanged(_ context: ViewContext) -> Bool { true }
    func relayout(_ context: ViewContext) {}
    func due(_ context: ViewContext) -> Int? { nil }
    func wake(_ context: ViewContext) -> [Action] { [] }
}

/// What a screen shows: its bytes and its words for the status line, which the controller
/// composes with the prompts, the notice and the hint.
struct ViewFrame {
    var bytes: [UInt8]
    var status: [StatusLine.Part]
    var hint: String?
    var tilesLoading: Int
    /// Pictures ready but left for the next frame (a slow link's budget).
    var heldBack = false
}

/// What a view reads of the app: the gallery and its session, the screen and its canvas, the
/// settings, the clock, and what the rest of the stack shows. Handed to every call; nothing in
/// it calls back.
struct ViewContext {
    let gallery: GalleryModel
    let screen: ScreenMetrics
    let canvas: any Canvas
    let modeName: String
    let settings: GridController.Settings
    let clock: any Clock
    /// The details panel is open: the screen asks for its photo's details.
    let detailsOpen: Bool
    /// The help or details panel's cells at the top right, which the mouse does not reach through.
    let panelArea: (column: Int, rows: Int)?
    /// Rows the photos take: the screen less the status line.
    let areaRows: Int
    /// No screen is open over the grid.
    let onGrid: Bool
    /// The grid's focus, as a place in the list (the search starts from it).
    let gridFocus: Int

    var session: GridSession { gallery.session }
    var photos: PhotoList { gallery.session.photos }

    /// A photo's rating, 0 when it has none.
    func rating(of photo: PhotoID) -> Int { gallery.rating(of: photo) }

    /// Whether a cell lies under the help or the details panel.
    func isUnderPanel(column: Int, row: Int) -> Bool {
        panelArea.map { column >= $0.column && row < $0.rows } ?? false
    }
}

/// What a view asks of the app: the controller applies them in order (`GridController+Actions`).
enum Action {
    case quit
    /// Hand the terminal to a player for this video.
    case play(PhotoSource)
    /// Say this on the status line until the next key.
    case notice(String)
    /// Ctrl-L: everything drawn again (pictures the terminal may have lost too).
    case repaint
    /// The screen's layout changed: the next frame starts from a blank screen.
    case clearScreen
    /// What the panel shows changed: it is written again.
    case panelChanged
    // Views opened and closed.
    case close(AppView)
    case openPhoto(PhotoID)
    case openCompare
    case openTime(TimeScale)
    case openHelp
    case toggleDetails
    case startSearch
    case editCaption
    // The grid's focus, from a view over it.
    case focus(PhotoID)
    case focusIndex(Int)
    // The list: its order, sections, hidden files, reading it again.
    case cycleSort
    case reverseOrder
    case cycleGrouping
    case toggleHidden
    case toggleFit
    case rescan
    case reloadChanged
    // Acting on photos.
    case mark(PhotoID)
    case markAll
    case openElsewhere
    case copyPath
    case saveCaption(CaptionEdit)
    // Culling: on the marked photos in the grid, else the one in view.
    case askRating
    /// `L`: a colour label for the culling targets, typed next; and one given to these photos.
    case askLabel
    case labelThese([PhotoID], String)
    /// `t`: keywords for the culling targets, typed next; and those given to these photos.
    case askKeywords
    case setKeywords([PhotoID], adding: [String], removing: [String])
    case rate(Int)
    case rateThese([PhotoID], Int)
    case toggleReject
    case askFilter
    case setFilter(RatingFilter)
    /// `\`: the filter by what photos are, typed; then applied (nil: off).
    case askQuery
    case setQuery(PhotoQuery?)
    case askTrash
    case trash([PhotoID])
    /// `C`, `V`: a folder for the culling targets, typed next; then they are copied or moved there.
    case askTransfer(copy: Bool)
    case transfer([PhotoID], folder: String, copy: Bool)
    /// Tab: the focused photo's stack opened or closed.
    case toggleStack
    /// `]`, `[`: the culling targets turned a quarter right or left.
    case rotate(clockwise: Bool)
    /// `u`: the newest change to files (a trash, a move, a copy) undone.
    case undo
}
