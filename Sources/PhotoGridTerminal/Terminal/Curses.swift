import CNcursesw
import PhotoGridCanvas
import PhotoGridModel
import PhotoGridSystem

/// A key as the event loop sees it.
package enum MouseAction: Equatable, Sendable { case click, doubleClick, wheelUp, wheelDown }

package enum Key: Equatable, Sendable {
    case character(Character)
    case control(Character)          // Ctrl-A ... Ctrl-Z as their letter
    case up, down, left, right, pageUp, pageDown, home, end, enter, escape, backspace
    /// A byte of a character outside ASCII (UTF-8), for typed text: the search puts them together.
    case byte(UInt8)
    /// A click, a double click or a turn of the wheel, at a cell (0-based).
    case mouse(MouseAction, column: Int, row: Int)
    case resize
}

/// ncurses: the only Swift file that calls it. It owns the screen modes (alternate screen,
/// echo, cursor), decodes keys through terminfo and draws the text rows. Images are written
/// beside it (see `Screen`), never through it.
package final class Curses {
    package struct StartError: Error, CustomStringConvertible {
        package let description: String
    }

    private var screen: OpaquePointer?
    private var ended = false

    /// Starts curses on stdin/stdout: cbreak, no echo, keypad keys, non-blocking reads, no cursor.
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
        keypad(pg_stdscr(), true)
        nodelay(pg_stdscr(), true)
        leaveok(pg_stdscr(), true)
        idlok(pg_stdscr(), false)
        scrollok(pg_stdscr(), false)
        set_escdelay(25)
        curs_set(0)
        if has_colors() {
            start_color()
            use_default_colors()
        }
    }

    deinit { end() }

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

    /// The next key, or nil when none is waiting.
    package func readKey() -> Key? {
        // Codes photogrid has no use for (a mouse button let go, a function key) are skipped, not
        // taken for the end of input: keys ncurses has already read would wait for the next poll.
        while true {
            let code = wgetch(pg_stdscr())
            if code == ERR { return nil }
            if let key = decode(code) { return key }
        }
    }

    private func decode(_ code: Int32) -> Key? {
        switch code {
        case KEY_UP: return .up
        case KEY_DOWN: return .down
        case KEY_LEFT: return .left
        case KEY_RIGHT: return .right
        case KEY_PPAGE: return .pageUp
        case KEY_NPAGE: return .pageDown
        case KEY_HOME: return .home
        case KEY_END: return .end
        case KEY_ENTER, 10, 13: return .enter
        case KEY_BACKSPACE, 127, 8: return .backspace
        case KEY_RESIZE: return .resize
        case KEY_MOUSE:
            var x: Int32 = 0, y: Int32 = 0
            let actions: [Int32: MouseAction] = [1: .click, 2: .doubleClick, 3: .wheelUp, 4: .wheelDown]
            guard let action = actions[pg_mouse_event(&x, &y)] else { return nil }
            return .mouse(action, column: Int(x), row: Int(y))
        case 27: return .escape
        case 1...26: return .control(Character(UnicodeScalar(UInt8(code) + 96)))
        case 32...126: return .character(Character(UnicodeScalar(UInt8(code))))
        case 128...255: return .byte(UInt8(code))
        default: return nil
        }
    }

    /// Gives the terminal to another program for a while (a video player): its modes as the
    /// shell had them, the normal screen.
    package func suspend() {
        def_prog_mode()
        endwin()
    }

    /// Takes the terminal back after `suspend`: photogrid's modes, the alternate screen, the
    /// mouse, and a full repaint to come.
    package func resume() {
        reset_prog_mode()
        pg_mouse_on()
        clearAll()
        refresh()
    }

    /// Asks the terminal for mouse reports (ncurses writes the sequences, and takes them back at `end`).
    package func enableMouse() { pg_mouse_on() }

    /// What turns mouse reports off, for a crash's reset: the modes ncurses may have turned on.
    package static let mouseOff = Array("\u{1B}[?1006l\u{1B}[?1002l\u{1B}[?1000l".utf8)

    /// Puts bytes back to be read as keys (typed while the probe was reading replies).
    package func unread(_ bytes: [UInt8]) {
        for byte in bytes.reversed() { ungetch(Int32(byte)) }
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
