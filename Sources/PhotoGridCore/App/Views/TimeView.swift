import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// How far out the time zoom is: each day, month or year, a header and a dense band of its photos.
enum TimeScale: String {
    case days, months, years

    /// Many to a row, more the further out: a tile of about 13 cells for days, 9 for months and 5
    /// for years, within bounds that keep a band dense on a narrow terminal and the tiles
    /// recognisable on a wide one.
    func columns(for screen: ScreenMetrics) -> Int {
        switch self {
        case .days: return max(7, min(12, (screen.columns + 1) / 14))
        case .months: return max(8, min(16, (screen.columns + 1) / 10))
        case .years: return max(12, min(32, (screen.columns + 1) / 6))
        }
    }

    var grouping: Grouping {
        switch self {
        case .days: return .day
        case .months: return .month
        case .years: return .year
        }
    }

    /// One step further out, or in (nil: the grid).
    var outward: TimeScale? { self == .days ? .months : self == .months ? .years : nil }
    var inward: TimeScale? { self == .years ? .months : self == .months ? .days : nil }
}

/// The time zoom, the pinch beyond the grid's 6 columns, as in the phone's photo apps: `-` at 6
/// columns goes out to the days (the phone's "Days": every photo, under a header a day, denser
/// than the grid and always by the date taken, where `S`'s day sections keep the grid's size
/// and order), `-` again to the months, then the years, both as cards (`TimeCards`: a key photo
/// a period filling its card, its name and count above it); `+` or `Enter` goes back in to the
/// period in focus (its first photo), from the days to the grid at 6 columns; `q` or `Esc` back to
/// the grid on the photo in focus (a card's key photo). The photos go by the date taken (the
/// gallery is put in the date order first, at once on estimated dates where they are not read
/// yet). The band is a grid of its own (`GridView` with a scale, and cards) over the same
/// session, so its tiles come from the same caches and pipeline.
final class TimeView: ScreenView {
    private(set) var band: GridView
    var scale: TimeScale { band.scale! }

    /// Keys that act on photos, refused on a card (a period is many photos; `+` opens it).
    static let photoKeys: Set<Character> = ["R", "x", "m", "M", "d", "e", "o", "i", "c", "y", "t", "L", "[", "]"]

    init(_ context: ViewContext, scale: TimeScale, focus: PhotoID?) {
        band = TimeView.band(context, scale: scale, focus: focus)
    }

    /// The days' dense grid, or the months' and years' cards, focused on `focus`'s place.
    static func band(_ context: ViewContext, scale: TimeScale, focus: PhotoID?) -> GridView {
        guard scale != .days else {
            let band = GridView(context, columns: nil, scale: scale)
            if let focus { band.move(to: focus, context) }
            return band
        }
        let cards = TimeView.cards(context, scale)
        let band = GridView(context, columns: nil, scale: scale, cards: cards)
        if let focus, let index = context.photos.index(of: focus) { band.move(to: cards.card(containing: index), context) }
        return band
    }

    static func cards(_ context: ViewContext, _ scale: TimeScale) -> TimeCards {
        let gallery = context.gallery
        return TimeCards(scale: scale, photos: context.photos, names: gallery.timeGroups(scale).names) { gallery.knownRating(of: $0) }
    }

    func currentPhoto(_ context: ViewContext) -> PhotoID? { band.currentPhoto(context) }

    func frame(_ context: ViewContext, clear: Bool) -> ViewFrame { band.frame(context, clear: clear) }

    /// The cards made again from the new list, the focus on the period of the photo it was on.
    func listChanged(_ context: ViewContext) -> Bool {
        guard let old = band.cards else { return band.listChanged(context) }
        let card = band.position.focus
        let next = TimeView.cards(context, old.scale)
        var focus = min(card, max(0, next.list.count - 1))
        if let photo = band.currentPhoto(context), let index = context.photos.index(of: photo) {
            focus = next.card(containing: index)
        } else if old.names.indices.contains(card), let same = next.names.firstIndex(of: old.names[card]) {
            focus = same
        }
        band.setCards(next, focus: focus, context)
        return true
    }

    func relayout(_ context: ViewContext) {
        // Dates read since: the periods themselves may have changed.
        if band.cards != nil { _ = listChanged(context) } else { band.relayout(context) }
    }

    func hint(_ context: ViewContext) -> String? { band.hint(context) }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        switch key {
        case .character("Q"): return .taken(.quit)
        case .character("q"), .escape: return .taken([.close(self)] + (band.currentPhoto(context).map { [.focus($0)] } ?? []))
        case .character("-"), .character("_"):
            guard let outward = scale.outward else { return .taken(.notice("years: as far out as it goes")) }
            zoom(to: outward, focus: firstPhoto(context), context)
        case .character("+"), .character("="), .enter, .character("z"):
            let photo = firstPhoto(context)
            guard let inward = scale.inward else { return .taken([.close(self)] + (photo.map { [.focus($0)] } ?? [])) }
            zoom(to: inward, focus: photo, context)
        // What changes the grid's columns, order or sections has no meaning here.
        case .character(let c) where ("1"..."6").contains(c) || ["a", "s", "r", "S", "."].contains(c):
            return .taken(.notice(scale.rawValue + ": + or q goes back to the grid"))
        case .character(let c) where band.cards != nil && TimeView.photoKeys.contains(c):
            let period = scale == .years ? "year" : "month"
            return .taken(.notice("\(c) acts on photos, not on a \(period): + opens the \(period), q the grid"))
        default: return band.handle(key, context)
        }
        return .taken(.clearScreen)
    }

    /// The first photo of the day, month or year in focus.
    func firstPhoto(_ context: ViewContext) -> PhotoID? {
        let ids = context.photos.ids
        if let cards = band.cards {
            let card = band.position.focus
            return cards.starts.indices.contains(card) && ids.indices.contains(cards.starts[card]) ? ids[cards.starts[card]] : nil
        }
        let first = firstOfGroup(band.position.focus, context)
        return ids.indices.contains(first) ? ids[first] : nil
    }

    /// The first photo of the day the photo at `index` is in.
    func firstOfGroup(_ index: Int, _ context: ViewContext) -> Int {
        guard let names = band.groupNames(context), index < names.count else { return index }
        var first = index
        while first > 0 && names[first - 1] == names[index] { first -= 1 }
        return first
    }

    private func zoom(to next: TimeScale, focus: PhotoID?, _ context: ViewContext) {
        band = TimeView.band(context, scale: next, focus: focus)
    }
}
