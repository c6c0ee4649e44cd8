/// How a photo fills its tile.
public enum FitMode: String, Hashable, Sendable {
    /// Covers the whole tile, centre cropped (the default: a grid of edge-to-edge squares).
    case fill
    /// The whole photo, letterboxed.
    case fit
}

/// Makes the pixels of one tile from a photo. The seam where tests put a fake.
public protocol PhotoDecoding: Sendable {
    func tileImage(of photo: Photo, width: Int, height: Int, fit: FitMode) throws(DecodeError) -> RGBImage
}

/// Turns a photo file into the pixels of one tile: read, decode at the smallest DCT scale that is
/// still large enough, stand it upright by its EXIF orientation, then resample to the exact box.
public struct PhotoDecoder: PhotoDecoding {
    public init() {}

    public func tileImage(of photo: Photo, width: Int, height: Int, fit: FitMode) throws(DecodeError) -> RGBImage {
        try PhotoDecoder.tileImage(of: photo, width: width, height: height, fit: fit)
    }

    /// The smallest libjpeg scale k/8 (k in 1...8) at which an image needs no enlarging to be
    /// shown at `factor` times its size; never above 8/8: enlarging is left to the resampler.
    public static func scaleEighths(forFactor factor: Double) -> Int {
        max(1, min(8, Int((factor * 8 - 1e-9).rounded(.up))))
    }

    /// The factor by which a `width` x `height` image (as displayed) is scaled into the box.
    public static func factor(width: Int, height: Int, box: (width: Int, height: Int), fit: FitMode) -> Double {
        let fx = Double(box.width) / Double(width), fy = Double(box.height) / Double(height)
        return fit == .fill ? max(fx, fy) : min(fx, fy)
    }

    public static func tileImage(of photo: Photo, width: Int, height: Int, fit: FitMode) throws(DecodeError) -> RGBImage {
        shape(try decodeUpright(photo, atLeast: (width, height), fit: fit), width: width, height: height, fit: fit)
    }

    /// The photo decoded large enough for `box`, oriented for display.
    public static func decodeUpright(_ photo: Photo, atLeast box: (width: Int, height: Int), fit: FitMode) throws(DecodeError) -> RGBImage {
        guard photo.format == .jpeg else {
            if case .other(let name) = photo.format { throw .unsupportedFormat(name) }
            throw .unsupportedFormat("")
        }
        return try decodeUpright(try FileReader.read(photo.path), atLeast: box, fit: fit)
    }

    public static func tileImage(fromJPEG data: [UInt8], width: Int, height: Int, fit: FitMode) throws(DecodeError) -> RGBImage {
        shape(try decodeUpright(data, atLeast: (width, height), fit: fit), width: width, height: height, fit: fit)
    }

    static func shape(_ upright: RGBImage, width: Int, height: Int, fit: FitMode) -> RGBImage {
        fit == .fill ? Resampler.fill(upright, width: width, height: height)
                     : Resampler.fit(upright, width: width, height: height)
    }

    /// Decodes at the smallest scale that still covers `box` in the given fit, oriented for display.
    public static func decodeUpright(_ data: [UInt8], atLeast box: (width: Int, height: Int), fit: FitMode) throws(DecodeError) -> RGBImage {
        if let format = sniffOtherFormat(data) { throw .unsupportedFormat(format) }
        let header = try JPEG.readHeader(data)
        let orientation = header.exif.map { ExifInfo.parse($0).orientation } ?? .up
        let shown = orientation.displaySize(width: header.width, height: header.height)
        let scale = scaleEighths(forFactor: factor(width: shown.width, height: shown.height, box: box, fit: fit))
        let decoded = try JPEG.decode(data, options: JPEG.DecodeOptions(scaleEighths: scale))
        return orientation.apply(to: decoded)
    }

    /// Names the format of data that is plainly not JPEG, for files with a .jpg name.
    public static func sniffOtherFormat(_ data: [UInt8]) -> String? {
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
