/// Tier images in the disk cache: each a small JPEG (quality 90) under the photo's path, size and
/// mtime and the tier ("t512"), behind one byte saying whether it is the photo at full size.
/// What a second run of photogrid reads instead of decoding. And encoded tiles
/// (`EncodedTileRecord`), which it reads instead of encoding.
package final class DiskTierStore: TierStoring {
    package let cache: DiskCache
    static let quality = 90

    package init(cache: DiskCache) { self.cache = cache }

    package func load(_ photo: Photo, tier: Tier) -> DecodedImage? {
        // Stat the photo now, not at scan time: a file replaced since must miss.
        guard let key = photo.file.flatMap({ DiskCache.FileKey(file: $0, variant: "t\(tier.size)") }),
              let payload = cache.read(key), payload.count > 1,
              let image = try? JPEG.decode(Array(payload.dropFirst()), options: JPEG.DecodeOptions(scaleEighths: 8)),
              min(image.width, image.height) <= tier.size else { return nil }
        return DecodedImage(image: image, origin: .diskCache, isComplete: payload[0] == 1)
    }

    package func save(_ image: DecodedImage, of photo: Photo, tier: Tier) {
        guard let key = photo.file.flatMap({ DiskCache.FileKey(file: $0, variant: "t\(tier.size)") }),
              let jpeg = try? JPEG.encode(image.image, quality: DiskTierStore.quality) else { return }
        cache.write(key, [image.isComplete ? 1 : 0] + jpeg)
    }

    /// Asked whenever the pipeline plans; the variant, a string, is made only to read or write.
    package func keepsTiles(for request: TileRequest) -> Bool { EncodedTileRecord.keeps(request) }

    package func loadTile(_ photo: Photo, request: TileRequest) -> EncodedTile? {
        guard let variant = EncodedTileRecord.variant(for: request), let file = photo.file, let key = DiskCache.FileKey(file: file, variant: variant),
              let payload = cache.read(key) else { return nil }
        guard let tile = EncodedTileRecord.decode(payload, for: request) else {
            // Whole and of this key, but not a picture of its kind: never drawn, and gone.
            cache.remove(key)
            return nil
        }
        return tile
    }

    package func saveTile(_ tile: EncodedTile, of photo: Photo, request: TileRequest) {
        guard let variant = EncodedTileRecord.variant(for: request), let file = photo.file, let key = DiskCache.FileKey(file: file, variant: variant),
              let payload = EncodedTileRecord.encode(tile) else { return }
        cache.write(key, payload)
    }
}
