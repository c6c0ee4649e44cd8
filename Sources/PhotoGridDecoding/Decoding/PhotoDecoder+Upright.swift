import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Whole photos decoded upright for a box (`--print`), the scale sums tiles share with them,
/// and why a file that is not what its name says is not shown.
extension PhotoDecoder {
    /// `image` shrunk so that its short side is `shortSide`; never enlarged.
    package static func scaled(_ image: RGBImage, shortSide: Int) -> RGBImage {
        let short = min(image.width, image.height)
        guard short > shortSide, shortSide > 0 else { return image }
        let factor = Double(shortSide) / Double(short)
        let width = max(1, Int((Double(image.width) * factor).rounded()))
        let height = max(1, Int((Double(image.height) * factor).rounded()))
        let whole = Resampler.Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        return Resampler.resample(image, region: whole, width: width, height: height)
    }

    /// The smallest libjpeg scale k/8 (k in 1...8) at which an image needs no enlarging to be
    /// shown at `factor` times its size; never above 8/8: enlarging is left to the resampler.
    package static func scaleEighths(forFactor factor: Double) -> Int {
        max(1, min(8, Int((factor * 8 - 1e-9).rounded(.up))))
    }

    /// The factor by which a `width` x `height` image (as displayed) is scaled into the box.
    package static func factor(width: Int, height: Int, box: (width: Int, height: Int), fit: FitMode) -> Double {
        let fx = Double(box.width) / Double(width), fy = Double(box.height) / Double(height)
        return fit == .fill ? max(fx, fy) : min(fx, fy)
    }

    /// A tile's pixels from an upright image: centre-cropped (fill) or letterboxed (fit).
    package static func shape(_ upright: RGBImage, width: Int, height: Int, fit: FitMode) -> RGBImage {
        fit == .fill ? Resampler.fill(upright, width: width, height: height)
                     : Resampler.fit(upright, width: width, height: height)
    }

    /// JPEG data decoded large enough for `box`, upright: for `--print` of a single photo.
    package static func decodeUpright(_ data: [UInt8], atLeast box: (width: Int, height: Int), fit: FitMode) throws(DecodeError) -> RGBImage {
        if let content = ImageFormat(content: Array(data.prefix(16))), content != .jpeg {
            return try decodeUpright(data, as: content, atLeast: box, fit: fit)
        }
        if let format = sniffOtherFormat(data) { throw .unsupportedFormat(format) }
        let header = try JPEG.readHeader(data)
        let orientation = header.exif.map { ExifInfo.parse($0).orientation } ?? .up
        let shown = orientation.displaySize(width: header.width, height: header.height)
        let scale = scaleEighths(forFactor: factor(width: shown.width, height: shown.height, box: box, fit: fit))
        return ColourProfile.toSRGB(orientation.apply(to: try JPEG.decode(data, options: JPEG.DecodeOptions(scaleEighths: scale))), profile: header.icc)
    }

    package static func decodeUpright(_ photo: Photo, atLeast box: (width: Int, height: Int), fit: FitMode) throws(DecodeError) -> RGBImage {
        // The content says what the file is (`--print IMG_0001` included); the name only when it
        // says nothing, to say why the file is not shown.
        let path = try file(of: photo)
        let content = ImageFormat(content: try OpenFile(path, limit: .max).head(16))
        // A video: its frame, as its tile shows it.
        if content?.isVideo == true || (content == nil && photo.format.isVideo) {
            let name = (content ?? photo.format).name
            guard VideoFrame.isInstalled else {
                throw .unavailable("\(name): photogrid takes its frames with ffmpeg, which is not installed (apt install ffmpeg)", retryable: false)
            }
            guard let frame = try VideoFrame.frame(of: path, shortSide: max(box.width, box.height), format: name) else {
                throw .unavailable("\(name): ffmpeg found no frame in it", retryable: false)
            }
            return frame
        }
        let data = try FileReader.read(path)
        if photo.format.isRaw { return try decodeUpright(data, as: photo.format, atLeast: box, fit: fit) }
        let head = Array(data.prefix(16))
        if ImageFormat(content: head) == nil { try checkFormat(photo, head: head) }
        return try decodeUpright(data, atLeast: box, fit: fit)
    }

    /// A picture not JPEG, large enough for `box` (the short side it needs, through the same
    /// decode and limits as tiles): for `--print` of a single photo.
    static func decodeUpright(_ data: [UInt8], as format: ImageFormat, atLeast box: (width: Int, height: Int), fit: FitMode) throws(DecodeError) -> RGBImage {
        let (width, height) = try displaySize(format, data)
        let size = Int((Double(min(width, height)) * min(1, factor(width: width, height: height, box: box, fit: fit))).rounded(.up))
        return try decode(data, as: format, covering: size, atMost: .max, thumbnails: false).image
    }

    /// Why a file whose content is no format photogrid knows is not shown, by what its name says
    /// it is; a name that says JPEG is left to libjpeg, which says what is wrong.
    static func checkFormat(_ photo: Photo, head: [UInt8]) throws(DecodeError) {
        guard !head.isEmpty else { throw .empty }
        switch photo.format.family {
        case .picture:
            if photo.format == .jpeg { return }
            throw .corruptFile(format: photo.format.name, "not a \(photo.format.name) file")
        case .raw: return
        case .video, .other: throw .unsupportedFormat(photo.format.name)
        case .notAnImage: throw .unsupportedFormat("")
        }
    }

    /// Names the format of data that is plainly not JPEG, for files with a .jpg name.
    package static func sniffOtherFormat(_ data: [UInt8]) -> String? {
        func starts(_ prefix: [UInt8], at offset: Int = 0) -> Bool {
            data.count >= offset + prefix.count && Array(data[offset..<(offset + prefix.count)]) == prefix
        }
        if starts([0xFF, 0xD8]) { return nil }
        if starts([0x89, 0x50, 0x4E, 0x47]) { return "PNG" }
        if starts(Array("GIF8".utf8)) { return "GIF" }
        if starts(Array("RIFF".utf8)) && starts(Array("WEBP".utf8), at: 8) { return "WebP" }
        if starts(Array("ftyp".utf8), at: 4) { return "HEIF" }
        if starts([0x49, 0x49, 0x2A, 0x00]) || starts([0x4D, 0x4D, 0x00, 0x2A]) { return "TIFF" }
        if starts(Array("BM".utf8)) { return "BMP" }
        return nil
    }
}
