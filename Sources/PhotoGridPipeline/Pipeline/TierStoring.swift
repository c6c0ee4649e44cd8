import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// Where tier images and encoded tiles outlive the process (the disk cache). The seam where
/// tests put a fake.
package protocol TierStoring: Sendable {
    /// The tier image kept for this photo as it is now, or nil.
    func load(_ photo: Photo, tier: Tier) -> DecodedImage?
    func save(_ image: DecodedImage, of photo: Photo, tier: Tier)
    /// Whether tiles made for `request` are kept (final pictures: every protocol's).
    func keepsTiles(for request: TileRequest) -> Bool
    /// The tile kept for this photo as it is now and exactly this request, or nil.
    func loadTile(_ photo: Photo, request: TileRequest) -> EncodedTile?
    func saveTile(_ tile: EncodedTile, of photo: Photo, request: TileRequest)
}

extension TierStoring {
    package func keepsTiles(for request: TileRequest) -> Bool { false }
    package func loadTile(_ photo: Photo, request: TileRequest) -> EncodedTile? { nil }
    package func saveTile(_ tile: EncodedTile, of photo: Photo, request: TileRequest) {}
}
