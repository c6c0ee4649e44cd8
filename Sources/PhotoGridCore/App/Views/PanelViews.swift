import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// The details panel (`i`): what the photo in view says about itself, over the top right of the
/// screen. Esc and `q` close it; it closes with the photo view when it was opened there.
final class DetailsView: AppView {
    /// Opened in the photo view: it closes with it.
    let openedInPhotoView: Bool

    init(openedInPhotoView: Bool) { self.openedInPhotoView = openedInPhotoView }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        guard key == .escape || key == .character("q") else { return .passed }
        return .taken(.close(self))
    }

    func hint(_ context: ViewContext) -> String? { "i/Esc close  ? keys " }
}

/// The key help (`?`), over the screen and over the details panel. It scrolls when it does not
/// fit (`j` `k`, the arrows, PgDn PgUp Space `b`, `g` `G`, as in less); Esc, `q` and `?` close
/// it, and no key reaches the view under it while it is open.
final class HelpView: AppView {
    /// The keys of the screen it was opened over.
    let panel: DetailsPanel
    /// The first of its lines shown.
    private(set) var first = 0

    init(panel: DetailsPanel) { self.panel = panel }

    func handle(_ key: Key, _ context: ViewContext) -> KeyOutcome {
        let visible = max(1, context.areaRows - 1)
        let lines = panel.lineCount(width: DetailsPanel.width(forScreenColumns: context.screen.columns))
        switch key {
        case .escape, .character("q"), .character("?"): return .taken(.close(self))
        // The screen's own business: drawn again, with the help still over it.
        case .control("l"): return .passed
        case .down, .character("j"), .enter, .control("n"), .control("e"): first += 1
        case .up, .character("k"), .control("p"), .control("y"): first -= 1
        case .pageDown, .character(" "), .control("f"), .character("f"): first += visible
        case .pageUp, .character("b"), .control("b"): first -= visible
        case .control("d"), .character("d"): first += visible / 2
        case .control("u"), .character("u"): first -= visible / 2
        case .home, .character("g"): first = 0
        case .end, .character("G"): first = lines
        default: return .done
        }
        first = DetailsPanel.clamp(first, lines: lines, visible: visible)
        return .taken(.panelChanged)
    }

    func hint(_ context: ViewContext) -> String? {
        let lines = panel.lineCount(width: DetailsPanel.width(forScreenColumns: context.screen.columns))
        return lines > context.areaRows - 1 ? "j k PgDn scroll  Esc close " : "Esc close "
    }

    /// The panel as shown, scrolled.
    var shown: DetailsPanel {
        var panel = panel
        panel.firstLine = first
        return panel
    }
}
