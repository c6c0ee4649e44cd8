/// A mouse action the views take: photogrid asks for button presses and the wheel only.
package enum MouseAction: Hashable, Sendable { case click, doubleClick, wheelUp, wheelDown }

/// A key as the event loop sees it, decoded whole from what the terminal sent (`KeyDecoder`).
package enum Key: Hashable, Sendable {
    case character(Character)
    case control(Character)          // Ctrl-A ... Ctrl-Z as their letter
    case up, down, left, right, pageUp, pageDown, home, end, enter, escape, backspace
    /// A byte of a character outside ASCII (UTF-8), for typed text: the search puts them together.
    case byte(UInt8)
    /// A click, a double click or a turn of the wheel, at a cell (0-based).
    case mouse(MouseAction, column: Int, row: Int)
    case resize
}
