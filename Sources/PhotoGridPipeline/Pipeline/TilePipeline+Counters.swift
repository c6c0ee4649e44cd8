import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

extension TilePipeline {
    /// How much work was started: what the coalescing and cancelling tests count.
    package struct Counters: Sendable, Equatable {
        /// Photos decoded (from their file or their EXIF thumbnail).
        package var decodes = 0
        package var thumbnails = 0
        /// Tier images made from a larger tier in memory.
        package var derived = 0
        package var diskHits = 0
        /// Tiles read from the disk cache instead of encoded.
        package var tileDiskHits = 0
        package var encodes = 0
        package var stores = 0
        /// Decodes stopped part way because nothing wanted their photo any more.
        package var cancelled = 0
        package init() {}
    }
}
