import PhotoGridModel
import PhotoGridSystem

/// Text from files (names, captions) made safe to show: it must never reach the terminal as a
/// control sequence, and must fit the cells it is given.
package enum TerminalText {
    /// Control characters (C0, DEL, C1) become U+FFFD-free visible stand-ins (`^[`, `\u{9B}` as
    /// `<9B>`), and bidi overrides and isolates become `?`, so that no text can move the cursor,
    /// start an escape sequence or reorder what follows it.
    package static func sanitize(_ text: String) -> String {
        var out = ""
        out.unicodeScalars.reserveCapacity(text.unicodeScalars.count)
        for scalar in text.unicodeScalars {
            let v = scalar.value
            if v < 0x20 || v == 0x7F {
                out += "^" + String(UnicodeScalar(UInt8(v ^ 0x40)))
            } else if (0x80...0x9F).contains(v) {
                out += "<" + String(v, radix: 16, uppercase: true) + ">"
            } else if (0x202A...0x202E).contains(v) || (0x2066...0x2069).contains(v) || v == 0x200E || v == 0x200F
                        || v == 0x061C || v == 0xFEFF {
                out += "?"
            } else {
                out.unicodeScalars.append(scalar)
            }
        }
        return out
    }

    /// Sanitized and cut to `columns` terminal cells, ending in `~` when cut: the mark lf and
    /// ranger use, and one every font has (xterm's default fonts are Latin-1 and have no `…`).
    package static func clip(_ text: String, to columns: Int) -> String {
        guard columns > 0 else { return "" }
        let safe = sanitize(text)
        if width(safe) <= columns { return safe }
        var out = "", used = 0
        for character in safe {
            let w = width(String(character))
            if used + w > columns - 1 { break }
            out.append(character); used += w
        }
        return out + "~"
    }

    /// Cells a string takes: wide East Asian and emoji count two, combining marks none.
    package static func width(_ text: String) -> Int {
        text.unicodeScalars.reduce(0) { $0 + scalarWidth($1.value) }
    }

    static func scalarWidth(_ v: UInt32) -> Int {
        if v == 0 { return 0 }
        if (0x300...0x36F).contains(v) || (0x200B...0x200D).contains(v) || (0xFE00...0xFE0F).contains(v) { return 0 }
        if (0x1100...0x115F).contains(v) || (0x2E80...0xA4CF).contains(v) || (0xAC00...0xD7A3).contains(v)
            || (0xF900...0xFAFF).contains(v) || (0xFE30...0xFE4F).contains(v) || (0xFF00...0xFF60).contains(v)
            || (0xFFE0...0xFFE6).contains(v) || (0x1F300...0x1F64F).contains(v) || (0x1F900...0x1F9FF).contains(v)
            || (0x20000...0x3FFFD).contains(v) { return 2 }
        return 1
    }
}
