import CNcursesw
import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// ncurses: the only Swift file that calls it. It owns the screen modes (alternate screen,
/// echo, cursor) and draws the text rows. Images are written beside it (see `Screen`), never
/// through it; keys are read beside it too (`KeyReader`): ncurses' terminfo decoding passes
/// the sequences it does not know on byte by byte, so Alt+x would be Esc then `x`.
package final class Curses {
    package struct StartError: Error, CustomStringConvertible {
        package let description: String
    }

    private var screen: OpaquePointer?
    private var ended = false

    /// Starts curses on stdin/stdout: cbreak, no echo, no cursor; its own key reading unused.
    package init() throws(StartError) {
        // UTF-8 for the status line whatever LANG says: names are shown as UTF-8.
        ThisProcess.useUTF8Locale()
        guard let screen = newterm(nil, pg_stdout(), pg_stdin()) else {
            throw StartError(description: "cannot start the terminal (TERM=\(Environment.value("TERM") ?? "unset"))")
        }
        self.screen = screen
        set_term(screen)
        cbreak()
        noecho()
        nonl()
        leaveok(pg_stdscr(), true)
        idlok(pg_stdscr(), false)
        scrollok(pg_stdscr(), false)
        curs_set(0)
        if has_colors() {
            start_color()
            use_default_colors()
        }
    }

    deinit { end() }

    /// Why the grid cannot be drawn on the terminal `TERM` names, if it cannot: no `TERM`, one
    /// terminfo does not know, or one that cannot place the cursor (`dumb`, an editor's shell
    /// buffer). Asked before anything is written to the terminal, the probe's questions included.
    package static func cannotDraw(term: String?) -> String? {
        guard let term, !term.isEmpty else { return "TERM is not set" }
        var status: Int32 = 0
        guard setupterm(term, 1, &status) == OK else { return "TERM=\(term) is not a terminal this system's terminfo knows" }
        defer { pg_forget_terminfo() }
        for name in ["cup", "clear"] {
            guard let value = tigetstr(name), Int(bitPattern: value) != -1 else {
                return "TERM=\(term) cannot " + (name == "cup" ? "place the cursor" : "clear the screen")
            }
        }
        return nil
    }

    /// Gives the terminal back: normal screen, echo, cursor. Safe to call twice.
    package func end() {
        guard !ended else { return }
        ended = true
        curs_set(1)
        endwin()
        if let screen { delscreen(screen) }
        screen = nil
    }

    package var size: (columns: Int, rows: Int) { (Int(pg_cols()), Int(pg_lines())) }

    /// What undoes ncurses' hold on the terminal, from terminfo: leave the alternate screen,
    /// show the cursor, plain colours. For the crash handler, which cannot call ncurses.
    package func resetSequence() -> [UInt8] {
        var out: [UInt8] = []
        for name in ["sgr0", "cnorm", "rmcup", "rmkx"] {
            guard let value = tigetstr(name), Int(bitPattern: value) != -1 else { continue }
            out += cStringBytes(value)
        }
        return out
    }

    /// Tells ncurses the terminal's new size; it will repaint everything on the next refresh.
    package func resize(columns: Int, rows: Int) {
        resizeterm(Int32(rows), Int32(columns))
    }

    /// Gives the terminal to another program for a while (a video player): its modes as the
    /// shell had them, the normal screen.
    package func suspend() {
        def_prog_mode()
        endwin()
    }

    /// Takes the terminal back after `suspend`: photogrid's modes, the alternate screen, and a
    /// full repaint to come.
    package func resume() {
        reset_prog_mode()
        clearAll()
        refresh()
    }

    /// Writes `text` on `row` from column 0, padded to the width, in reverse video.
    package func drawBar(_ text: String, row: Int) {
        let width = size.columns
        let clipped = TerminalText.clip(text, to: width)
        let padded = clipped + String(repeating: " ", count: max(0, width - TerminalText.width(clipped)))
        wattr_on(pg_stdscr(), pg_attr_reverse(), nil)
        // The last cell of the last row is left alone: writing it scrolls some terminals.
        let cut = row == size.rows - 1 ? String(padded.prefix(max(0, width - 1))) : padded
        mvwaddstr(pg_stdscr(), Int32(row), 0, cut)
        wattr_off(pg_stdscr(), pg_attr_reverse(), nil)
    }

    /// Asks for a full repaint (after which every image must be drawn again).
    package func clearAll() {
        werase(pg_stdscr())
        clearok(pg_stdscr(), true)
    }

    /// Blanks ncurses' picture of the screen without a clear: it then writes only what differs
    /// from what it last wrote (where a clear would free the pictures a canvas keeps in the terminal).
    package func eraseAll() {
        werase(pg_stdscr())
    }

    /// Sends ncurses' changes to the terminal.
    package func refresh() {
        wnoutrefresh(pg_stdscr())
        doupdate()
    }
}
