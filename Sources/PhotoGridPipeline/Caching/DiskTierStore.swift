import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// Tier images in the disk cache: each a small JPEG (quality 90) under the photo's path, size and
/// mtime and the tier ("t512"), behind one byte saying whether it is the photo at full size.
/// What a second run of photogrid reads instead of decoding. And encoded tiles
/// (`TileRecord`), which it reads instead of encoding.
package final class DiskTierStore: TierStoring {
    package let cache: DiskCache
    static let quality = 90
    /// For a photo that is no file (a remote gallery's): the bytes that identify the picture a
    /// tile of it is made from as it is now (its rendition's URL and validator), or nil when
    /// nothing does; its tiles are kept under them. Tier images of such photos are not kept.
    let identity: (@Sendable (Photo, TileRequest) -> [UInt8]?)?

    package init(cache: DiskCache, identity: (@Sendable (Photo, TileRequest) -> [UInt8]?)? = nil) {
        self.cache = cache
        self.identity = identity
    }

    /// A tile kept for a photo that is no file: by its identity and the tile's variant.
    struct AddressedTileKey: DiskCacheKey {
        let identity: [UInt8]
        let variant: String
        var bytes: [UInt8] { DiskCache.keyBytes(kind: "address-tile", [identity, Array(variant.utf8)]) }
    }

    /// Where a tile of `photo` for `request` is kept, if it is.
    func tileKey(_ photo: Photo, _ request: TileRequest) -> (any DiskCacheKey)? {
        guard let variant = TileRecord.variant(for: request) else { return nil }
        if let file = photo.file { return DiskCache.FileKey(file: file, variant: variant + DiskTierStore.turn(photo)) }
        return identity?(photo, request).map { AddressedTileKey(identity: $0, variant: variant) }
    }

    package func load(_ photo: Photo, tier: Tier) -> DecodedImage? {
        // Stat the photo now, not at scan time: a file replaced since must miss.
        guard let key = photo.file.flatMap({ DiskCache.FileKey(file: $0, variant: "t\(tier.size)" + DiskTierStore.turn(photo)) }),
              let payload = cache.read(key), payload.count > 1,
              let image = try? JPEG.decode(Array(payload.dropFirst()), options: JPEG.DecodeOptions(scaleEighths: 8)),
              min(image.width, image.height) <= tier.size else { return nil }
        return DecodedImage(image: image, origin: .diskCache, isComplete: payload[0] == 1)
    }

    package func save(_ image: DecodedImage, of photo: Photo, tier: Tier) {
        guard let key = photo.file.flatMap({ DiskCache.FileKey(file: $0, variant: "t\(tier.size)" + DiskTierStore.turn(photo)) }),
              // Standard Huffman tables: a `--print` waits for these encodes before it exits, and
              // tables made for each image took 3.3x the time (1.9 against 0.57 ms for a
              // 480x270 tier) to save 2.4% of its bytes.
              let jpeg = try? JPEG.encode(image.image, quality: DiskTierStore.quality, optimized: false) else { return }
        cache.write(key, [image.isComplete ? 1 : 0] + jpeg)
    }

    /// A photo that is not a JPEG, turned in its sidecar (`PhotoDecoder.turnedBySidecar`): its
    /// images are kept apart from those of the file as it stands, so a turn is never undone by
    /// the cache. Empty for a JPEG (turned in its file, whose time then changes) and for most
    /// photos; a look at the sidecar for the others.
    static func turn(_ photo: Photo) -> String {
        guard photo.format != .jpeg, photo.format.isDecoded, !photo.format.isRaw, let file = photo.file, let orientation = Sidecar.orientation(of: file) else { return "" }
        return "-o\(orientation.rawValue)"
    }

    /// Asked whenever the pipeline plans; the variant, a string, is made only to read or write.
    package func keepsTiles(for request: TileRequest) -> Bool { TileRecord.keeps(request) }

    package func loadTile(_ photo: Photo, request: TileRequest) -> EncodedTile? {
        guard let key = tileKey(photo, request), let payload = cache.read(key) else { return nil }
        guard let tile = TileRecord.decode(payload, for: request) else {
            // Whole and of this key, but not a picture of its kind: never drawn, and gone.
            cache.remove(key)
            return nil
        }
        return tile
    }

    package func saveTile(_ tile: EncodedTile, of photo: Photo, request: TileRequest) {
        guard let key = tileKey(photo, request), let payload = TileRecord.encode(tile, for: request) else { return }
        cache.write(key, payload)
    }
}
