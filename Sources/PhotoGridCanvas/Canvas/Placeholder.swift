import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The cells of a tile that has no picture (yet): a grey square, with a reason where it failed.
package enum Placeholder {
    static let background = RGB(44, 44, 46)
    static let text = RGB(190, 190, 190)

    /// `rows` lines of `width` cells; `lines` of text centred, sanitized and clipped.
    package static func cells(width: Int, rows: Int, lines: [String], colors: HalfBlock.Colors) -> [[UInt8]] {
        let colour = "\u{1B}[\(HalfBlock.sgr(text, foreground: true, colors: colors));\(HalfBlock.sgr(background, foreground: false, colors: colors))m"
        let shown = lines.prefix(rows).map { TerminalText.clip($0, to: width) }
        let first = max(0, (rows - shown.count) / 2)
        return (0..<rows).map { row in
            var text = ""
            if row >= first && row - first < shown.count { text = shown[row - first] }
            let used = TerminalText.width(text)
            let left = (width - used) / 2
            let line = String(repeating: " ", count: left) + text + String(repeating: " ", count: max(0, width - used - left))
            return Array((colour + line + "\u{1B}[0m").utf8)
        }
    }

    /// A failed tile's lines: the reason, wrapped at spaces onto as many lines as the tile has
    /// room for with the name below it ("unsupported format (PNG)" in a 20-cell tile would lose
    /// what it is about if cut), then the file name, cut to one line.
    package static func lines(reason: String, name: String, width: Int, rows: Int) -> [String] {
        guard rows > 1 else { return [reason] }
        return wrap(TerminalText.sanitize(reason), width: width, lines: min(3, rows - 1)) + [name]
    }

    /// Words onto lines of `width` cells, at most `lines` of them: the last line takes all that
    /// is left, and `cells` cuts it (`~`), as it cuts a word longer than a line.
    static func wrap(_ text: String, width: Int, lines: Int) -> [String] {
        var result: [String] = []
        var current = ""
        for word in text.split(separator: " ").map(String.init) {
            let joined = current.isEmpty ? word : current + " " + word
            if current.isEmpty || TerminalText.width(joined) <= width || result.count == lines - 1 {
                current = joined
            } else {
                result.append(current)
                current = word
            }
        }
        if !current.isEmpty { result.append(current) }
        return result
    }
}
