import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// How far out the time zoom is: each month, or each year, a header and a dense band of its photos.
enum TimeScale: String {
    case months, years

    /// Many to a row, more for years: a tile of about 9 cells for months and 5 for years, within
    /// bounds that keep a band dense on a narrow terminal and the tiles recognisable on a wide one.
    func columns(for screen: ScreenMetrics) -> Int {
        switch self {
        case .months: return max(8, min(16, (screen.columns + 1) / 10))
        case .years: return max(12, min(32, (screen.columns + 1) / 6))
        }
    }

    var grouping: Grouping { self == .months ? .month : .year }
}

/// The time zoom, the pinch beyond the grid's 6 columns, as in the phone's photo apps: `-` at 6
/// columns goes out to the months, `-` again to the years; `+` or `Enter` goes back in to the
/// year in focus (its first month) or the month in focus (the grid at 6 columns, on its first
/// photo); `q` or `Esc` back to the grid on the photo in focus. The photos go by the date taken
/// (the gallery is put in the date order first). The band is a grid of its own (`GridView` with
/// a scale) over the same session, so its tiles come from the same caches and pipeline.
final class TimeView: ScreenView {
    unowned let app: GridController
    private(set) var band: GridView
    var scale: TimeScale { band.scale! }

    init(app: GridController, scale: TimeScale, focus: Int) {
        self.app = app
        band = GridView(app: app, columns: nil, scale: scale)
        band.move(to: focus)
    }

    var currentPhoto: Int { band.currentPhoto }

    func frame(clear: Bool) -> GridController.Frame { band.frame(clear: clear) }

    func handle(_ key: Key) -> KeyOutcome {
        switch key {
        case .character("Q"): return .taken(.quit)
        case .character("q"), .escape: app.closeTime(focus: band.position.focus)
        case .character("-"), .character("_"):
            if scale == .months { zoom(to: .years, focus: band.position.focus) } else { app.notice = "years: as far out as it goes" }
        case .character("+"), .character("="), .enter, .character("z"):
            let first = firstOfGroup(band.position.focus)
            if scale == .years { zoom(to: .months, focus: first) } else { app.closeTime(focus: first) }
        // What changes the grid's columns, order or sections has no meaning here.
        case .character(let c) where ("1"..."6").contains(c) || ["a", "s", "r", "S", "."].contains(c):
            app.notice = scale.rawValue + ": + or q goes back to the grid"
        default: return band.handle(key)
        }
        return .done
    }

    /// The first photo of the month or year `photo` is in.
    func firstOfGroup(_ photo: Int) -> Int {
        guard let names = band.groupNames, photo < names.count else { return photo }
        var first = photo
        while first > 0 && names[first - 1] == names[photo] { first -= 1 }
        return first
    }

    private func zoom(to next: TimeScale, focus: Int) {
        band = GridView(app: app, columns: nil, scale: next)
        band.move(to: focus)
        app.needsClear = true
    }

    /// The layout for a new screen size or list of photos.
    func relayout() { band.relayout() }
}

extension GridController {
    /// `-` at 6 columns: the months. The photos are put in the date order first; while their
    /// dates are read the status line says how far it has got, and the months come when they are.
    func openTime(_ scale: TimeScale) {
        guard gallery.readers.makeSession != nil else { notice = "no months view here"; return }
        if gallery.order?.key != .date {
            reorder(PhotoOrder(.date))
            if gallery.dates.pendingOrder != nil {
                gallery.dates.pendingTime = scale
                notice = "months: reading the dates first"
                return
            }
        }
        screens.append(TimeView(app: self, scale: scale, focus: grid.position.focus))
        needsClear = true
    }

    /// Back to the grid, at the columns it had (6), on `focus`.
    func closeTime(focus: Int) {
        if let timeView { closeScreen(timeView) }
        grid.move(to: focus)
    }
}
