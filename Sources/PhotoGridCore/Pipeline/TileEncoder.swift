import Dispatch

/// Turns an upright image into what the terminal is sent for one tile. The seam where tests put a fake.
package protocol TileEncoding: Sendable {
    func encode(_ source: RGBImage, for request: TileRequest) -> EncodedTile
    /// As `encode(_:for:)`, the tile marked when `incomplete` (its file ended early).
    func encode(_ source: RGBImage, for request: TileRequest, incomplete: Bool) -> EncodedTile
}

extension TileEncoding {
    package func encode(_ source: RGBImage, for request: TileRequest, incomplete: Bool) -> EncodedTile { encode(source, for: request) }
}

/// Crops or letterboxes the source to the tile's box, then encodes sixel (libsixel), a kitty
/// picture (zlib) or half-block cells.
package struct TileEncoder: TileEncoding {
    package init() {}

    package func encode(_ source: RGBImage, for request: TileRequest) -> EncodedTile {
        encode(source, for: request, incomplete: false)
    }

    package func encode(_ source: RGBImage, for request: TileRequest, incomplete: Bool) -> EncodedTile {
        var image: RGBImage
        if let crop = request.crop {
            let region = Resampler.Region(x: crop.x * Double(source.width), y: crop.y * Double(source.height),
                                          width: crop.width * Double(source.width), height: crop.height * Double(source.height))
            image = Resampler.resample(source, region: region, width: request.width, height: request.height)
        } else {
            image = PhotoDecoder.shape(source, width: request.width, height: request.height, fit: request.fit)
        }
        if incomplete { TileEncoder.markIncomplete(&image) }
        if request.keptRows < image.height { image = image.topRows(request.keptRows) }
        switch request.mode {
        case .sixel(let registers):
            // A preview is soft and short-lived: undithered, it encodes in two thirds of the time;
            // and an enlarged thumbnail has few colours to tell apart, so it gets few.
            let diffusion: Sixel.Diffusion = request.isPreview ? .none : .floydSteinberg
            let colors = request.isPreview ? min(registers, TileEncoder.previewColors) : registers
            if let cut = request.sixelCut {
                let banded = request.encodeInBands && image.width * image.height >= TileEncoder.bandedPixels
                return .sixelBands(TileEncoder.pieces(consume image, colors: colors, diffusion: diffusion, cut: cut, banded: banded))
            }
            // libsixel fails only on an empty image or no memory; an empty tile draws nothing.
            return .sixel((try? Sixel.encode(image, colors: colors, diffusion: diffusion)) ?? [])
        case .iterm:
            return .iterm(ITerm.picture(image))
        case .kitty(let transfer):
            return .kitty(Kitty.picture(image, transfer: transfer))
        case .halfBlock(let colors):
            return .cells(HalfBlock.encode(image, colors: colors))
        }
    }
}

extension TileEncoder {
    /// The mark of a picture whose file ended early: a triangle of amber and black stripes in the
    /// tile's lower right corner, a fifth of its short side, drawn into the pixels so that it
    /// shows the same in sixel and half-blocks.
    static func markIncomplete(_ image: inout RGBImage) {
        let side = max(6, min(image.width, image.height) / 5), stripe = max(2, side / 6)
        guard image.width >= side, image.height >= side else { return }
        for y in (image.height - side)..<image.height {
            for x in (image.width - side)..<image.width where (x - (image.width - side)) + (y - (image.height - side)) >= side {
                image[x, y] = (x + y) / stripe % 2 == 0 ? RGB(250, 190, 0) : RGB(20, 20, 20)
            }
        }
    }

    /// Past this many pixels a sixel picture (the zoom view's) is encoded as bands, one per core,
    /// at the same time: libsixel takes about 60 ms a megapixel, and a full-screen picture on a
    /// large terminal is three.
    static let bandedPixels = 1_000_000

    /// Colour registers a sixel preview uses at most.
    static let previewColors = 64

    /// Sixel pieces are at most this wide, in whole cells: libsixel writes narrow pictures much
    /// faster (see `Sixel.encode(_:columns:)`): an 800-pixel tile in 200-pixel strips takes 57 ms
    /// instead of 97, for 2% more bytes (a palette per strip), the same pixels (docs/benchmarks.md).
    static let stripPixels = 200

    /// The picture cut on cells into pieces: strips side by side, no wider than `stripPixels` and
    /// what the terminal draws, sharing one palette and one dithering; and, for a large picture
    /// (`banded`, the zoom view's) or one taller than the terminal draws, bands of rows, each with
    /// its own palette, encoded at once on several cores.
    static func pieces(_ image: consuming RGBImage, colors: Int, diffusion: Sixel.Diffusion, cut: SixelCut, banded: Bool) -> [SixelBand] {
        let cellRows = (image.height + cut.cellHeight - 1) / cut.cellHeight
        let cellColumns = (image.width + cut.cellWidth - 1) / cut.cellWidth
        let bandCount = max(banded ? min(WorkerThreads.cores, cellRows) : 1, cut.pieceRows.map { (cellRows + $0 - 1) / $0 } ?? 1)
        let stripCells = min(max(1, stripPixels / cut.cellWidth), cut.pieceColumns ?? .max)
        let columnCount = (cellColumns + stripCells - 1) / stripCells
        // Pixel edges on cell boundaries, spread evenly: band k covers rows rowEdges[k]..<rowEdges[k + 1].
        let rowEdges = (0...bandCount).map { min(image.height, ($0 * cellRows / bandCount) * cut.cellHeight) }
        let columnEdges = (0...columnCount).map { min(image.width, ($0 * cellColumns / columnCount) * cut.cellWidth) }
        let bands = (0..<bandCount).filter { rowEdges[$0] < rowEdges[$0 + 1] }
        let edges = Array(Set(columnEdges)).sorted()
        // One band (a grid tile): the picture itself is dithered, no copy of it is made.
        if bands.count == 1 {
            return strips(consume image, row: rowEdges[bands[0]] / cut.cellHeight, edges: edges, cut: cut, colors: colors, diffusion: diffusion)
        }
        let whole = copy image
        let results = Locked<[Int: [SixelBand]]>([:])
        DispatchQueue.concurrentPerform(iterations: bands.count) { k in
            let (top, bottom) = (rowEdges[bands[k]], rowEdges[bands[k] + 1])
            let pieces = strips(whole.region(x: 0, y: top, width: whole.width, height: bottom - top), row: top / cut.cellHeight,
                                edges: edges, cut: cut, colors: colors, diffusion: diffusion)
            results.withLock { $0[k] = pieces }
        }
        let encoded = results.withLock { $0 }
        return bands.indices.flatMap { encoded[$0] ?? [] }
    }

    /// Rows of a picture as strips side by side, cut at `edges`, placed at cell row `row`.
    private static func strips(_ rows: consuming RGBImage, row: Int, edges: [Int], cut: SixelCut, colors: Int,
                               diffusion: Sixel.Diffusion) -> [SixelBand] {
        let strips = (try? Sixel.encode(rows, columns: edges, colors: colors, diffusion: diffusion)) ?? []
        return strips.indices.map { SixelBand(row: row, column: edges[$0] / cut.cellWidth, bytes: strips[$0]) }
    }
}
