import Dispatch

/// Turns an upright image into what the terminal is sent for one tile. The seam where tests put a fake.
public protocol TileEncoding: Sendable {
    func encode(_ source: RGBImage, for request: TileRequest) -> EncodedTile
}

/// Crops or letterboxes the source to the tile's box, then encodes sixel (libsixel) or half-block cells.
public struct TileEncoder: TileEncoding {
    public init() {}

    public func encode(_ source: RGBImage, for request: TileRequest) -> EncodedTile {
        var image: RGBImage
        if let crop = request.crop {
            let region = Resampler.Region(x: crop.x * Double(source.width), y: crop.y * Double(source.height),
                                          width: crop.width * Double(source.width), height: crop.height * Double(source.height))
            image = Resampler.resample(source, region: region, width: request.width, height: request.height)
        } else {
            image = PhotoDecoder.shape(source, width: request.width, height: request.height, fit: request.fit)
        }
        if request.keptRows < image.height { image = image.topRows(request.keptRows) }
        switch request.mode {
        case .sixel(let colors):
            // A preview is soft and short-lived: undithered, it encodes in two thirds of the time.
            let diffusion: Sixel.Diffusion = request.isPreview ? .none : .floydSteinberg
            if let cut = request.sixelCut,
               cut.isTooLarge(width: image.width, height: image.height)
                || request.encodeInBands && image.width * image.height >= TileEncoder.bandedPixels {
                return .sixelBands(TileEncoder.pieces(image, colors: colors, diffusion: diffusion, cut: cut))
            }
            // libsixel fails only on an empty image or no memory; an empty tile draws nothing.
            return .sixel((try? Sixel.encode(image, colors: colors, diffusion: diffusion)) ?? [])
        case .halfBlock(let colors):
            return .cells(HalfBlock.encode(image, colors: colors))
        }
    }
}

extension TileEncoder {
    /// Past this many pixels a sixel picture (the zoom view's) is encoded as bands, one per core,
    /// at the same time: libsixel takes about 60 ms a megapixel, and a full-screen picture on a
    /// large terminal is three.
    static let bandedPixels = 1_000_000

    /// The picture cut on cells into pieces the terminal draws (no larger than `cut` says), and
    /// into at least one band of rows per core, each piece encoded with its own palette, at once.
    static func pieces(_ image: RGBImage, colors: Int, diffusion: Sixel.Diffusion, cut: SixelCut) -> [SixelBand] {
        let cellRows = (image.height + cut.cellHeight - 1) / cut.cellHeight
        let cellColumns = (image.width + cut.cellWidth - 1) / cut.cellWidth
        let bandCount = max(min(WorkerThreads.cores, cellRows), cut.pieceRows.map { (cellRows + $0 - 1) / $0 } ?? 1)
        let columnCount = cut.pieceColumns.map { (cellColumns + $0 - 1) / $0 } ?? 1
        // Pixel edges on cell boundaries, spread evenly: band k covers rows rowEdges[k]..<rowEdges[k + 1].
        let rowEdges = (0...bandCount).map { min(image.height, ($0 * cellRows / bandCount) * cut.cellHeight) }
        let columnEdges = (0...columnCount).map { min(image.width, ($0 * cellColumns / columnCount) * cut.cellWidth) }
        var found: [(band: Int, column: Int)] = []
        for band in 0..<bandCount where rowEdges[band] < rowEdges[band + 1] {
            for column in 0..<columnCount where columnEdges[column] < columnEdges[column + 1] { found.append((band, column)) }
        }
        let places = found
        let results = Locked<[Int: [UInt8]]>([:])
        DispatchQueue.concurrentPerform(iterations: places.count) { k in
            let (band, column) = places[k]
            let piece = image.region(x: columnEdges[column], y: rowEdges[band], width: columnEdges[column + 1] - columnEdges[column],
                                     height: rowEdges[band + 1] - rowEdges[band])
            let bytes = (try? Sixel.encode(piece, colors: colors, diffusion: diffusion)) ?? []
            results.withLock { $0[k] = bytes }
        }
        let encoded = results.withLock { $0 }
        return places.indices.map { k in
            SixelBand(row: rowEdges[places[k].band] / cut.cellHeight, column: columnEdges[places[k].column] / cut.cellWidth,
                      bytes: encoded[k] ?? [])
        }
    }
}
