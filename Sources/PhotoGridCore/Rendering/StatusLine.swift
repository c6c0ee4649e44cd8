/// The status line's text for a screen width: every part and the key hints when they fit; on a
/// narrow screen the hints go first, then the parts a user can do without, most dispensable
/// first (the folder's name before the render mode before the column count), so that the file,
/// "N of M" and "loading" stay in sight. What still does not fit is cut. The last cell is left
/// blank: writing the bottom-right cell scrolls some terminals.
enum StatusLine {
    struct Part {
        var text: String
        /// 0: always kept; higher numbers are dropped sooner.
        var dropOrder: Int
        init(_ text: String, dropOrder: Int = 0) {
            self.text = text
            self.dropOrder = dropOrder
        }
    }

    static let separator = "  ·  "

    static func compose(_ parts: [Part], hint: String?, width: Int) -> String {
        var kept = parts.map { Part(TerminalText.sanitize($0.text), dropOrder: $0.dropOrder) }
        func left() -> String { " " + kept.map(\.text).joined(separator: separator) }
        if let hint {
            let gap = width - TerminalText.width(left()) - TerminalText.width(hint)
            if gap >= 2 { return left() + String(repeating: " ", count: gap) + hint }
        }
        while TerminalText.width(left()) > width - 1, let most = kept.map(\.dropOrder).max(), most > 0,
              let index = kept.lastIndex(where: { $0.dropOrder == most }) {
            kept.remove(at: index)
        }
        return TerminalText.clip(left(), to: width - 1)
    }
}
