/// The photos of one gallery with their cache and pipeline, and how a screen of them is asked
/// for and painted. Shared by the interactive grid and `--print`.
public final class GridSession {
    public let photos: [Photo]
    public let cache: TileCache
    public let pipeline: TilePipeline
    public let mode: RenderMode
    public var fit: FitMode

    public init(photos: [Photo], mode: RenderMode, fit: FitMode, cacheBytes: Int,
                decoder: PhotoDecoding = PhotoDecoder(), onFinish: @escaping @Sendable (TileRequest) -> Void) {
        self.photos = photos
        self.mode = mode
        self.fit = fit
        cache = TileCache(limitBytes: cacheBytes)
        pipeline = TilePipeline(photos: photos, cache: cache, decoder: decoder, onFinish: onFinish)
    }

    public var halfBlockColors: HalfBlock.Colors {
        if case .halfBlock(let colors) = mode { return colors }
        return .palette256
    }

    /// What tile `index` needs in a frame of `frame`'s size with `visibleRows` of it on screen.
    public func request(_ index: Int, frame: TileFrame, visibleRows: Int, screen: ScreenMetrics) -> TileRequest {
        let key: PixelKey
        let kept: Int
        switch mode {
        case .sixel:
            key = PixelKey(photo: index, width: frame.width * screen.cellWidth, height: frame.height * screen.cellHeight, fit: fit)
            kept = visibleRows * screen.cellHeight
        case .halfBlock:
            key = PixelKey(photo: index, width: frame.width, height: frame.height * 2, fit: fit)
            kept = visibleRows * 2
        }
        return TileRequest(pixels: key, mode: mode, keptRows: kept)
    }

    /// The tiles on screen, each with what it can show now.
    public func paintTiles(layout: GridLayout, position: GridPosition) -> [PaintTile] {
        layout.visibleIndexes(topRow: position.topRow, photos: photos.count).compactMap { index in
            guard let place = layout.placement(of: index, topRow: position.topRow) else { return nil }
            let request = self.request(index, frame: place.frame, visibleRows: place.visibleRows, screen: layout.screen)
            let content: TileContent
            if let tile = cache.encoded(request) { content = .image(request, tile) }
            else if let error = pipeline.failure(forPhoto: index) { content = .failed(error.reason) }
            else { content = .loading }
            return PaintTile(index: index, column: place.frame.column, row: place.row, width: place.frame.width,
                             rows: place.visibleRows, content: content, name: photos[index].name)
        }
    }

    /// Everything worth making now, most urgent first: the screen, then the next screen in the
    /// direction of travel, then the one behind.
    public func wanted(layout: GridLayout, position: GridPosition, direction: Int) -> [(TileRequest, Priority)] {
        var result: [(TileRequest, Priority)] = []
        for index in layout.visibleIndexes(topRow: position.topRow, photos: photos.count) {
            guard let place = layout.placement(of: index, topRow: position.topRow) else { continue }
            result.append((request(index, frame: place.frame, visibleRows: place.visibleRows, screen: layout.screen), .visible))
        }
        let screenRows = layout.fullyVisibleRows
        let ahead = direction >= 0 ? position.topRow + screenRows : position.topRow - screenRows
        let behind = direction >= 0 ? position.topRow - screenRows : position.topRow + screenRows
        for (top, priority) in [(ahead, Priority.prefetch), (behind, Priority.background)] {
            let rows = max(0, top)..<max(0, min(layout.rowCount(photos: photos.count), top + screenRows + 1))
            for row in rows {
                for column in 0..<layout.columns {
                    let index = row * layout.columns + column
                    guard index < photos.count else { break }
                    let frame = layout.frames[column]
                    result.append((request(index, frame: frame, visibleRows: frame.height, screen: layout.screen), priority))
                }
            }
        }
        return result
    }

    /// Whether every tile on screen shows its final picture or its failure.
    public func screenIsFinal(layout: GridLayout, position: GridPosition) -> Bool {
        paintTiles(layout: layout, position: position).allSatisfy {
            if case .loading = $0.content { return false } else { return true }
        }
    }
}
