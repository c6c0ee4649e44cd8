import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A camera's larger preview (`MultiPicture`: VGA to full-HD sized, by the standard's types)
/// stands in for the photo wherever it covers the size asked for, as the EXIF
/// thumbnail does for the smallest tiles: a grid or `--print` tile of an 18-50 MP photo then
/// decodes a full-HD picture's data, a tenth to a thirtieth of the photo's. Larger sizes (the
/// zoom view, one column on a wide terminal) still decode the photo itself.
extension PhotoDecoder {
    /// Past this a "preview" is no preview.
    package static let largestPreview = 16 << 20

    /// The preview, upright by the photo's own orientation and cut to its shape, its short side
    /// between `size` and `limit`; nil when there is none, `read` cannot give its bytes (a file
    /// cut short, a stale index after an editor dropped what followed the photo), it is not a
    /// JPEG smaller than the photo and of its shape, or it does not cover `size`. Nothing about
    /// it fails the photo: the photo is decoded instead.
    func preview(_ header: JPEG.Header, covering size: Int, atMost limit: Int,
                 read: (Range<Int>) -> [UInt8]?) throws(DecodeError) -> DecodedImage? {
        guard usesThumbnails, let range = header.preview, range.count <= PhotoDecoder.largestPreview,
              let data = read(range), data.count == range.count, data.starts(with: [0xFF, 0xD8, 0xFF]),
              PhotoDecoder.sniffOtherFormat(data) == nil,
              let inner = try? JPEG.readHeader(data, maxPixels: header.width * header.height),
              inner.width < header.width, inner.height < header.height, min(inner.width, inner.height) >= 16 else { return nil }
        // A camera letterboxes a photo of another shape (16:9 into 3:2); any more than a
        // quarter off is another picture (a stereo view the entry mislabels), not this photo.
        let region = Resampler.centreCrop(width: inner.width, height: inner.height, toAspectOf: header.width, header.height)
        guard region.width >= Double(inner.width) * 0.75, region.height >= Double(inner.height) * 0.75 else { return nil }
        let short = min(region.width, region.height)
        guard short >= Double(size) else { return nil }
        let scale = PhotoDecoder.scaleEighths(forFactor: Double(size) / short)
        var options = JPEG.DecodeOptions(scaleEighths: scale)
        options.cancel = CancelFlag.current
        if usesShortcuts { (options.fast, options.partialScans) = (scale <= 2, scale <= 2) }
        let decoded: RGBImage
        do throws(DecodeError) {
            decoded = try gate.run(bytes: PhotoDecoder.decodeBytes(inner, scale: scale)) { () throws(DecodeError) in
                try JPEG.decode(data, options: options)
            }
        } catch .cancelled {
            throw .cancelled
        } catch {
            return nil
        }
        let shaped = PhotoDecoder.shrink(decoded, region: region, scale: scale, shortSide: limit)
        let orientation = header.exif.map { ExifInfo.parse($0).orientation } ?? .up
        // The preview's own profile where it has one, else the photo's: a camera set to Adobe
        // RGB writes both in it.
        let kept = ColourProfile.toSRGB(orientation.apply(to: shaped), profile: inner.icc ?? header.icc)
        return DecodedImage(image: kept, origin: .embeddedPreview)
    }

    /// `region` of a picture that libjpeg decoded at `scale` eighths into `image`, its short side
    /// at most `shortSide`, in one resampling. The region is mapped by the scale itself, not by
    /// the output's size: libjpeg rounds a scaled size up, so a 1077-row preview at 2/8 comes
    /// out 270 rows tall of which the last is three quarters padding, and taking all 270 as the
    /// picture stretched it by a quarter of a row (a tile's horizons visibly a pixel off at its
    /// foot: 30 dB against a Lanczos reference where the photo's own decode gave 48).
    static func shrink(_ image: RGBImage, region: Resampler.Region, scale: Int, shortSide: Int, keepsPadding: Bool = false) -> RGBImage {
        let s = Double(scale) / 8
        let content = Resampler.Region(x: region.x * s, y: region.y * s, width: region.width * s, height: region.height * s)
        let k = min(1, Double(shortSide) / min(content.width, content.height))
        let width = max(1, Int((content.width * k).rounded())), height = max(1, Int((content.height * k).rounded()))
        if content.x == 0, content.y == 0 {
            // Exactly the picture already.
            if Double(width) == content.width, Double(height) == content.height, width == image.width, height == image.height { return image }
            // Not shrunk: the photo's own decode keeps its fraction of a padded row rather than
            // resample at 1:1, which on the benchmark's camera set gained one tile 4 dB (1680x1050
            // at 2/8) and cost another 2 dB for softness (5640x3172 at 1/8). Its tiles are cut
            // from it later, shrunk then.
            if keepsPadding && k == 1 { return image }
        }
        return Resampler.resample(image, region: content, width: width, height: height)
    }
}
