import PhotoGridMetadata
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

    package static let separator = "  ·  "

    /// The line for `width`: `parts` at the left, `notice` (a word after an action) after them,
    /// the key hint at the right. Which parts stay is decided without the notice, so that a
    /// notice coming and going never moves them; the hint gives way to it first, and only a
    /// notice that still does not fit drops parts. A part or notice that says what an earlier one
    /// already says is left out.
    package static func compose(_ parts: [Part], notice: String? = nil, hint: String?, shortHint: String? = nil, width: Int) -> String {
        var kept: [Part] = []
        for part in parts {
            let text = TerminalText.sanitize(part.text)
            if !text.isEmpty && !kept.contains(where: { $0.text == text }) { kept.append(Part(text, dropOrder: part.dropOrder)) }
        }
        var said = notice.map(TerminalText.sanitize)
        if let text = said, text.isEmpty || kept.contains(where: { $0.text == text }) { said = nil }
        func left(_ parts: [Part]) -> String {
            " " + (parts.map(\.text) + (said.map { [$0] } ?? [])).joined(separator: separator)
        }
        // The keys matter more than the folder's name: it goes first to make room for them,
        // then the hint gives way to a shorter one, then to nothing.
        var chosen: [Part]?
        for candidate in [hint, shortHint].compactMap({ $0 }) {
            var trimmed = kept
            while true {
                let text = " " + trimmed.map(\.text).joined(separator: separator)
                if width - TerminalText.width(text) - TerminalText.width(candidate) >= 2 { chosen = trimmed; break }
                guard let index = trimmed.lastIndex(where: { $0.dropOrder >= 3 }) else { break }
                trimmed.remove(at: index)
            }
            if chosen != nil { break }
        }
        kept = chosen ?? kept
        // With the notice in, the hint that still fits (the shorter one, or none).
        for candidate in [hint, shortHint].compactMap({ $0 }) {
            let text = left(kept)
            let gap = width - TerminalText.width(text) - TerminalText.width(candidate)
            if gap >= 2 { return text + String(repeating: " ", count: gap) + candidate }
        }
        while TerminalText.width(left(kept)) > width - 1, let most = kept.map(\.dropOrder).max(), most > 0,
              let index = kept.lastIndex(where: { $0.dropOrder == most }) {
            kept.remove(at: index)
        }
        return TerminalText.clip(left(kept), to: width - 1)
    }
}
