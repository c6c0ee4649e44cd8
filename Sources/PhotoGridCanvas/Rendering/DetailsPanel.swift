import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The details panel (`i`): a box of label and value lines drawn over the top right of the view,
/// on a dark background, with the map link as an OSC 8 hyperlink. Every value comes from a file
/// and is sanitized and clipped here, so no field can reach the terminal as a control sequence.
package struct DetailsPanel: Sendable {
    package struct Row: Sendable, Equatable {
        package var label: String
        package var value: String
        /// Made a hyperlink (OSC 8) to this address, in terminals that support them.
        package var link: String?
        /// Shown whole over as many lines as it takes, cut anywhere (an address has no spaces to
        /// wrap at, and a cut one can be neither clicked nor copied).
        package var whole: Bool
        package init(_ label: String, _ value: String, link: String? = nil, whole: Bool = false) {
            self.label = label; self.value = value; self.link = link; self.whole = whole
        }
    }

    package var title: String
    package var rows: [Row]
    /// The first of the rows' lines shown, when they do not all fit (the key help scrolled).
    package var firstLine = 0

    package init(title: String, rows: [Row]) {
        self.title = title
        self.rows = rows
    }

    static let background = RGB(28, 28, 30)
    static let labelColour = RGB(150, 150, 155)
    static let valueColour = RGB(235, 235, 235)
    static let labelWidth = 10
    /// A caption may take this many lines; other values one.
    static let captionLines = 4

    /// The panel's width for a screen: at most 52 cells, never more than the screen.
    package static func width(forScreenColumns columns: Int) -> Int { max(0, min(52, columns)) }

    /// One line of bytes per row of cells, each exactly `width` cells wide.
    package func lines(width: Int, maxRows: Int, colors: HalfBlock.Colors) -> [[UInt8]] {
        guard width >= 12, maxRows >= 1 else { return [] }
        let bg = HalfBlock.sgr(DetailsPanel.background, foreground: false, colors: colors)
        let label = "\u{1B}[0;\(bg);\(HalfBlock.sgr(DetailsPanel.labelColour, foreground: true, colors: colors))m"
        let value = "\u{1B}[0;\(bg);\(HalfBlock.sgr(DetailsPanel.valueColour, foreground: true, colors: colors))m"
        let valueWidth = width - DetailsPanel.labelWidth - 2
        var body: [[UInt8]] = []
        for row in rows {
            let text = TerminalText.sanitize(row.value)
            let wrapped = row.whole ? DetailsPanel.cut(text, width: valueWidth)
                : DetailsPanel.wrap(text, width: valueWidth, lines: row.label == "caption" ? DetailsPanel.captionLines : 1)
            for (i, text) in wrapped.enumerated() {
                let name = i == 0 ? row.label : ""
                var line = label + " " + DetailsPanel.pad(TerminalText.clip(name, to: DetailsPanel.labelWidth), to: DetailsPanel.labelWidth) + " "
                let shown = DetailsPanel.pad(text, to: valueWidth)
                if let link = row.link, let safe = DetailsPanel.safeURL(link) {
                    line += value + "\u{1B}]8;;\(safe)\u{1B}\\" + shown + "\u{1B}]8;;\u{1B}\\"
                } else {
                    line += value + shown
                }
                body.append(Array((line + "\u{1B}[0m").utf8))
            }
        }
        body.append(Array((label + String(repeating: " ", count: width) + "\u{1B}[0m").utf8))
        // What does not fit is scrolled to, the title saying which lines are shown.
        var heading = title, shown = body[...]
        if body.count > maxRows - 1 {
            let first = DetailsPanel.clamp(firstLine, lines: body.count, visible: maxRows - 1)
            shown = body[first..<first + maxRows - 1]
            heading = "\(first + 1)-\(first + maxRows - 1) of \(body.count)  " + heading
        }
        let top = Array(("\u{1B}[0;7m" + DetailsPanel.pad(" " + TerminalText.clip(heading, to: width - 2), to: width) + "\u{1B}[0m").utf8)
        return [top] + shown
    }

    /// How many lines the rows take at `width`, the blank one after them included.
    package func lineCount(width: Int) -> Int {
        let valueWidth = width - DetailsPanel.labelWidth - 2
        guard valueWidth > 0 else { return 0 }
        return rows.reduce(1) { count, row in
            count + (row.whole ? DetailsPanel.cut(TerminalText.sanitize(row.value), width: valueWidth).count
                : DetailsPanel.wrap(TerminalText.sanitize(row.value), width: valueWidth, lines: row.label == "caption" ? DetailsPanel.captionLines : 1).count)
        }
    }

    /// A first line that leaves no blank below the last one.
    package static func clamp(_ first: Int, lines: Int, visible: Int) -> Int {
        max(0, min(first, lines - max(1, visible)))
    }

    /// `text` padded with spaces to `width` cells.
    static func pad(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - TerminalText.width(text)))
    }

    /// Words of `text` in lines of at most `width` cells, at most `lines` of them, the last
    /// clipped with an ellipsis when there is more.
    static func wrap(_ text: String, width: Int, lines: Int) -> [String] {
        guard width > 0 else { return [] }
        var result: [String] = []
        var current = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: true).map(String.init) {
            let candidate = current.isEmpty ? word : current + " " + word
            if TerminalText.width(candidate) <= width { current = candidate; continue }
            if !current.isEmpty { result.append(current) }
            current = word
        }
        if !current.isEmpty { result.append(current) }
        if result.isEmpty { return [""] }
        if result.count > lines {
            result = Array(result.prefix(lines))
            result[lines - 1] = TerminalText.clip(result[lines - 1] + " ~", to: width)
        }
        return result.map { TerminalText.clip($0, to: width) }
    }

    /// `text` in pieces of `width` cells, cut between any two characters.
    static func cut(_ text: String, width: Int) -> [String] {
        guard width > 0 else { return [] }
        var result: [String] = [], current = ""
        for character in text {
            if TerminalText.width(current + String(character)) > width { result.append(current); current = "" }
            current.append(character)
        }
        return result + [current]
    }

    /// An address made only of characters that are safe inside OSC 8 (printable ASCII, no
    /// backslash or escape), else nil.
    static func safeURL(_ url: String) -> String? {
        url.unicodeScalars.allSatisfy { $0.value > 0x20 && $0.value < 0x7F && $0 != "\\" } ? url : nil
    }
}
