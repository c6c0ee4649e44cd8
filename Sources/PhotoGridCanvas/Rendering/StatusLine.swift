import PhotoGridModel
import PhotoGridSystem

/// The status line's text for a screen width: every part and the key hints when they fit; on a
/// narrower screen the folder's name makes room for the hints, then they give way to a shorter
/// hint, then to none, then the other parts a user can do without, most dispensable first (the folder's name
/// before the render mode before the column count), so that the file, "N of M" and "loading"
/// stay in sight. What still does not fit is cut. The last cell is left
/// blank: writing the bottom-right cell scrolls some terminals.
package enum StatusLine {
    package struct Part {
        package var text: String
        /// 0: always kept; higher numbers are dropped sooner.
        package var dropOrder: Int
        package init(_ text: String, dropOrder: Int = 0) {
            self.text = text
            self.dropOrder = dropOrder
        }
    }

    static let separator = "  ·  "

    package static func compose(_ parts: [Part], hint: String?, shortHint: String? = nil, width: Int) -> String {
        var kept = parts.map { Part(TerminalText.sanitize($0.text), dropOrder: $0.dropOrder) }
        func left() -> String { " " + kept.map(\.text).joined(separator: separator) }
        // The keys matter more than the folder's name: it goes first to make room for them,
        // then the hint gives way to a shorter one, then to nothing.
        for candidate in [hint, shortHint].compactMap({ $0 }) {
            var trimmed = kept
            while true {
                let text = " " + trimmed.map(\.text).joined(separator: separator)
                let gap = width - TerminalText.width(text) - TerminalText.width(candidate)
                if gap >= 2 { return text + String(repeating: " ", count: gap) + candidate }
                guard let index = trimmed.lastIndex(where: { $0.dropOrder >= 3 }) else { break }
                trimmed.remove(at: index)
            }
        }
        while TerminalText.width(left()) > width - 1, let most = kept.map(\.dropOrder).max(), most > 0,
              let index = kept.lastIndex(where: { $0.dropOrder == most }) {
            kept.remove(at: index)
        }
        return TerminalText.clip(left(), to: width - 1)
    }
}
