/// The zoom view: one photo fitted to the whole screen, drawn at once from the best image in
/// memory and replaced by a sharp one decoded for the screen (or for the zoom) when that arrives.
extension GridController {
    /// The view's size in the mode's pixels, and a cell in those pixels.
    var zoomArea: (area: (width: Int, height: Int), cell: (width: Int, height: Int)) {
        let cell = session.mode.format.cell(screen)
        return ((screen.columns * cell.width, layout.areaRows * cell.height), cell)
    }

    /// The tile the view asks for, and where it goes; nil until the photo's shape is known.
    func zoomRequest(_ state: inout ZoomState) -> (TileRequest, ZoomGeometry)? {
        let (area, cell) = zoomArea
        guard let shape = session.photoShape(state.photo) else {
            // A file whose header says nothing (not a JPEG, or damaged): ask for it letterboxed in
            // the whole view, which shows it if it decodes after all and else says why not.
            guard session.pipeline.hasReadInfo(state.photo) else { return nil }
            let whole = ZoomGeometry(region: CropRegion(x: 0, y: 0, width: 1, height: 1), width: area.width, height: area.height,
                                     column: 0, row: 0)
            return (session.mode.format.viewRequest(state.photo, width: area.width, height: area.height, crop: nil, screen: screen), whole)
        }
        let geometry = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: shape)
        let request = session.mode.format.viewRequest(state.photo, width: geometry.width, height: geometry.height,
                                                      crop: geometry.region, screen: screen)
        return (request, geometry)
    }

    func zoomFrame(clear: Bool) -> Frame {
        guard var state = zoom else { return Frame(clear: clear, status: "", bytes: [], tilesLoading: 0) }
        let found = zoomRequest(&state)
        zoom = state
        let count = session.photos.count
        let neighbours = [state.photo, state.photo + direction, state.photo - direction, state.photo + 2 * direction]
        session.pipeline.want(zoomWanted(found?.0),
                              infos: neighbours.filter { $0 >= 0 && $0 < count }.map { WantedInfo($0, $0 == state.photo ? .visible : .prefetch) })
        var content = session.content(of: found?.0, photo: state.photo)
        var geometry = found?.1
        let (area, cell) = zoomArea
        if case .loading = content, screen.rows >= 2, !state.isZoomedIn,
           let (request, tile) = session.cache.largestTile(of: state.photo, mode: session.mode, within: area.width, area.height) {
            // Stepped to a photo whose view is not made yet: its grid tile, centred, at once,
            // rather than a blank screen until a worker is free.
            content = .preview(request, tile)
            let columns = (request.width + cell.width - 1) / cell.width, rows = (request.height + cell.height - 1) / cell.height
            geometry = ZoomGeometry(region: CropRegion(x: 0, y: 0, width: 1, height: 1), width: request.width, height: request.height,
                                    column: max(0, (screen.columns - columns) / 2), row: max(0, (layout.areaRows - rows) / 2))
        }
        var bytes: [UInt8] = []
        if screen.rows >= 2 {
            let columns = geometry.map { ($0.width + cell.width - 1) / cell.width } ?? 0
            let rows = geometry.map { ($0.height + cell.height - 1) / cell.height } ?? 0
            bytes = viewPainter.paint(content, column: geometry?.column ?? 0, row: geometry?.row ?? 0, columns: columns, rows: rows,
                                      areaColumns: screen.columns, areaRows: layout.areaRows,
                                      message: "loading " + session.photos[state.photo].name)
        }
        let loading = content.isPending ? 1 : 0
        return Frame(clear: clear, status: zoomStatus(state, loading: loading > 0), bytes: bytes, tilesLoading: loading)
    }

    /// The photo on screen (its preview first), then the photos next to it at fit, in the
    /// direction of travel first, so that stepping through a folder is immediate.
    func zoomWanted(_ current: TileRequest?) -> [WantedTile] {
        guard let state = zoom else { return [] }
        var result: [WantedTile] = []
        if let current { result += [WantedTile(current.preview, .visible), WantedTile(current, .visible)] }
        let count = session.photos.count
        // Neighbours whose shape is not known yet are asked for once their details are read.
        for (offset, priority) in [(direction, Priority.prefetch), (-direction, .prefetch), (2 * direction, .background)] {
            let photo = state.photo + offset
            guard photo >= 0 && photo < count else { continue }
            var neighbour = ZoomState(photo: photo)
            if let request = zoomRequest(&neighbour)?.0 { result.append(WantedTile(request, priority)) }
        }
        return result
    }

    func zoomStatus(_ state: ZoomState, loading: Bool) -> String {
        let photo = session.photos[state.photo]
        var parts = [StatusLine.Part(title, dropOrder: 3), StatusLine.Part(photo.relativePath.description),
                     StatusLine.Part("\(state.photo + 1) of \(session.photos.count)")]
        if let shape = session.photoShape(state.photo) { parts.append(StatusLine.Part("\(shape.width)x\(shape.height)", dropOrder: 2)) }
        parts.append(StatusLine.Part(state.isZoomedIn ? "zoom \(ZoomStatus.factor(state.zoom))" : "fit", dropOrder: 1))
        parts.append(StatusLine.Part(modeName, dropOrder: 2))
        if marked.contains(photo.source) { parts.append(StatusLine.Part("marked")) }
        if loading { parts.append(StatusLine.Part("loading")) }
        if let notice { parts.append(StatusLine.Part(notice)) }
        if budgetNotice.isShown { parts.append(StatusLine.Part(BudgetNotice.text)) }
        if let captionStatus { parts.insert(StatusLine.Part(captionStatus), at: 0) }
        let hint = captionEdit != nil ? "Enter save  Esc cancel " : showHelp ? "Esc close " : showDetails ? "i/Esc close  ? keys " : slideshowDue != nil ? "s stop  q grid "
            : "? keys  +/- zoom  n/p photo  q grid "
        return StatusLine.compose(parts, hint: budgetNotice.isShown ? nil : hint, shortHint: budgetNotice.isShown ? nil : "? keys ",
                                  width: screen.columns)
    }

    /// Whether the zoom view has a picture of its photo on screen (a preview or the final one).
    package var zoomShowsPicture: Bool {
        guard var state = zoom, let (request, _) = zoomRequest(&state) else { return false }
        return session.cache.hasEncoded(request) || session.cache.hasEncoded(request.preview)
    }

    /// Opens the zoom view on a photo.
    package func openZoom(_ photo: Int) {
        guard session.photos.indices.contains(photo) else { return }
        zoom = ZoomState(photo: photo)
        detailsOpenedInZoom = false
        needsClear = true
    }

    /// `s` in the photo view: the next photo every `slideshowSeconds`, round to the first after
    /// the last, until `s` again or the view closes.
    func toggleSlideshow() {
        slideshowDue = slideshowDue == nil ? TTY.now() + slideshowSeconds * 1000 : nil
        notice = slideshowDue == nil ? "slideshow stopped" : "slideshow: a photo every \(slideshowSeconds) s (s stops)"
    }

    /// Called by the event loop whenever it wakes: the next photo when its time has come.
    package func advanceSlideshow(now: Int) {
        guard let due = slideshowDue, now >= due, var state = zoom else { return }
        let next = state.photo + 1 < session.photos.count ? state.photo + 1 : 0
        direction = 1
        state = ZoomState(photo: next)
        zoom = state
        slideshowDue = now + slideshowSeconds * 1000
    }

    /// Back to the grid, with the photo last shown focused and on screen; a details panel opened
    /// in the photo view closes with it.
    package func closeZoom() {
        guard let state = zoom else { return }
        zoom = nil
        slideshowDue = nil
        if detailsOpenedInZoom, showDetails { toggleDetails() }
        detailsOpenedInZoom = false
        position.focus(state.photo, photos: session.photos.count, layout: layout)
        needsClear = true
    }

    /// Keys of the zoom view.
    func handleZoom(_ key: Key) -> KeyEffect {
        guard var state = zoom else { return .none }
        let count = session.photos.count
        func step(_ by: Int) {
            let target = max(0, min(count - 1, state.photo + by))
            guard target != state.photo else { return }
            direction = by > 0 ? 1 : -1
            state = ZoomState(photo: target)
        }
        func pan(_ dx: Double, _ dy: Double) {
            guard let (_, geometry) = zoomRequest(&state) else { return }
            state.pan(dx: dx, dy: dy, visible: geometry.region)
        }
        switch key {
        case .character("Q"): quitRequested = true; return .quit
        case .character("q"), .escape: closeZoom(); return .none
        case .character("s"): toggleSlideshow()
        case .enter: if let video = video(state.photo) { return .play(video) }
        case .character("+"): state.zoomIn()
        case .character("-"), .character("_"):
            if state.isZoomedIn { state.zoomOut() } else { closeZoom(); return .none }
        case .character("0"), .character("="): state.fit()
        case .character("n"), .pageDown, .character(" "): step(1)
        case .character("p"), .pageUp, .backspace: step(-1)
        case .character("g"), .home: step(-state.photo)
        case .character("G"), .end: step(count - 1 - state.photo)
        case .left, .character("h"): if state.isZoomedIn { pan(-1, 0) } else { step(-1) }
        case .right, .character("l"): if state.isZoomedIn { pan(1, 0) } else { step(1) }
        case .up, .character("k"): if state.isZoomedIn { pan(0, -1) }
        case .down, .character("j"): if state.isZoomedIn { pan(0, 1) }
        case .character("i"): toggleDetails()
        case .character("m"): zoom = state; toggleMarkOf(state.photo)
        case .character("o"): openElsewhere()
        case .character("y"): copyPath()
        case .character("e"): zoom = state; startCaptionEdit()
        case .control("l"): repaint()
        case .control("r"): reloadChanged()
        default: break
        }
        zoom = state
        return .none
    }
}

/// How a zoom factor reads in the status line: "1.5x", "2x".
enum ZoomStatus {
    static func factor(_ zoom: Double) -> String {
        zoom == zoom.rounded() ? "\(Int(zoom))x" : "\(zoom)x"
    }
}
