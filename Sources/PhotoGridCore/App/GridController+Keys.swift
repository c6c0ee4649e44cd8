import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Keys go down the view stack: the top layer first (the help keeps its keys; a prompt takes
/// them all; the details panel takes Esc and `q`; a kept search its `n`, `N` and Esc), then the
/// top screen, the photo view or the grid, whose keys follow less, vim and the file managers.
/// What the view that took the key asks for is applied (`apply`). `q` quits only from the bare
/// grid.
extension GridController {
    /// What a key asks of the event loop beyond changing the state.
    package enum KeyEffect: Equatable { case none, quit, resize, play(PhotoSource) }

    @discardableResult
    package func handle(_ key: Key) -> KeyEffect {
        budgetNotice.keyPressed(now: clock.now())
        startHint = nil
        notice = nil
        if key == .resize { return .resize }
        keyPressed = true
        let context = self.context
        // A key the config file binds stands for its action's key, but not while something is
        // typed (a caption, a filter) or answered (R's stars): there a key is itself.
        var key = key
        if let bound = settings.bindings[key], layers.last?.prompt(context) == nil { key = bound }
        for layer in layers.reversed() {
            if case .taken(let actions) = layer.handle(key, context) { return apply(actions) }
        }
        if case .taken(let actions) = topScreen.handle(key, context) { return apply(actions) }
        return .none
    }
}

/// Views opened and closed.
extension GridController {
    /// Opens the photo view on a photo, over whatever screen is on top.
    func openPhoto(_ photo: PhotoID) {
        guard gallery.photos.contains(photo) else { return }
        screens.append(PhotoView(context, photo: photo))
        needsClear = true
    }

    /// Takes a view off the stack. A screen shows the one under it again: closing the photo view
    /// focuses its photo in the grid (when the grid is under it) and closes a details panel
    /// opened in it; compare and the photo view re-place what the terminal holds.
    func close(_ view: AppView) {
        if let screen = view as? ScreenView {
            let photo = screen.currentPhoto(context)
            if screen is PhotoView { layers.removeAll { ($0 as? DetailsView)?.openedInPhotoView == true } }
            if screen is CompareView { layers.removeAll { $0 is DetailsView } }
            screens.removeAll { $0 === screen }
            needsClear = true
            if screens.isEmpty, !(screen is TimeView), let photo { grid.move(to: photo, context) }
            if screen is CompareView || topScreen is CompareView { pendingBytes += canvas.forgetAll() }
            return
        }
        layers.removeAll { $0 === view }
        if view is DetailsView || view is HelpView {
            needsClear = true
            drawnPanel = nil
        }
    }

    /// `i`: the details panel, opened or closed.
    func toggleDetails() {
        if let open = layers.first(where: { $0 is DetailsView }) {
            close(open)
        } else {
            layers.append(DetailsView(openedInPhotoView: photoView != nil))
            drawnPanel = nil
        }
    }

    /// `?`: the key help of the screen on top, over everything.
    func openHelp() {
        layers.append(HelpView(panel: KeyHelp.panel(for: topScreen)))
        drawnPanel = nil
    }

    /// `/`: a new search, in place of a kept one.
    func startSearch() {
        layers.removeAll { $0 is SearchView }
        layers.append(SearchView(origin: grid.position.focus))
    }

    /// `e`: starts editing the caption of the photo in view, or says why it cannot be.
    func startCaptionEdit() {
        guard let id = topScreen.currentPhoto(context) else { return }
        let photo = session.table[id]
        if settings.readOnly { notice = "read-only (--read-only): captions are not saved"; return }
        guard let file = photo.file else { notice = "captions can be edited in a local folder only"; return }
        let sidecar = Sidecar.of(file)
        if let problem = sidecar.checkWritable() { notice = sidecar.message(problem); return }
        // The sidecar's caption, else the photo's own (read now if the pipeline has not yet), as
        // the text to edit: a caption is never started from nothing when there is one.
        let current = sidecar.caption() ?? (session.pipeline.info(id) ?? PhotoDecoder.readInfo(photo))?.caption ?? ""
        layers.append(CaptionView(edit: CaptionEdit(text: Array(current.utf8), original: Array(current.utf8), photo: file)))
    }

    /// `c`: the marked photos side by side, when two to four are marked.
    func openCompare() {
        let chosen = gallery.photos.ids.filter { gallery.marked.contains($0) }
        guard CompareView.photoRange.contains(chosen.count) else {
            notice = "compare: mark 2 to 4 photos first (m); \(chosen.count) marked"
            return
        }
        screens.append(CompareView(context, photos: chosen))
        needsClear = true
        pendingBytes += canvas.forgetAll()
    }

    /// `-` at 6 columns: the months. The photos are put in the date order first; while their
    /// dates are read the status line says how far it has got, and the months come when they are.
    func openTime(_ scale: TimeScale) {
        guard gallery.readers.changes else { notice = "no months view here"; return }
        // At once, on estimated dates where the dates taken are not read yet (`reorder`).
        if gallery.order?.key != .date { reorder(PhotoOrder(.date)) }
        screens.append(TimeView(context, scale: scale, focus: grid.currentPhoto(context)))
        needsClear = true
    }

    /// What a panel shows changed (a caption saved): it is written again.
    func panelChanged() { drawnPanel = nil }

    /// Whether the details panel is open (the grid then asks for the focused photo's details).
    var detailsOpen: Bool { layers.contains { $0 is DetailsView } }
}
