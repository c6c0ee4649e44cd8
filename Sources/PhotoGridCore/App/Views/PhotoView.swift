import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The photo view: one photo fitted to the whole screen, drawn at once from the best image in
/// memory and replaced by a sharp one decoded for the screen (or for the zoom) when that
/// arrives; zoomed in, panned, stepped through the list, or played as a slideshow. It knows its
/// photo by identity: a new order or a filter under it keeps it on the same photo.
final class PhotoView: ScreenView {
    var state: ZoomState
    var painter: ViewPainter
    /// The slideshow's next step (the app clock's ms), while one runs.
    var slideshowDue: Int?
    /// The animation playing, when the photo is one.
    var playback: Playback?
    /// The photo whose raw file `v` shows in its place, the tile being made of it, and the last
    /// one shown.
    var showingRaw: PhotoID?
    var aside: AsideTile?
    var asideShown: (request: TileRequest, tile: EncodedTile)?
    /// +1 after stepping on, -1 after stepping back: which neighbours are made first.
    var direction = 1

    init(_ context: ViewContext, photo: PhotoID) {
        state = ZoomState(photo: photo)
        painter = ViewPainter(canvas: context.canvas)
    }

    deinit {
        playback?.frames.cancel()
        aside?.cancel()
    }

    func currentPhoto(_ context: ViewContext) -> PhotoID? { state.photo }

    /// Its photo gone from the list (a filter hides it, a rescan lost it): the view closes.
    func listChanged(_ context: ViewContext) -> Bool { context.photos.contains(state.photo) }

    /// The photo's place in the list, for "N of M" and stepping.
    func place(_ context: ViewContext) -> Int { context.photos.index(of: state.photo) ?? 0 }

    /// The view's size in the protocol's pixels, and a cell in those pixels.
    func area(_ context: ViewContext) -> (area: (width: Int, height: Int), cell: (width: Int, height: Int)) {
        let cell = context.session.mode.format.cell(context.screen)
        return ((context.screen.columns * cell.width, context.areaRows * cell.height), cell)
    }

    /// The tile the view asks for, and where it goes; nil until the photo's shape is known.
    func request(_ state: inout ZoomState, _ context: ViewContext) -> (TileRequest, ZoomGeometry)? {
        let (area, cell) = self.area(context)
        let session = context.session, format = session.mode.format
        guard let shape = session.photoShape(state.photo) else {
            // A file whose header says nothing (not a JPEG, or damaged): ask for it letterboxed in
            // the whole view, which shows it if it decodes after all and else says why not.
            guard session.pipeline.hasReadInfo(state.photo) else { return nil }
            let whole = ZoomGeometry(region: CropRegion(x: 0, y: 0, width: 1, height: 1), width: area.width, height: area.height,
                                     column: 0, row: 0)
            return (format.viewRequest(state.photo, width: area.width, height: area.height, crop: nil, screen: context.screen), whole)
        }
        let geometry = ZoomGeometry.compute(state: &state, area: area, cell: cell, image: shape)
        return (format.viewRequest(state.photo, width: geometry.width, height: geometry.height, crop: geometry.region, screen: context.screen),
                geometry)
    }

    /// The photos either side of this one in the list, in the direction of travel first.
    func neighbours(_ context: ViewContext) -> [(PhotoID, Priority)] {
        let ids = context.photos.ids, here = place(context)
        return [(direction, Priority.prefetch), (-direction, .prefetch), (2 * direction, .background)].compactMap { offset, priority in
            ids.indices.contains(here + offset) ? (ids[here + offset], priority) : nil
        }
    }

    func frame(_ context: ViewContext, clear: Bool) -> ViewFrame {
        if clear { painter.invalidate() }
        let session = context.session, screen = context.screen
        let found = request(&state, context)
        session.pipeline.want(wanted(found?.0, context),
                              infos: [WantedInfo(state.photo, .visible)] + neighbours(context).map { WantedInfo($0.0, .prefetch) })
        var content = session.content(of: found?.0, photo: state.photo)
        var geometry = found?.1
        let (area, cell) = self.area(context)
        let areaRows = context.areaRows
        if case .loading = content, screen.rows >= 2, !state.isZoomedIn,
           let (request, tile) = session.cache.largestTile(of: state.photo, mode: session.mode, within: area.width, area.height) {
            // Stepped to a photo whose view is not made yet: its grid tile, centred, at once,
            // rather than a blank screen until a worker is free.
            content = .preview(request, tile)
            let columns = (request.width + cell.width - 1) / cell.width, rows = (request.height + cell.height - 1) / cell.height
            geometry = ZoomGeometry(region: CropRegion(x: 0, y: 0, width: 1, height: 1), width: request.width, height: request.height,
                                    column: max(0, (screen.columns - columns) / 2), row: max(0, (areaRows - rows) / 2))
        }
        content = playing(rawContent(content, request: found?.0, context), request: found?.0, context)
        var bytes: [UInt8] = []
        if screen.rows >= 2 {
            let columns = geometry.map { ($0.width + cell.width - 1) / cell.width } ?? 0
            let rows = geometry.map { ($0.height + cell.height - 1) / cell.height } ?? 0
            let name = (shownRaw(context) ?? session.table[state.photo]).name
            bytes = painter.paint(content, column: geometry?.column ?? 0, row: geometry?.row ?? 0, columns: columns, rows: rows,
                                  areaColumns: screen.columns, areaRows: areaRows, message: "loading " + name)
        }
        let loading = content.isPending
        return ViewFrame(bytes: bytes, status: statusParts(loading: loading, context), hint: hint(context), tilesLoading: loading ? 1 : 0)
    }

    /// The photo on screen (its preview first), then the photos next to it at fit, in the
    /// direction of travel first, so that stepping through a folder is immediate.
    func wanted(_ current: TileRequest?, _ context: ViewContext) -> [WantedTile] {
        // The photo on screen first: until its details are read (a short read) nothing is asked
        // for, so that no neighbour's decode takes the worker it needs (a large photo holds one
        // for a second or more; seen as the shown photo never decoded on a loaded machine).
        guard let current else { return [] }
        var result = [WantedTile(current.preview, .visible), WantedTile(current, .visible)]
        // Neighbours whose shape is not known yet are asked for once their details are read.
        for (photo, priority) in neighbours(context) {
            var neighbour = ZoomState(photo: photo)
            if let request = request(&neighbour, context)?.0 { result.append(WantedTile(request, priority)) }
        }
        return result
    }

    func statusParts(loading: Bool, _ context: ViewContext) -> [StatusLine.Part] {
        let session = context.session, photo = session.table[state.photo]
        var parts = [StatusLine.Part(context.gallery.title, dropOrder: 3), StatusLine.Part((shownRaw(context) ?? photo).relativePath.description),
                     StatusLine.Part("\(place(context) + 1) of \(context.photos.count)")]
        if let shape = session.photoShape(state.photo) { parts.append(StatusLine.Part("\(shape.width)x\(shape.height)", dropOrder: 2)) }
        parts.append(StatusLine.Part(state.isZoomedIn ? "zoom \(ZoomStatus.factor(state.zoom))" : "fit", dropOrder: 1))
        parts.append(StatusLine.Part(context.modeName, dropOrder: 2))
        if context.gallery.marked.contains(state.photo) { parts.append(StatusLine.Part("marked")) }
        let rating = context.rating(of: state.photo)
        if rating != 0 { parts.insert(StatusLine.Part(Ratings.words(rating)), at: 3) }
        if let filter = context.gallery.filterStatus { parts.append(StatusLine.Part(filter, dropOrder: 1)) }
        if let frames = framesStatus { parts.append(frames) }
        if loading { parts.append(StatusLine.Part("loading")) }
        return parts
    }

    func hint(_ context: ViewContext) -> String? { slideshowDue != nil ? "s stop  q grid " : "? keys  +/- zoom  n/p photo  q grid " }

    /// Whether the view has a picture of its photo on screen (a preview or the final one).
    func showsPicture(_ context: ViewContext) -> Bool {
        var state = state
        guard let (request, _) = request(&state, context) else { return false }
        return context.session.cache.hasEncoded(request) || context.session.cache.hasEncoded(request.preview)
    }

    /// The slideshow's next step, or the animation's next frame.
    func due(_ context: ViewContext) -> Int? { [slideshowDue, playback?.due].compactMap { $0 }.min() }

    func wake(_ context: ViewContext) -> [Action] {
        let now = context.clock.now()
        advanceAnimation(now: now)
        advanceSlideshow(now: now, context)
        return []
    }
}

/// How a zoom factor reads in the status line: "1.5x", "2x".
enum ZoomStatus {
    static func factor(_ zoom: Double) -> String {
        zoom == zoom.rounded() ? "\(Int(zoom))x" : "\(zoom)x"
    }
}
