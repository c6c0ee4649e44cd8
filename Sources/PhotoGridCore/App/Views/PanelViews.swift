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

/// The key help (`?`), over the screen and over the details panel: any key closes it, and a key
/// other than Esc, `q` and `?` then does what it does.
final class HelpView: AppView {
    unowned let app: GridController

    init(app: GridController) { self.app = app }

    func handle(_ key: Key) -> KeyOutcome {
        app.close(self)
        return [.escape, .character("q"), .character("?")].contains(key) ? .done : .passed
    }

    var hint: String? { "Esc close " }

    var panel: DetailsPanel { KeyHelp.panel(for: app.topScreen) }
}
