import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Keys go down the view stack: the top layer first (the help closes on any key and lets most
/// through; a prompt takes them all; the details panel takes Esc and `q`; a kept search its
/// `n`, `N` and Esc), then the top screen, the photo view or the grid, whose keys follow less,
/// vim and the file managers. `q` quits only from the bare grid.
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
        // The months asked for while their dates are read: another key meanwhile is another wish.
        if gallery.dates.pendingTime != nil, key != .character("-") { gallery.dates.pendingTime = nil }
        for layer in layers.reversed() {
            if case .taken(let effect) = layer.handle(key) { return finish(effect) }
        }
        if case .taken(let effect) = topScreen.handle(key) { return finish(effect) }
        return .none
    }

    private func finish(_ effect: KeyEffect) -> KeyEffect {
        if effect == .quit { quitRequested = true }
        return effect
    }

    /// Photo `index` when it is a video (by its name or, once read, its content).
    func video(_ index: Int) -> PhotoSource? {
        guard session.photos.indices.contains(index) else { return nil }
        let photo = session.photos[index]
        if photo.format.isVideo { return photo.source }
        if case .unsupportedFormat(let name)? = session.pipeline.failure(forPhoto: index), name.hasSuffix(" video") { return photo.source }
        return nil
    }
}

/// Views opened and closed.
extension GridController {
    /// Opens the photo view on a photo.
    func openPhoto(_ photo: Int) {
        guard session.photos.indices.contains(photo) else { return }
        screens.append(PhotoView(app: self, photo: photo))
        needsClear = true
    }

    /// Back to where the photo view was opened from: compare, or the grid with the photo last
    /// shown focused and on screen; a details panel opened in the photo view closes with it.
    func closePhoto() {
        guard let view = photoView else { return }
        layers.removeAll { ($0 as? DetailsView)?.openedInPhotoView == true }
        if closeScreen(view) {
            grid.position.focus(view.state.photo, photos: session.photos.count, layout: grid.layout)
        } else {
            // Compare's panes are placed anew: what the terminal holds is sent again.
            pendingBytes += canvas.forgetAll()
        }
    }

    /// Takes a layer off the stack; what a panel covered is drawn again.
    func close(_ view: AppView) {
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
            layers.append(DetailsView(app: self, openedInPhotoView: photoView != nil))
            drawnPanel = nil
        }
    }

    /// `?`: the key help, over everything.
    func openHelp() {
        layers.append(HelpView(app: self))
        drawnPanel = nil
    }

    /// `/`: a new search, in place of a kept one.
    func startSearch() {
        layers.removeAll { $0 is SearchView }
        layers.append(SearchView(app: self))
    }

    /// `e`: starts editing the caption of the photo in view, or says why it cannot be.
    func startCaptionEdit() {
        let index = topScreen.currentPhoto
        guard session.photos.indices.contains(index) else { return }
        let photo = session.photos[index]
        if settings.readOnly { notice = "read-only (--read-only): captions are not saved"; return }
        guard let file = photo.file else { notice = "captions can be edited in a local folder only"; return }
        let sidecar = Sidecar.of(file)
        if let problem = sidecar.checkWritable() { notice = sidecar.message(problem); return }
        // The sidecar's caption, else the photo's own (read now if the pipeline has not yet), as
        // the text to edit: a caption is never started from nothing when there is one.
        let current = sidecar.caption() ?? (session.pipeline.info(index) ?? PhotoDecoder.readInfo(photo))?.caption ?? ""
        layers.append(CaptionView(app: self, edit: CaptionEdit(text: Array(current.utf8), original: Array(current.utf8), photo: file)))
    }

    /// What a panel shows changed (a caption saved): it is written again.
    func panelChanged() { drawnPanel = nil }

    /// Whether the details panel is open (the grid then asks for the focused photo's details).
    var detailsOpen: Bool { layers.contains { $0 is DetailsView } }
}
