import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The status line says once that the memory budget (`--cache-mb`) is too small for the screen,
/// when the pipeline first has to make tiles softer or leave them as previews: from then until
/// a key pressed at least three seconds later, and not again that run. It is a setting to
/// change, not a state to watch.
struct BudgetNotice {
    static let text = "memory budget too small for this screen: try a larger --cache-mb"
    static let shortestMilliseconds = 3000

    private var shownSince: Int?
    private var done = false

    var isShown: Bool { shownSince != nil }

    mutating func update(shortfalls: Int, now: Int) {
        if !done && shownSince == nil && shortfalls > 0 { shownSince = now }
    }

    mutating func keyPressed(now: Int) {
        guard let since = shownSince, now - since >= BudgetNotice.shortestMilliseconds else { return }
        shownSince = nil
        done = true
    }
}
