import CAvif
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// libavif: the only Swift file that calls it. It decodes an AVIF's primary picture through dav1d
/// (Sources/CAvif says why not through libheif); libheif keeps the header, thumbnails and
/// metadata. libavif hands over the container's transforms rather than applying them: the clean
/// aperture (`clap`) is cut here, then `irot` (half turns; quarter turns go to libheif, see
/// `quarterTurned`) and `imir` turn the picture, in the order ISO/IEC 23000-22 (MIAF) gives them.
package enum AVIF {
    private static let library: pg_avif? = pg_avif_load()?.pointee
    /// The loaded functions. Only reached after `decode` has checked `library`.
    private static var avif: pg_avif { library! }

    /// Whether a libavif of the version photogrid was built against could be loaded.
    package static var isAvailable: Bool { library != nil }

    /// The primary picture, upright, transparency composited onto `PNG.background`, each side
    /// divided by `shrink` as it is converted (no copy at full size). nil when libavif is not
    /// there or cannot decode the file, for libheif to try; throws only what libheif could not
    /// do better (a file that ends early, memory). `maxPixels` is checked before pixels are
    /// decoded.
    package static func decode(_ data: [UInt8], shrink: Int, maxPixels: Int = JPEG.defaultMaxPixels) throws(DecodeError) -> RGBImage? {
        guard library != nil, !data.isEmpty, let decoder = avif.avifDecoderCreate() else { return nil }
        defer { avif.avifDecoderDestroy(decoder) }
        configure(decoder, maxPixels: maxPixels)
        let result = data.withUnsafeBytes { bytes -> avifResult in
            // libavif reads the bytes in place: parsing and decoding both happen in this closure.
            var result = avif.avifDecoderSetIOMemory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count)
            if result == AVIF_RESULT_OK { result = avif.avifDecoderParse(decoder) }
            if result == AVIF_RESULT_OK, quarterTurned(decoder.pointee.image) { return AVIF_RESULT_NOT_IMPLEMENTED }
            if result == AVIF_RESULT_OK { result = avif.avifDecoderNextImage(decoder) }
            return result
        }
        switch result {
        case AVIF_RESULT_OK: break
        case AVIF_RESULT_TRUNCATED_DATA: throw .truncatedFile(format: "AVIF")
        case AVIF_RESULT_OUT_OF_MEMORY: throw .outOfMemory
        default: return nil
        }
        guard let image = decoder.pointee.image else { return nil }
        return try convert(image, shrink: shrink)
    }

    /// The limits and leniency every decode here runs with.
    private static func configure(_ decoder: UnsafeMutablePointer<avifDecoder>, maxPixels: Int) {
        // One thread: the pipeline already runs a decode on each core.
        decoder.pointee.maxThreads = 1
        decoder.pointee.imageSizeLimit = UInt32(clamping: maxPixels)
        decoder.pointee.imageDimensionLimit = 1 << 15
        // Files that bend the spec (no `pixi` box, an odd `clap`) are shown as libheif shows them.
        decoder.pointee.strictFlags = UInt32(AVIF_STRICT_DISABLED.rawValue)
        decoder.pointee.ignoreExif = AVIF_TRUE
        decoder.pointee.ignoreXMP = AVIF_TRUE
    }

    /// Whether the file says it is an image sequence (its `ftyp` brands name `avis`): only
    /// those are read for frames, so that a still AVIF is not parsed twice.
    static func isSequence(_ data: [UInt8]) -> Bool {
        guard data.count >= 16, data[4..<8].elementsEqual("ftyp".utf8) else { return false }
        let size = min(data.count, Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3]))
        return stride(from: 8, to: size - 3, by: 4).contains { data[$0..<$0 + 4].elementsEqual("avis".utf8) }
    }

    /// An image sequence's frames in order, each with its time on screen in milliseconds, handed
    /// to `each` until it returns false; none for a still picture or without libavif. A frame
    /// that cannot be decoded ends the sequence after the frames before it.
    static func frames(_ data: [UInt8], maxPixels: Int, each: (RGBImage, Int) -> Bool) throws(DecodeError) {
        guard library != nil, isSequence(data), let decoder = avif.avifDecoderCreate() else { return }
        defer { avif.avifDecoderDestroy(decoder) }
        configure(decoder, maxPixels: maxPixels)
        let result = data.withUnsafeBytes { bytes in
            Result(catching: { () throws(DecodeError) in
                guard avif.avifDecoderSetIOMemory(decoder, bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count) == AVIF_RESULT_OK,
                      avif.avifDecoderParse(decoder) == AVIF_RESULT_OK, decoder.pointee.imageCount > 1 else { return }
                while avif.avifDecoderNextImage(decoder) == AVIF_RESULT_OK {
                    guard let image = decoder.pointee.image, let rgb = try convert(image, shrink: 1) else { return }
                    let seconds = decoder.pointee.imageTiming.duration
                    guard each(rgb, seconds.isFinite ? Int((seconds * 1000).rounded()) : 0) else { return }
                }
            })
        }
        try result.get()
    }

    /// A picture turned a quarter by `irot` is left to libheif. libheif up to 1.15 writes such a
    /// file's `ispe` with the turned size rather than the coded one, and libavif 0.11 then
    /// stretches the decoded picture to that size (seen here: a 64x96 AV1 frame came out 96x64);
    /// libheif reads both its own files and correct ones upright.
    private static func quarterTurned(_ image: UnsafeMutablePointer<avifImage>?) -> Bool {
        guard let image else { return false }
        return image.pointee.transformFlags & UInt32(AVIF_TRANSFORM_IROT.rawValue) != 0 && image.pointee.irot.angle & 1 == 1
    }

    private static func convert(_ decoded: UnsafeMutablePointer<avifImage>, shrink: Int) throws(DecodeError) -> RGBImage? {
        var image = decoded
        // The clean aperture, as a view into the same planes.
        var view: UnsafeMutablePointer<avifImage>?
        defer { if let view { avif.avifImageDestroy(view) } }
        if decoded.pointee.transformFlags & UInt32(AVIF_TRANSFORM_CLAP.rawValue) != 0 {
            var rect = avifCropRect(), diagnostics = avifDiagnostics()
            var clap = decoded.pointee.clap
            if avif.avifCropRectConvertCleanApertureBox(&rect, &clap, decoded.pointee.width, decoded.pointee.height,
                                                        decoded.pointee.yuvFormat, &diagnostics) == AVIF_TRUE,
               let cropped = avif.avifImageCreateEmpty() {
                view = cropped
                if avif.avifImageSetViewRect(cropped, decoded, &rect) == AVIF_RESULT_OK { image = cropped }
            }
        }
        let picture = image.pointee
        let width = Int(picture.width), height = Int(picture.height), bits = Int(picture.depth)
        guard width > 0, height > 0, (8...16).contains(bits) else { throw .corruptFile(format: "AVIF", "no pixels") }
        // Premultiplied alpha would need its colours divided first: libheif does that.
        if picture.alphaPlane != nil, picture.alphaPremultiplied == AVIF_TRUE { return nil }
        let planes = picture.yuvPlanes, strides = picture.yuvRowBytes
        guard let luma = planes.0 else { throw .corruptFile(format: "AVIF", "no pixels") }
        var converter = YCbCrPlanes(width: width, height: height, bits: bits, luma: .init(base: luma, stride: Int(strides.0)),
                                    chroma: nil, alpha: nil, matrix: Int(picture.matrixCoefficients), fullRange: picture.yuvRange == AVIF_RANGE_FULL)
        if picture.yuvFormat != AVIF_PIXEL_FORMAT_YUV400 {
            guard let cb = planes.1, let cr = planes.2 else { throw .corruptFile(format: "AVIF", "no pixels") }
            let halfWidth = picture.yuvFormat == AVIF_PIXEL_FORMAT_YUV420 || picture.yuvFormat == AVIF_PIXEL_FORMAT_YUV422
            let halfHeight = picture.yuvFormat == AVIF_PIXEL_FORMAT_YUV420
            converter.chroma = (.init(base: cb, stride: Int(strides.1)), .init(base: cr, stride: Int(strides.2)),
                                halfWidth ? (width + 1) / 2 : width, halfHeight ? (height + 1) / 2 : height)
        }
        if let alpha = picture.alphaPlane { converter.alpha = .init(base: alpha, stride: Int(picture.alphaRowBytes)) }
        var rgb = converter.rgb(shrink: shrink)
        // `irot` turns anticlockwise by quarter turns (only half turns reach here); `imir` mode 0 swaps top and bottom, 1 left
        // and right. Both apply to the shrunk picture. (A view keeps no transforms: they are read
        // from the decoded picture.)
        let transforms = decoded.pointee.transformFlags
        if transforms & UInt32(AVIF_TRANSFORM_IROT.rawValue) != 0 {
            if decoded.pointee.irot.angle & 3 == 2 { rgb = Orientation.down.apply(to: rgb) }
        }
        if transforms & UInt32(AVIF_TRANSFORM_IMIR.rawValue) != 0 {
            rgb = (pg_avif_mirror(decoded) == 0 ? Orientation.mirroredDown : .mirrored).apply(to: rgb)
        }
        return rgb
    }
}
