import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Makes a rendition: a photo upright, its long side a given size, as a JPEG.
///
/// PhotoDecoder does the decoding: libjpeg's DCT scaling to the smallest scale whose output still
/// covers the size (a 256 rendition of a 24 MP photo decodes 1/8 of it), the EXIF orientation
/// applied, and the resampler takes it the rest of the way. The rendition is written without
/// EXIF, so it carries no orientation tag that a client could apply a second time.
enum Rendition {
    static let quality = 85
    /// Goes into the renditions' ETags: raise it when what is made for the same file changes
    /// (quality, filter), so that clients do not keep the old renditions.
    static let formatVersion: UInt64 = 1

    /// JPEG bytes of `data`'s picture (JPEG, PNG, WebP, GIF, HEIF or AVIF) with its long side
    /// `longSide`, or its own size when smaller.
    static func make(from data: [UInt8], longSide: Int) throws(DecodeError) -> [UInt8] {
        let (width, height) = try PhotoDecoder.displaySize(of: data)
        guard width > 0, height > 0 else { throw .truncated }
        let target = size(width: width, height: height, longSide: longSide)
        // Thumbnails off: an EXIF thumbnail is a blurry 160 px, fine for a terminal tile that
        // small but not for a rendition a client may show at any size.
        let decoded = try PhotoDecoder(usesThumbnails: false)
            .decode(data, covering: min(target.width, target.height), atMost: Int.max).image
        var image = decoded
        if decoded.width != target.width || decoded.height != target.height {
            let whole = Resampler.Region(x: 0, y: 0, width: Double(decoded.width), height: Double(decoded.height))
            image = Resampler.resample(decoded, region: whole, width: target.width, height: target.height)
        }
        return try JPEG.encode(image, quality: quality)
    }

    /// Renditions of every size in `longSides` from one decode, at the largest: what an export
    /// makes of each photo.
    static func makeAll(from data: [UInt8], longSides: [Int]) throws(DecodeError) -> [Int: [UInt8]] {
        let (width, height) = try PhotoDecoder.displaySize(of: data)
        guard width > 0, height > 0, let largest = longSides.max() else { throw .truncated }
        let top = size(width: width, height: height, longSide: largest)
        let decoded = try PhotoDecoder(usesThumbnails: false)
            .decode(data, covering: min(top.width, top.height), atMost: Int.max).image
        var made: [Int: [UInt8]] = [:]
        for longSide in longSides {
            let target = size(width: width, height: height, longSide: longSide)
            var image = decoded
            if decoded.width != target.width || decoded.height != target.height {
                let whole = Resampler.Region(x: 0, y: 0, width: Double(decoded.width), height: Double(decoded.height))
                image = Resampler.resample(decoded, region: whole, width: target.width, height: target.height)
            }
            made[longSide] = try JPEG.encode(image, quality: quality)
        }
        return made
    }

    /// The rendition's size for a photo of `width` x `height` as displayed: the long side
    /// `longSide` (never more than the photo's), the short one in proportion, at least 1.
    static func size(width: Int, height: Int, longSide: Int) -> (width: Int, height: Int) {
        let long = max(width, height), short = min(width, height)
        let newLong = min(longSide, long)
        let newShort = max(1, Int((Double(short) * Double(newLong) / Double(long)).rounded()))
        return width >= height ? (newLong, newShort) : (newShort, newLong)
    }
}
