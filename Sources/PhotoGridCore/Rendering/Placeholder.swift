/// The cells of a tile that has no picture (yet): a grey square, with a reason where it failed.
public enum Placeholder {
    static let background = RGB(44, 44, 46)
    static let text = RGB(190, 190, 190)

    /// `rows` lines of `width` cells; `lines` of text centred, sanitized and clipped.
    public static func cells(width: Int, rows: Int, lines: [String], colors: HalfBlock.Colors) -> [[UInt8]] {
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
}
