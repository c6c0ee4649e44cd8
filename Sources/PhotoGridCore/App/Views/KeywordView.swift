import PhotoGridModel
import PhotoGridTerminal

/// `t` (tag): keywords typed on the status line for the marked photos, else the focused one,
/// separated by commas (a keyword may hold spaces: "new york"); `-` before one takes it off.
/// Tab completes the keyword being typed from those already in the folder or library (the
/// longest start they share; the prompt says how many there are). Enter saves, Esc leaves them.
final class KeywordView: AppView {
    private(set) var line = TypedLine(bytes: [])
    let photos: [PhotoID]
    /// Keywords known in the gallery, for Tab.
    let known: [String]
    private var matches = 0

    init(photos: [PhotoID], known: [String]) {
        self.photos = photos
        self.known = known
    }

    /// What a line asks: keywords to add and to take off, each once, in the order typed.
    static func parse(_ text: String) -> (adding: [String], removing: [String]) {
        var adding: [String] = [], removing: [String] = []
        for part in text.split(separator: ",") {
            var word = String(part).trimmingWhitespace
            let off = word.hasPrefix("-")
            if off { word = String(word.dropFirst()).trimmingWhitespace }
            guard !word.isEmpty else { continue }
            if off {
                if !removing.contains(word) { removing.append(word) }
            } else if !adding.contains(word) {
                adding.append(word)
            }
        }
        return (adding, removing)
    }

    /// The line with its last keyword completed as far as the known ones that start with it
    /// agree (case aside), and how many there are.
    static func complete(_ text: String, from known: [String]) -> (text: String, matches: Int) {
        let head = text.lastIndex(of: ",").map { text.index(after: $0) } ?? text.startIndex
        var typed = String(text[head...])
        let leading = String(typed.prefix { $0 == " " || $0 == "-" })
        typed = String(typed.dropFirst(leading.count))
        guard !typed.isEmpty else { return (text, 0) }
        let found = known.filter { $0.lowercased().hasPrefix(typed.lowercased()) }
        guard let first = found.first else { return (text, 0) }
        var common = first
        for other in found.dropFirst() {
            while !other.lowercased().hasPrefix(common.lowercased()) { common.removeLast() }
        }
        // One keyword: as it is written. Several: what was typed, and the rest they share.
        let completed = found.count == 1 ? first : typed + String(common.dropFirst(typed.count))
        return (String(text[..<head]) + leading + completed + (found.count == 1 ? ", " : ""), found.count)
    }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        switch key {
        case .escape: return .taken([.close(self), .notice("keywords not changed")])
        case .enter:
            let (adding, removing) = KeywordView.parse(line.text)
            guard !adding.isEmpty || !removing.isEmpty else { return .taken([.close(self), .notice("keywords not changed")]) }
            return .taken([.close(self), .setKeywords(photos, adding: adding, removing: removing)])
        case .control("i"):                 // Tab
            let (text, found) = KeywordView.complete(line.text, from: known)
            line = TypedLine(bytes: Array(text.utf8))
            matches = found
        default:
            line.take(key) { $0.count <= 2000 }
            matches = 0
        }
        return .done
    }

    func prompt(_ context: ViewContext) -> String? {
        let whose = photos.count > 1 ? "keywords for \(photos.count) marked photos" : "keywords"
        return whose + " (a, b, -c takes off): " + line.shown(room: max(10, context.screen.columns - 60)) + "_"
    }

    func hint(_ context: ViewContext) -> String? {
        (matches > 1 ? "\(matches) match  " : "") + "Tab complete  Enter save  Esc cancel "
    }
}
