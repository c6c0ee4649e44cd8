import PhotoGridCanvas
import PhotoGridModel
import PhotoGridSystem

/// The photo view: one photo fitted to the whole screen, drawn at once from the best image in
/// memory and replaced by a sharp one decoded for the screen (or for the zoom) when that
/// arrives; zoomed in, panned, stepped through the folder, or played as a slideshow.
final class PhotoView: ScreenView {
    unowned let app: GridController
    var session: GridSession { app.gallery.session }
    var screen: ScreenMetrics { app.screen }
    var state: ZoomState
    var painter: ViewPainter
    /// The slideshow's next step (TTY.now ms), while one runs.
    var slideshowDue: Int?
    /// The animation playing, when the photo is one.
    var playback: Playback?
    /// The photo whose raw file `v` shows in its place, the tile being made of it, and the last
    /// one shown.
    var showingRaw: Int?
    var aside: AsideTile?
    var asideShown: (request: TileRequest, tile: EncodedTile)?

    init(app: GridController, photo: Int) {
        self.app = app
        state = ZoomState(photo: photo)
        painter = ViewPainter(canvas: app.canvas)
    }

    deinit {
        playback?.frames.cancel()
        aside?.cancel()
    }

    var currentPhoto: Int { state.photo }
    /// The direction of travel is the grid's: stepping here and then going back prefetches alike.
    var direction: Int {
        get { app.grid.direction }
        set { app.grid.direction = newValue }
    }

    /// The view's size in the protocol's pixels, and a cell in those pixels.
    var area: (area: (width: Int, height: Int), cell: (width: Int, height: Int)) {
        let cell = session.mode.format.cell(screen)
        return ((screen.columns * cell.width, app.grid.layout.areaRows * cell.height), cell)
    }

    /// The tile the view asks for, and where it goes; nil until the photo's shape is known.
    func request(_ state: inout ZoomState) -> (TileRequest, ZoomGeometry)? {
        let (area, cell) = self.area
        let format = session.mode.format
        guard let shape = session.photoShape(state.photo) else {
            // A file whose header says nothing (not a JPEG, or damaged): ask for it letterboxed in
            // the whole view, which shows it if it decodes after all and else says why not.
            guard session.pipeline.hasReadInfo(state.photo) else { return nil }
            let whole = ZoomGeometry(region: CropRegion(x: 0, y: 0, width: 1, height: 1), width: area.width, height: area.height,
                                     column: 0, row: 0)
            return (format.viewRequest(state.photo, width: area.width, height: area.height, crop: nil, screen: screen), whole)
        }
        let geometry = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: shape)
        return (format.viewRequest(state.photo, width: geometry.width, height: geometry.height, crop: geometry.region, screen: screen), geometry)
    }

    func frame(clear: Bool) -> GridController.Frame {
        if clear { painter.invalidate() }
        let found = request(&state)
        let count = session.photos.count
        let neighbours = [state.photo, state.photo + direction, state.photo - direction, state.photo + 2 * direction]
        session.pipeline.want(wanted(found?.0),
                              infos: neighbours.filter { $0 >= 0 && $0 < count }.map { WantedInfo($0, $0 == state.photo ? .visible : .prefetch) })
        var content = session.content(of: found?.0, photo: state.photo)
        var geometry = found?.1
        let (area, cell) = self.area
        let areaRows = app.grid.layout.areaRows
        if case .loading = content, screen.rows >= 2, !state.isZoomedIn,
           let (request, tile) = session.cache.largestTile(of: state.photo, mode: session.mode, within: area.width, area.height) {
            // Stepped to a photo whose view is not made yet: its grid tile, centred, at once,
            // rather than a blank screen until a worker is free.
            content = .preview(request, tile)
            let columns = (request.width + cell.width - 1) / cell.width, rows = (request.height + cell.height - 1) / cell.height
            geometry = ZoomGeometry(region: CropRegion(x: 0, y: 0, width: 1, height: 1), width: request.width, height: request.height,
                                    column: max(0, (screen.columns - columns) / 2), row: max(0, (areaRows - rows) / 2))
        }
        content = playing(rawContent(content, request: found?.0), request: found?.0)
        var bytes: [UInt8] = []
        if screen.rows >= 2 {
            let columns = geometry.map { ($0.width + cell.width - 1) / cell.width } ?? 0
            let rows = geometry.map { ($0.height + cell.height - 1) / cell.height } ?? 0
            bytes = painter.paint(content, column: geometry?.column ?? 0, row: geometry?.row ?? 0, columns: columns, rows: rows,
                                  areaColumns: screen.columns, areaRows: areaRows, message: "loading " + (shownRaw ?? session.photos[state.photo]).name)
        }
        let loading = content.isPending
        return GridController.Frame(clear: clear, status: app.status(statusParts(loading: loading), hint: hint), bytes: bytes,
                                    tilesLoading: loading ? 1 : 0)
    }

    /// The photo on screen (its preview first), then the photos next to it at fit, in the
    /// direction of travel first, so that stepping through a folder is immediate.
    func wanted(_ current: TileRequest?) -> [WantedTile] {
        var result: [WantedTile] = []
        if let current { result += [WantedTile(current.preview, .visible), WantedTile(current, .visible)] }
        let count = session.photos.count
        // Neighbours whose shape is not known yet are asked for once their details are read.
        for (offset, priority) in [(direction, Priority.prefetch), (-direction, .prefetch), (2 * direction, .background)] {
            let photo = state.photo + offset
            guard photo >= 0 && photo < count else { continue }
            var neighbour = ZoomState(photo: photo)
            if let request = request(&neighbour)?.0 { result.append(WantedTile(request, priority)) }
        }
        return result
    }

    func statusParts(loading: Bool) -> [StatusLine.Part] {
        let photo = session.photos[state.photo]
        var parts = [StatusLine.Part(app.gallery.title, dropOrder: 3), StatusLine.Part((shownRaw ?? photo).relativePath.description),
                     StatusLine.Part("\(state.photo + 1) of \(session.photos.count)")]
        if let shape = session.photoShape(state.photo) { parts.append(StatusLine.Part("\(shape.width)x\(shape.height)", dropOrder: 2)) }
        parts.append(StatusLine.Part(state.isZoomedIn ? "zoom \(ZoomStatus.factor(state.zoom))" : "fit", dropOrder: 1))
        parts.append(StatusLine.Part(app.modeName, dropOrder: 2))
        if app.gallery.marked.contains(photo.source) { parts.append(StatusLine.Part("marked")) }
        let rating = app.rating(ofPhoto: state.photo)
        if rating != 0 { parts.insert(StatusLine.Part(Ratings.words(rating)), at: 3) }
        if let filter = app.filterStatus { parts.append(StatusLine.Part(filter, dropOrder: 1)) }
        if let frames = framesStatus { parts.append(frames) }
        if loading { parts.append(StatusLine.Part("loading")) }
        return parts
    }

    var hint: String? { slideshowDue != nil ? "s stop  q grid " : "? keys  +/- zoom  n/p photo  q grid " }

    /// Whether the view has a picture of its photo on screen (a preview or the final one).
    var showsPicture: Bool {
        var state = state
        guard let (request, _) = request(&state) else { return false }
        return session.cache.hasEncoded(request) || session.cache.hasEncoded(request.preview)
    }
}

/// How a zoom factor reads in the status line: "1.5x", "2x".
enum ZoomStatus {
    static func factor(_ zoom: Double) -> String {
        zoom == zoom.rounded() ? "\(Int(zoom))x" : "\(zoom)x"
    }
}
