import PhotoGridCanvas
import PhotoGridModel
import PhotoGridSystem

/// What `?` shows: every key of the view it is pressed in, as a panel over the screen. The
/// README's key tables say the same at more length; a key added to `handle` belongs here too.
enum KeyHelp {
    static let grid: [DetailsPanel.Row] = [
        .init("h j k l", "move (arrows too)"),
        .init("PgDn Space", "next screen (PgUp b: back)"),
        .init("^D ^U", "half a screen down, up"),
        .init("g G", "first, last photo (Home End)"),
        .init("+ -", "fewer, more columns (1-6 too)"),
        .init("Enter z", "open the photo"),
        .init("a", "whole photos (fit) or squares (fill)"),
        .init("i", "details of the photo"),
        .init("/", "find by name (Enter keeps it)"),
        .init("n N", "next, previous match"),
        .init("s r", "sort: name, date, mtime, size; reverse"),
        .init("S", "sections: folder, day, month, none"),
        .init(".", "show hidden files"),
        .init("m M", "mark the photo; all or none"),
        .init("o y", "open elsewhere; copy the path"),
        .init("e", "edit the caption (Enter saves)"),
        .init("^R", "read the folder again"),
        .init("^L", "redraw"),
        .init("Esc", "close a panel, clear the search"),
        .init("q", "quit (closes a panel first)"),
    ]

    static let zoom: [DetailsPanel.Row] = [
        .init("n p", "next, previous photo (also l h)"),
        .init("g G", "first, last photo"),
        .init("+ -", "zoom in, out (- at fit: the grid)"),
        .init("0 =", "whole photo"),
        .init("h j k l", "pan when zoomed in (arrows)"),
        .init("i", "details of the photo"),
        .init("m o y", "mark; open elsewhere; copy the path"),
        .init("e", "edit the caption (Enter saves)"),
        .init("s", "slideshow: start, stop (--slideshow N)"),
        .init("^R", "read the photo again"),
        .init("Esc q", "back to the grid (Q quits)"),
    ]

    static func panel(zoom: Bool) -> DetailsPanel {
        DetailsPanel(title: zoom ? "Keys of the photo view  (Esc closes)" : "Keys of the grid  (Esc closes)",
                     rows: zoom ? KeyHelp.zoom : KeyHelp.grid)
    }
}
