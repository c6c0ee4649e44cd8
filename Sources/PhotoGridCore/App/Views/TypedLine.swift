import PhotoGridTerminal

/// Text typed on the status line (a caption, a filter), edited as readline and the shells do:
/// Backspace takes a whole character, Ctrl-U clears the line, Ctrl-W the last word. Bytes, since
/// a character outside ASCII comes one byte at a time.
struct TypedLine {
    var bytes: [UInt8]

    /// Applies an editing key or a typed one; `fits` says whether the longer text may be kept.
    /// False for a key that is not typing (the view's own: Enter, Esc...).
    @discardableResult
    mutating func take(_ key: Key, fits: ([UInt8]) -> Bool) -> Bool {
        switch key {
        case .backspace: while let last = bytes.popLast(), last & 0xC0 == 0x80 {}
        case .control("u"): bytes = []
        case .control("w"):
            while bytes.last == UInt8(ascii: " ") { bytes.removeLast() }
            while let last = bytes.last, last != UInt8(ascii: " ") { bytes.removeLast() }
        case .character(let c): add(Array(String(c).utf8), fits)
        case .byte(let b): add([b], fits)
        default: return false
        }
        return true
    }

    private mutating func add(_ typed: [UInt8], _ fits: ([UInt8]) -> Bool) {
        if fits(bytes + typed) { bytes += typed }
    }

    var text: String { String(decoding: bytes, as: UTF8.self) }

    /// The line as a prompt shows it: its end, where the typing is, when it is longer than `room`.
    func shown(room: Int) -> String {
        text.count > room ? "~" + String(text.suffix(room - 1)) : text
    }
}
