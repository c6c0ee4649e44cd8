/// Acting on photos, as nsxiv does: marks (`m`, `M`), the paths for the shell (`-o`, printed at
/// quit), another program (`o`), and the clipboard (`y`, OSC 52). Marks go by path, so a new order
/// or a rescan keeps them.
extension GridController {
    /// `m`: marks the focused photo, or unmarks it.
    func toggleMark() { toggleMarkOf(position.focus) }

    func toggleMarkOf(_ photo: Int) {
        guard session.photos.indices.contains(photo) else { return }
        let path = session.photos[photo].path
        if marked.remove(path) == nil { marked.insert(path) }
        notice = marked.contains(path) ? "marked" : "unmarked"
    }

    /// `M`: marks every photo, or none when all are marked.
    func toggleMarkAll() {
        let all = Set(session.photos.map(\.path))
        marked = marked.isSuperset(of: all) ? [] : all
    }

    /// The marked photos in the grid's order, else the focused one: what `-o` prints and `o` opens.
    package var chosenPaths: [RawPath] {
        let inOrder = session.photos.map(\.path).filter { marked.contains($0) }
        if !inOrder.isEmpty { return inOrder }
        let photo = zoom?.photo ?? position.focus
        return session.photos.indices.contains(photo) ? [session.photos[photo].path] : []
    }

    /// `o`: the chosen photos in another program (`Opener`).
    func openElsewhere() {
        let paths = chosenPaths
        if let failure = Opener.open(paths, environment: PhotoGrid.environment(["PHOTOGRID_OPENER", "PATH"])) {
            notice = failure
        } else {
            notice = paths.count == 1 ? "opened " + paths[0].lastComponent.description : "opened \(paths.count) photos"
        }
    }

    /// `y`: the focused photo's path to the clipboard, through the terminal (OSC 52; tmux passes
    /// it on with `set-clipboard on`, its default in recent versions).
    func copyPath() {
        let photo = zoom?.photo ?? position.focus
        guard session.photos.indices.contains(photo) else { return }
        let path = session.photos[photo].path
        pendingBytes += Array("\u{1B}]52;c;".utf8) + Base64.encode(path.bytes) + [0x07]
        notice = "copied the path of " + path.lastComponent.description
    }
}
