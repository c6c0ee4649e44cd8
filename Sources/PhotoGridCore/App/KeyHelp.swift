import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What `?` shows: every key of the view it is pressed in, as a panel over the screen. The
/// README's key tables say the same at more length; a key added to `handle` belongs here too.
enum KeyHelp {
    static let grid: [DetailsPanel.Row] = [
        .init("h j k l", "move (arrows too)"),
        .init("PgDn PgUp", "a screen (Space b; ^D ^U: half)"),
        .init("g G", "first, last photo (Home End)"),
        .init("+ - 1-6", "fewer, more columns; that many"),
        .init("- at 6", "days, months, years (+ Enter: back in)"),
        .init("Enter z", "open the photo"),
        .init("a", "whole photos (fit) or squares (fill)"),
        .init("i", "details of the photo"),
        .init("/ n N", "find by name; next, previous match"),
        .init("s r", "sort: name, date, mtime, size; reverse"),
        .init("S { }", "sections: folder, day, month; jump"),
        .init(".", "show hidden files"),
        .init("m M c", "mark; all or none; compare 2-4 marked"),
        .init("o y", "open elsewhere; copy the path"),
        .init("e", "edit the caption (Enter saves)"),
        .init("R x", "rate: R then 1-5 (0 none); reject"),
        .init("L", "label: then r y g b p (0 none)"),
        .init("t", "keywords: a, b, -c (Tab completes)"),
        .init("f", "show 1-5 stars and up, x rejects, 0 all"),
        .init("\\", "filter: camera:x iso>=800 2021 label:red"),
        .init("d", "move to the trash (y asks)"),
        .init("C V", "copy, move to a folder (Tab completes)"),
        .init("[ ]", "turn left, right (JPEGs losslessly)"),
        .init("Tab", "open, close a stack of a burst ([5])"),
        .init("u", "undo the last trash, move or copy, then the one before"),
        .init("^R ^L", "read the folder again; redraw"),
        .init("Esc q", "close a panel, clear the search; quit"),
    ]

    static let zoom: [DetailsPanel.Row] = [
        .init("n p", "next, previous photo (also l h)"),
        .init("g G", "first, last photo"),
        .init("+ -", "zoom in, out (- at fit: the grid)"),
        .init("=", "whole photo"),
        .init("1-5 0 x", "stars; none; reject (in the sidecar)"),
        .init("d u", "move to the trash (y asks); undo the last change"),
        .init("C V", "copy, move the photo to a folder"),
        .init("[ ]", "turn left, right (JPEGs losslessly)"),
        .init("h j k l", "pan when zoomed in (arrows)"),
        .init("i", "details of the photo"),
        .init("m o y", "mark; open elsewhere; copy the path"),
        .init("c", "compare the 2-4 marked photos"),
        .init("v", "a RAW+JPEG pair: the raw file, the JPEG"),
        .init("e", "edit the caption (Enter saves)"),
        .init("s", "slideshow: start, stop (--slideshow N)"),
        .init("^R", "read the photo again"),
        .init("Esc q", "back to the grid (Q quits)"),
    ]

    static let compare: [DetailsPanel.Row] = [
        .init("Tab h l", "the next, previous photo (at fit)"),
        .init("j k", "the photo above, below (four)"),
        .init("+ - =", "zoom all in, out; whole photos"),
        .init("h j k l", "pan all when zoomed in (arrows)"),
        .init("1-5 0 x", "stars; none; reject the one in focus"),
        .init("m i", "mark; details of the one in focus"),
        .init("Enter", "the one in focus alone"),
        .init("Esc q", "back (Q quits)"),
    ]

    static let time: [DetailsPanel.Row] = [
        .init("h j k l", "move (arrows too)"),
        .init("{ }", "previous, next day, month or year"),
        .init("-", "out: days, months, years"),
        .init("+ Enter", "back in: months, days, the grid"),
        .init("R x m L", "rate, reject, mark, label the photo in focus"),
        .init("Esc q", "back to the grid on the photo (Q quits)"),
    ]

    /// The months and years: a card a period.
    static let cards: [DetailsPanel.Row] = [
        .init("h j k l", "move between cards (arrows too)"),
        .init("{ } g G", "a screen back, on; first, last"),
        .init("-", "out: the years"),
        .init("+ Enter", "in: the months, the days, at the card's first photo"),
        .init("R x L t m M d e o i c y", "act on photos: refused on a card (+ opens it)"),
        .init("Esc q", "back to the grid on the card's photo (Q quits)"),
    ]

    /// The keys of the screen `?` is pressed over.
    static func panel(for screen: ScreenView) -> DetailsPanel {
        switch screen {
        case let time as TimeView:
            return DetailsPanel(title: "Keys of the \(time.scale.rawValue)  (Esc closes)", rows: time.scale == .days ? KeyHelp.time : KeyHelp.cards)
        case is CompareView: return DetailsPanel(title: "Keys of compare  (Esc closes)", rows: KeyHelp.compare)
        case is PhotoView: return DetailsPanel(title: "Keys of the photo view  (Esc closes)", rows: KeyHelp.zoom)
        default: return DetailsPanel(title: "Keys of the grid  (Esc closes)", rows: KeyHelp.grid)
        }
    }
}
