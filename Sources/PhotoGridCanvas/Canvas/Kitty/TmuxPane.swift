import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Whether this process's tmux pane is on a terminal's screen: through tmux, kitty's pictures go
/// only while it is (`KittyTmuxCanvas`).
enum TmuxPane {
    /// Asks tmux, each time it is called, whether the pane named by `TMUX_PANE` is shown (shown
    /// when tmux does not answer); nil outside tmux.
    static func watchThisPane() -> (() -> Bool)? {
        guard let pane = Environment.value("TMUX_PANE"), !pane.isEmpty else { return nil }
        return { shown(pane) ?? true }
    }

    /// Whether tmux pane `pane` is on a terminal's screen now: its session attached to a
    /// client and its window the current one. nil when tmux does not answer within 200 ms.
    static func shown(_ pane: String) -> Bool? {
        let arguments = ["tmux", "display-message", "-p", "-t", pane, "#{window_active} #{session_attached}"]
        guard case .success(let output) = ChildProcess.output(arguments.map { Array($0.utf8) }, timeout: 200, limit: 4096) else { return nil }
        let fields = String(decoding: output, as: UTF8.self).split(whereSeparator: { $0 == " " || $0 == "\n" })
        guard fields.count >= 2 else { return nil }
        return fields[0] == "1" && (Int(fields[1]) ?? 0) > 0
    }
}
