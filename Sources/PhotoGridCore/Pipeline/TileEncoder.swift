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
            if request.bandCellHeight > 0, image.width * image.height >= TileEncoder.bandedPixels {
                return .sixelBands(TileEncoder.bands(image, colors: colors, diffusion: diffusion, cellHeight: request.bandCellHeight))
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

    /// The picture cut at cell rows into one band per core, each encoded with its own palette.
    static func bands(_ image: RGBImage, colors: Int, diffusion: Sixel.Diffusion, cellHeight: Int) -> [SixelBand] {
        let cellRows = (image.height + cellHeight - 1) / cellHeight
        let count = max(1, min(WorkerThreads.cores, cellRows))
        let starts = (0...count).map { min(image.height, ($0 * cellRows / count) * cellHeight) }
        let parts = (0..<count).map { k in
            (row: starts[k] / cellHeight,
             image: RGBImage(width: image.width, height: starts[k + 1] - starts[k],
                             pixels: Array(image.pixels[(starts[k] * image.width * 3)..<(starts[k + 1] * image.width * 3)])))
        }
        let results = Locked<[Int: [UInt8]]>([:])
        DispatchQueue.concurrentPerform(iterations: parts.count) { k in
            let bytes = (try? Sixel.encode(parts[k].image, colors: colors, diffusion: diffusion)) ?? []
            results.withLock { $0[k] = bytes }
        }
        let encoded = results.withLock { $0 }
        return parts.indices.map { SixelBand(row: parts[$0].row, bytes: encoded[$0] ?? []) }
    }
}
