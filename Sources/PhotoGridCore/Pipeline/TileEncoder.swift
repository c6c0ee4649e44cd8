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
            // libsixel fails only on an empty image or no memory; an empty tile draws nothing.
            return .sixel((try? Sixel.encode(image, colors: colors)) ?? [])
        case .halfBlock(let colors):
            return .cells(HalfBlock.encode(image, colors: colors))
        }
    }
}
