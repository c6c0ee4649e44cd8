import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// How the painters make cells plain again: erased, and where the terminal keeps a picture
/// under erased cells, hidden.
///
/// xterm, mlterm, foot and WezTerm take a sixel picture off every cell that text is written or
/// erased over. Konsole (22.12) keeps it under the text, whatever is written there, and draws a
/// cell's background over it only where that background is not the default colour
/// (`TerminalPainter::drawBelowText`); only clearing the screen or another picture over the
/// same cells removes it. So where the terminal said what its background is (OSC 11) and takes
/// 24-bit colour, plain cells are written with that colour one step off in blue: the same to
/// the eye, and not the default, so any picture under them stays hidden. Every other terminal
/// gets the default background, as before.
package struct Blanking: Equatable, Sendable {
    /// The background plain cells are written with; nil for the terminal's default.
    package var background: RGB?

    package init(background: RGB? = nil) { self.background = background }

    /// For a terminal whose default background is `reported` (OSC 11), in 24-bit colour.
    package static func hiding(under reported: RGB?, trueColor: Bool) -> Blanking {
        guard let reported, trueColor else { return Blanking() }
        return Blanking(background: RGB(reported.r, reported.g, reported.b < 255 ? reported.b + 1 : 254))
    }

    /// Plain cells hide what lies under them (a background of our own).
    package var hides: Bool { background != nil }

    /// The SGR that starts plain text: the default colours, or the hiding background.
    package var plain: String {
        background.map { "\u{1B}[0;48;2;\($0.r);\($0.g);\($0.b)m" } ?? "\u{1B}[0m"
    }

    /// `count` cells from the cursor made plain (ECH, which leaves the cursor where it is).
    package func erase(_ count: Int) -> [UInt8] {
        Array((plain + "\u{1B}[\(max(1, count))X\u{1B}[0m").utf8)
    }

    /// Text in plain cells, bold where asked (section headers).
    package func text(_ text: String, bold: Bool = false) -> [UInt8] {
        Array((plain + (bold ? "\u{1B}[1m" : "") + text + "\u{1B}[0m").utf8)
    }
}
