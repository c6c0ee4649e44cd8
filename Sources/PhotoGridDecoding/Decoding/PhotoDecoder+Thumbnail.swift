import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The EXIF thumbnail (IFD1): a small JPEG that cameras and phones embed, often 160x120.
extension PhotoDecoder {
    /// The thumbnail inside `data`, upright by the photo's orientation and centre-cut to the
    /// photo's shape (cameras letterbox a 3:2 photo's thumbnail into 4:3 with black bars).
    /// nil when there is none or it does not decode: a bad thumbnail must not fail the photo.
    /// Whether the thumbnail, cut to the photo's shape as `thumbnail` cuts it, is at least `size`
    /// on its short side (or the photo's own, when that is smaller), by its frame header alone:
    /// a 160x120 thumbnail is not decoded for a 400-pixel tile only to be found too small.
    package static func thumbnailMayCover(_ header: JPEG.Header, _ size: Int) -> Bool {
        guard let exif = header.exif, let range = ExifInfo.parse(exif).thumbnail else { return false }
        let frame = JPEGSegments.parse(Array(exif[range]))
        guard let width = frame.width, let height = frame.height, header.width > 0, header.height > 0 else { return false }
        let region = Resampler.centreCrop(width: width, height: height, toAspectOf: header.width, header.height)
        return Int(min(region.width, region.height).rounded()) >= min(size, header.width, header.height)
    }

    package static func thumbnail(header: JPEG.Header, data: [UInt8]) -> RGBImage? {
        guard let exif = header.exif else { return nil }
        let info = ExifInfo.parse(exif)
        guard let range = info.thumbnail, range.count > 4 else { return nil }
        let bytes = Array(exif[range])
        guard let thumbHeader = try? JPEG.readHeader(bytes, maxPixels: 4_000_000),
              thumbHeader.width >= 16, thumbHeader.height >= 16,
              let stored = try? JPEG.decode(bytes, options: JPEG.DecodeOptions(scaleEighths: 8)) else { return nil }
        let upright = info.orientation.apply(to: stored)
        let shown = info.orientation.displaySize(width: header.width, height: header.height)
        let region = Resampler.centreCrop(width: upright.width, height: upright.height, toAspectOf: shown.width, shown.height)
        let width = Int(region.width.rounded()), height = Int(region.height.rounded())
        guard width >= 8, height >= 8 else { return nil }
        if width == upright.width && height == upright.height { return upright }
        return Resampler.resample(upright, region: region, width: width, height: height)
    }
}
