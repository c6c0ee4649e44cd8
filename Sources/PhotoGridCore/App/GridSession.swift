import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem

/// The photos of one gallery with their caches and pipeline, and how a screen of them is asked
/// for and painted. Shared by the interactive grid and `--print`. The list shown changes
/// (`show`: a new order, a filter, a rescan, a folder growing) while the pipeline and the caches
/// stay: they know photos by identity (`PhotoID`), so every tile made is still good.
package final class GridSession {
    /// The photos shown, in order.
    package private(set) var photos: PhotoList
    /// Every photo the session has seen, by identity.
    package let table: PhotoTable
    package let cache: TileCache
    package let pipeline: TilePipeline
    package let mode: RenderMode
    package var fit: FitMode

    /// `onFinish` is called, on a worker, whenever something new can be drawn: a tile or a photo's details.
    package convenience init(photos: [Photo], mode: RenderMode, fit: FitMode, cacheBytes: Int,
                loader: PhotoLoading = FileLoader(), decoder: PhotoDecoding = PhotoDecoder(gate: MemoryGate()), encoder: TileEncoding = TileEncoder(), tierStore: TierStoring? = nil,
                workers: Int = WorkerThreads.cores, keeping kept: TileCache? = nil, onFinish: @escaping @Sendable () -> Void) {
        self.init(list: PhotoList(photos), mode: mode, fit: fit, cacheBytes: cacheBytes, loader: loader, decoder: decoder, encoder: encoder,
                  tierStore: tierStore, workers: workers, keeping: kept, onFinish: onFinish)
    }

    package init(list: PhotoList, mode: RenderMode, fit: FitMode, cacheBytes: Int,
                loader: PhotoLoading = FileLoader(), decoder: PhotoDecoding = PhotoDecoder(gate: MemoryGate()), encoder: TileEncoding = TileEncoder(), tierStore: TierStoring? = nil,
                workers: Int = WorkerThreads.cores, keeping kept: TileCache? = nil, onFinish: @escaping @Sendable () -> Void) {
        photos = list
        table = list.table
        self.mode = mode
        self.fit = fit
        cache = kept ?? TileCache(limitBytes: cacheBytes)
        // Decodes in progress are lent from this budget, up to a third of it at once.
        decoder.memoryGate?.fit(budget: cacheBytes)
        Allocator.fit(budget: cacheBytes)
        decoder.memoryGate?.observe { [weak cache] bytes in
            cache?.reserve(bytes)
            if let cache { Allocator.decodesUse(bytes, budget: cache.limitBytes) }
        }
        pipeline = TilePipeline(table: table, cache: cache, loader: loader, decoder: decoder, encoder: encoder, tierStore: tierStore, workers: workers,
                                onInfo: { _ in onFinish() }, onFinish: { _ in onFinish() }, onIdle: Allocator.returnFreePagesWhenKept)
    }

    package convenience init(source: GallerySource, mode: RenderMode, fit: FitMode, cacheBytes: Int,
                            onFinish: @escaping @Sendable () -> Void) {
        self.init(photos: source.photos, mode: mode, fit: fit, cacheBytes: cacheBytes, loader: source.loader, decoder: source.decoder,
                  tierStore: source.tierStore, onFinish: onFinish)
    }

    /// At this many columns or fewer, tiles show badges for a caption and a position.
    package static let badgeColumns = 3

    /// The colours of the text beside the pictures.
    package var halfBlockColors: HalfBlock.Colors { mode.format.textColors }

    /// Shows `list` from now on: the same table's photos in another order or number. Nothing
    /// made is let go and nothing under way is stopped: what the next frame wants decides.
    package func show(_ list: PhotoList) {
        precondition(list.table === table, "a list of another session's photos")
        photos = list
    }

    /// Shows these photos, issuing identities for those not seen before.
    package func show(_ records: [Photo]) { show(PhotoList(table: table, ids: table.ids(for: records))) }

    /// The photo at a position of the list.
    package func id(at index: Int) -> PhotoID { photos.ids[index] }

    /// The final tile for `photo` in a frame of `frame`'s size with `visibleRows` on screen.
    package func request(_ photo: PhotoID, frame: TileFrame, visibleRows: Int, screen: ScreenMetrics, fit: FitMode? = nil) -> TileRequest {
        mode.format.gridRequest(photo, frame: frame, visibleRows: visibleRows, screen: screen, fit: fit ?? self.fit)
    }

    /// The same for any mode and fit: what `FirstScreen` asks before there is a session.
    package static func request(_ photo: PhotoID, frame: TileFrame, visibleRows: Int, screen: ScreenMetrics, mode: RenderMode,
                                fit: FitMode) -> TileRequest {
        mode.format.gridRequest(photo, frame: frame, visibleRows: visibleRows, screen: screen, fit: fit)
    }

    /// The tiles on screen, each with the best it can show now: its picture, else the soft
    /// picture from the EXIF thumbnail, else why it failed, else a grey square.
    /// `list` and `fit`: another list than the session's and another fit than its own (the time
    /// cards: a key photo a period, always filling its card).
    package func paintTiles(layout: GridLayout, position: GridPosition, list: PhotoList? = nil, fit: FitMode? = nil) -> [PaintTile] {
        let ids = (list ?? photos).ids
        return layout.visibleIndexes(topRow: position.topRow, photos: ids.count).compactMap { index in
            guard let place = layout.placement(of: index, topRow: position.topRow) else { return nil }
            let id = ids[index]
            let request = self.request(id, frame: place.frame, visibleRows: place.visibleRows, screen: layout.screen, fit: fit)
            var shown = content(of: request)
            if case .loading = shown, layout.screen.slowLink || layout.screen.pictureScale < 1 {
                // On a slow link, the same tile at another of its scales (the link's pace changed,
                // or the sharp pictures are on their way): shown until this one is made.
                for scale in LinkScales.all where scale != layout.screen.pictureScale {
                    var other = layout.screen
                    other.pictureScale = scale
                    let alternative = self.request(id, frame: place.frame, visibleRows: place.visibleRows, screen: other, fit: fit)
                    if alternative != request, let tile = cache.encoded(alternative) {
                        shown = .preview(alternative, tile)
                        break
                    }
                }
            }
            var tile = PaintTile(photo: id, column: place.frame.column, row: place.row, width: place.frame.width,
                                 rows: place.visibleRows, content: shown, name: table[id].name)
            tile.fullRows = place.frame.height
            if layout.columns <= GridSession.badgeColumns, place.visibleRows == layout.tileRows, let info = pipeline.info(id) {
                tile.badges = (info.caption != nil ? "¶" : "") + (info.latitude != nil && info.longitude != nil ? "°" : "")
            }
            return tile
        }
    }

    /// What a tile shows now, for the grid and the photo view alike: its picture, else why its
    /// photo failed, else the soft picture from the EXIF thumbnail, else nothing yet. With no
    /// request (the photo view before its size is known), only a failure can show.
    package func content(of request: TileRequest?, photo: PhotoID? = nil) -> TileContent {
        guard let request else {
            if let photo, let error = pipeline.failure(forPhoto: photo) { return .failed(error.reason) }
            return .loading
        }
        if let tile = cache.encoded(request) { return .image(request, tile) }
        if let error = pipeline.failure(forPhoto: request.photo) { return .failed(error.reason) }
        if let preview = cache.encoded(request.preview) { return .preview(request.preview, preview) }
        return .loading
    }

    /// Everything worth making now, most urgent first: soft previews of the screen (not on a slow
    /// link), the screen,
    /// the screen one row on in the direction of travel (its cut bottom row is a tile of its own),
    /// the next screen, the one behind, and the screen as it would be at one column more and one
    /// fewer, so that `+` and `-` find their tiles ready.
    /// `list` and `fit` as for `paintTiles`; `neighbours`: the screen at a column more and fewer too.
    package func wanted(layout: GridLayout, position: GridPosition, direction: Int, list: PhotoList? = nil, fit: FitMode? = nil,
                        neighbours: Bool = true) -> [WantedTile] {
        let ids = (list ?? photos).ids
        let visible = onScreen(layout: layout, position: position, ids: ids, fit: fit)
        // On a slow link a preview costs the link what its final tile does: the final alone.
        var result = layout.screen.slowLink ? [] : visible.map { WantedTile($0.preview, .visible) }
        result += visible.map { WantedTile($0, .visible) }
        let nextRow = GridPosition(focus: position.focus, topRow: max(0, position.topRow + (direction >= 0 ? 1 : -1)))
        result += onScreen(layout: layout, position: nextRow, ids: ids, fit: fit).map { WantedTile($0, .prefetch) }
        let screenRows = layout.fullyVisibleRows
        let ahead = direction >= 0 ? position.topRow + screenRows : position.topRow - screenRows
        let behind = direction >= 0 ? position.topRow - screenRows : position.topRow + screenRows
        result += rows(from: ahead, count: screenRows + 1, layout: layout, ids: ids, fit: fit).map { WantedTile($0, .prefetch) }
        result += rows(from: behind, count: screenRows + 1, layout: layout, ids: ids, fit: fit).map { WantedTile($0, .background) }
        for columns in [layout.columns - 1, layout.columns + 1] where neighbours && GridLayout.columnRange.contains(columns) {
            let neighbour = GridLayout(screen: layout.screen, columns: columns, sections: layout.sections,
                                       groupStarts: layout.groupStarts, photos: layout.groupedPhotos)
            let anchored = position.anchored(from: layout, to: neighbour, photos: ids.count)
            result += onScreen(layout: neighbour, position: anchored, ids: ids, fit: fit).map { WantedTile($0, .background) }
        }
        return result
    }

    /// The photo's upright size from its file's header, else its shape from the largest image of
    /// it in memory (or its thumbnail); nil until one of those is known.
    package func photoShape(_ photo: PhotoID) -> (width: Int, height: Int)? {
        if let info = pipeline.info(photo), let width = info.width, let height = info.height { return (width, height) }
        if let image = cache.largestTier(of: photo)?.image { return (image.width, image.height) }
        if let thumbnail = cache.thumbnail(photo) { return (thumbnail.width, thumbnail.height) }
        return nil
    }

    private func onScreen(layout: GridLayout, position: GridPosition, ids: [PhotoID], fit: FitMode?) -> [TileRequest] {
        layout.visibleIndexes(topRow: position.topRow, photos: ids.count).compactMap { index in
            layout.placement(of: index, topRow: position.topRow).map {
                request(ids[index], frame: $0.frame, visibleRows: $0.visibleRows, screen: layout.screen, fit: fit)
            }
        }
    }

    /// Whole tiles of `count` rows from tile row `top`.
    private func rows(from top: Int, count: Int, layout: GridLayout, ids: [PhotoID], fit: FitMode?) -> [TileRequest] {
        let first = max(0, top)
        let rows = first..<max(first, min(layout.rowCount(photos: ids.count), top + count))
        return rows.flatMap { row in
            layout.indexes(inRow: row, photos: ids.count).map { index -> TileRequest in
                let frame = layout.frames[layout.column(of: index)]
                return request(ids[index], frame: frame, visibleRows: frame.height, screen: layout.screen, fit: fit)
            }
        }
    }
}
