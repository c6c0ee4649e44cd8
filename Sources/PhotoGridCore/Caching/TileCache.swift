/// The decoded pixels and the terminal-ready bytes of tiles, under one byte budget with
/// least-recently-used eviction across both, so that neither starves the other.
public final class TileCache: Sendable {
    enum Key: Hashable, Sendable {
        case pixels(PixelKey)
        case encoded(TileRequest)
    }

    enum Value: Sendable {
        case pixels(RGBImage)
        case encoded(EncodedTile)
    }

    let store: MemoryCache<Key, Value>

    public init(limitBytes: Int) {
        store = MemoryCache(limit: limitBytes)
    }

    public var totalBytes: Int { store.totalCost }
    public var limitBytes: Int { store.limit }

    public func pixels(_ key: PixelKey) -> RGBImage? {
        if case .pixels(let image)? = store.value(for: .pixels(key)) { return image }
        return nil
    }

    public func encoded(_ request: TileRequest) -> EncodedTile? {
        if case .encoded(let tile)? = store.value(for: .encoded(request)) { return tile }
        return nil
    }

    public func hasEncoded(_ request: TileRequest) -> Bool { store.contains(.encoded(request)) }

    public func store(_ image: RGBImage, for key: PixelKey) {
        store.set(.pixels(image), for: .pixels(key), cost: image.byteCount)
    }

    public func store(_ tile: EncodedTile, for request: TileRequest) {
        store.set(.encoded(tile), for: .encoded(request), cost: tile.byteCount)
    }

    public func removeAll() { store.removeAll() }
}
