/// Turns a tile's pixels into what the terminal is sent. The seam where tests put a fake.
public protocol TileEncoding: Sendable {
    func encode(_ image: RGBImage, for request: TileRequest) -> EncodedTile
}

/// Sixel through libsixel, or half-block cells.
public struct TileEncoder: TileEncoding {
    public init() {}

    public func encode(_ image: RGBImage, for request: TileRequest) -> EncodedTile {
        let kept = request.keptRows < image.height ? image.topRows(request.keptRows) : image
        switch request.mode {
        case .sixel(let colors):
            // libsixel fails only on an empty image or no memory; an empty tile draws nothing.
            return .sixel((try? Sixel.encode(kept, colors: colors)) ?? [])
        case .halfBlock(let colors):
            return .cells(HalfBlock.encode(kept, colors: colors))
        }
    }
}
