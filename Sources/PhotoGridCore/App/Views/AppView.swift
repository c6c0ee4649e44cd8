import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// One screen or panel of the app on the view stack (the grid, the photo view, the details and
/// help panels, the search and caption prompts): it owns its state, its keys and its part of the
/// frame. The controller hands each key to the top view, which takes it or passes it to the view
/// below (`KeyOutcome`), and composes the frame from the views: the topmost screen (grid or photo
/// view) draws, panels go over it, prompts lead the status line and the top view's hint ends it.
protocol AppView: AnyObject {
    /// A key: taken (with what it asks of the event loop) or passed down.
    func handle(_ key: Key) -> KeyOutcome
    /// What it puts first on the status line (a prompt being typed), if anything.
    var prompt: String? { get }
    /// The keys that matter while it is on top, at the right of the status line.
    var hint: String? { get }
}

extension AppView {
    var prompt: String? { nil }
    var hint: String? { nil }
}

/// A view's answer to a key.
enum KeyOutcome: Equatable {
    case taken(GridController.KeyEffect)
    case passed

    static let done = KeyOutcome.taken(.none)
}

/// A view that fills the screen with photos: the grid, or the photo view over it.
protocol ScreenView: AppView {
    /// The frame of what it shows, with the status line's words (without the prompts).
    func frame(clear: Bool) -> GridController.Frame
    /// The photo the panels and the acting keys (`m`, `o`, `y`, `e`, `i`) are about.
    var currentPhoto: Int { get }
}
