import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Acting on photos, as nsxiv does: marks (`m`, `M`), the paths for the shell (`-o`, printed at
/// quit), another program (`o`), and the clipboard (`y`, OSC 52). Marks go by the photo's file (or
/// address), so a new order or a rescan keeps them.
extension GridController {
    /// The marked photos in the grid's order, else the focused one, each followed by the raw file
    /// shown with it (`RawPairs`): what `-o` prints and `o` opens.
    package var chosen: [PhotoSource] {
        var ids = gallery.photos.ids.filter { marked.contains($0) }
        if ids.isEmpty { ids = topScreen.currentPhoto(context).map { [$0] } ?? [] }
        // A closed stack's tile is all its photos.
        if !(topScreen is PhotoView) { ids = expandingStacks(ids) }
        let inOrder = session.table.photos(ids).map(\.source)
        return inOrder.flatMap { [$0] + (gallery.raws[$0].map { [$0.source] } ?? []) }
    }

    /// `o`: the chosen photos in another program (`Opener`).
    func openElsewhere() {
        let photos = chosen
        if let failure = Opener.open(photos, environment: PhotoGrid.environment(["PHOTOGRID_OPENER", "PATH"])) {
            notice = failure
        } else {
            notice = photos.count == 1 ? "opened " + photos[0].lastComponent : "opened \(photos.count) photos"
        }
    }

    /// `y`: the focused photo's path to the clipboard, through the terminal (OSC 52), or inside
    /// tmux as tmux takes it (`TmuxClient.copy`): never "copied" where nothing was.
    func copyPath() {
        guard let photo = topScreen.currentPhoto(context) else { return }
        let source = session.table[photo].source
        let what = (source.file == nil ? "the address of " : "the path of ") + source.lastComponent
        if settings.insideTmux {
            switch TmuxClient.copy(source.bytes) {
            case .passesOn: break
            case .copied: notice = "copied " + what + " (tmux's buffer too)"; return
            case .off: notice = "not copied: tmux's set-clipboard is off (set -s set-clipboard external)"; return
            case .failed: notice = "not copied: tmux did not take it"; return
            }
        }
        pendingBytes += Array("\u{1B}]52;c;".utf8) + Base64.encode(source.bytes) + [0x07]
        notice = "copied " + what
    }
}
