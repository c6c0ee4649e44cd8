import PhotoGridCanvas
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// The details panel (`i`): what the photo in view says about itself, over the top right of the
/// screen. Esc and `q` close it; it closes with the photo view when it was opened there.
final class DetailsView: AppView {
    unowned let app: GridController
    /// Opened in the photo view: it closes with it.
    let openedInPhotoView: Bool

    init(app: GridController, openedInPhotoView: Bool) {
        self.app = app
        self.openedInPhotoView = openedInPhotoView
    }

    func handle(_ key: Key) -> KeyOutcome {
        guard key == .escape || key == .character("q") else { return .passed }
        app.close(self)
        return .done
    }

    var hint: String? { "i/Esc close  ? keys " }

    var panel: DetailsPanel { app.detailsPanel() }
}

/// The key help (`?`), over the screen and over the details panel. It scrolls when it does not
/// fit (`j` `k`, the arrows, PgDn PgUp Space `b`, `g` `G`, as in less); Esc, `q` and `?` close
/// it, and no key reaches the view under it while it is open.
final class HelpView: AppView {
    unowned let app: GridController
    /// The first of its lines shown.
    private var first = 0

    init(app: GridController) { self.app = app }

    func handle(_ key: Key) -> KeyOutcome {
        let visible = max(1, app.layout.areaRows - 1)
        let lines = KeyHelp.panel(for: app.topScreen).lineCount(width: DetailsPanel.width(forScreenColumns: app.screen.columns))
        switch key {
        case .escape, .character("q"), .character("?"):
            app.close(self)
            return .done
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
        app.panelChanged()
        return .done
    }

    var hint: String? {
        let lines = KeyHelp.panel(for: app.topScreen).lineCount(width: DetailsPanel.width(forScreenColumns: app.screen.columns))
        return lines > app.layout.areaRows - 1 ? "j k PgDn scroll  Esc close " : "Esc close "
    }

    var panel: DetailsPanel {
        var panel = KeyHelp.panel(for: app.topScreen)
        panel.firstLine = first
        return panel
    }
}
