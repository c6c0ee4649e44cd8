import CWebP
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// libwebp and its demuxer: the only Swift file that calls them. Lossy, lossless and alpha; an
/// animation shows its first frame. libwebp scales while it decodes, so a tile never needs the
/// picture at full size.
package enum WebP {
    package struct Header: Sendable {
        package var width: Int, height: Int
        package var isAnimated: Bool
        package var size: (width: Int, height: Int) { (width, height) }
    }

    /// `RIFF....WEBP`.
    package static func isWebP(_ data: [UInt8]) -> Bool {
        data.count >= 12 && data[0..<4].elementsEqual("RIFF".utf8) && data[8..<12].elementsEqual("WEBP".utf8)
    }

    package static func readHeader(_ data: [UInt8], maxPixels: Int = JPEG.defaultMaxPixels) throws(DecodeError) -> Header {
        guard !data.isEmpty else { throw .empty }
        guard isWebP(data) else { throw .unsupportedFormat("") }
        var features = WebPBitstreamFeatures()
        let status = data.withUnsafeBufferPointer { WebPGetFeatures($0.baseAddress, $0.count, &features) }
        try check(status)
        let header = Header(width: Int(features.width), height: Int(features.height), isAnimated: features.has_animation != 0)
        guard header.width > 0, header.height > 0 else { throw .corruptFile(format: "WebP", "no pixels") }
        guard header.width * header.height <= maxPixels else { throw .tooLarge }
        return header
    }

    /// The picture (an animation's first frame) scaled while decoded to `width` x `height` (its
    /// own size where nil), transparency composited onto `PNG.background`.
    package static func decode(_ data: [UInt8], width: Int? = nil, height: Int? = nil,
                              maxPixels: Int = JPEG.defaultMaxPixels) throws(DecodeError) -> RGBImage {
        let header = try readHeader(data, maxPixels: maxPixels)
        guard header.isAnimated else { return try decodeStill(data, width: width, height: height) }
        // The first frame's own bitstream, found by the demuxer.
        let result = data.withUnsafeBufferPointer { buffer in
            Result(catching: { () throws(DecodeError) -> RGBImage in
                var whole = WebPData(bytes: buffer.baseAddress, size: buffer.count)
                guard let demux = WebPDemux(&whole) else { throw .corruptFile(format: "WebP", "animation unreadable") }
                defer { WebPDemuxDelete(demux) }
                var frame = WebPIterator()
                guard WebPDemuxGetFrame(demux, 1, &frame) != 0 else { throw .corruptFile(format: "WebP", "no first frame") }
                defer { WebPDemuxReleaseIterator(&frame) }
                let bytes = Array(UnsafeBufferPointer(start: frame.fragment.bytes, count: frame.fragment.size))
                return try decodeStill(bytes, width: width, height: height)
            })
        }
        return try result.get()
    }

    /// As `decode`, but a still picture whose file ends early gives the rows it has, the rest
    /// grey, and `isPartial` true (a file still being copied): libwebp's incremental decoder says
    /// how far it got. An animation, or a file with no whole row yet, still fails.
    package static func decodeWhatThereIs(_ data: [UInt8], width: Int? = nil, height: Int? = nil,
                                         maxPixels: Int = JPEG.defaultMaxPixels) throws(DecodeError) -> (image: RGBImage, isPartial: Bool) {
        do throws(DecodeError) {
            return (try decode(data, width: width, height: height, maxPixels: maxPixels), false)
        } catch .truncatedFile {
            let header = try readHeader(data, maxPixels: maxPixels)
            guard !header.isAnimated else { throw .truncatedFile(format: "WebP") }
            var config = try configuration(width: width, height: height)
            defer { WebPFreeDecBuffer(&config.output) }
            return try data.withUnsafeBufferPointer { bytes throws(DecodeError) -> (image: RGBImage, isPartial: Bool) in
                guard let decoder = WebPIDecode(nil, 0, &config) else { throw .outOfMemory }
                defer { WebPIDelete(decoder) }
                let status = WebPIUpdate(decoder, bytes.baseAddress, bytes.count)
                guard status == VP8_STATUS_SUSPENDED || status == VP8_STATUS_OK else { try check(status); throw .truncatedFile(format: "WebP") }
                var rows: Int32 = 0, w: Int32 = 0, h: Int32 = 0, stride: Int32 = 0
                guard let rgba = WebPIDecGetRGB(decoder, &rows, &w, &h, &stride), rows > 0 else { throw .truncatedFile(format: "WebP") }
                let image = composite(rgba, width: Int(w), height: Int(h), stride: Int(stride), rows: Int(rows))
                return (image, rows < h)
            }
        }
    }

    /// A decode to RGBA, scaled to `width` x `height` while it decodes where both are given.
    private static func configuration(width: Int?, height: Int?) throws(DecodeError) -> WebPDecoderConfig {
        var config = WebPDecoderConfig()
        guard WebPInitDecoderConfig(&config) != 0 else { throw .outOfMemory }
        if let width, let height, width > 0, height > 0 {
            config.options.use_scaling = 1
            config.options.scaled_width = Int32(width)
            config.options.scaled_height = Int32(height)
        }
        config.output.colorspace = MODE_RGBA
        return config
    }

    private static func decodeStill(_ data: [UInt8], width: Int?, height: Int?) throws(DecodeError) -> RGBImage {
        var config = try configuration(width: width, height: height)
        let status = data.withUnsafeBufferPointer { WebPDecode($0.baseAddress, $0.count, &config) }
        defer { WebPFreeDecBuffer(&config.output) }
        try check(status)
        let (w, h) = (Int(config.output.width), Int(config.output.height))
        guard w > 0, h > 0, let rgba = config.output.u.RGBA.rgba else { throw .corruptFile(format: "WebP", "no pixels") }
        return composite(rgba, width: w, height: h, stride: Int(config.output.u.RGBA.stride), rows: h)
    }

    /// An animation's frames on its canvas, in order, each with its time on screen in
    /// milliseconds, handed to `each` until it returns false (libwebp's animation decoder
    /// composes them: blending and disposal as the format says). A still picture has none.
    static func frames(_ data: [UInt8], maxPixels: Int, each: (RGBImage, Int) -> Bool) throws(DecodeError) {
        let header = try readHeader(data, maxPixels: maxPixels)
        guard header.isAnimated else { return }
        let result = data.withUnsafeBufferPointer { buffer in
            Result(catching: { () throws(DecodeError) in
                var whole = WebPData(bytes: buffer.baseAddress, size: buffer.count)
                var options = WebPAnimDecoderOptions()
                guard WebPAnimDecoderOptionsInit(&options) != 0 else { throw .unsupportedFormat("WebP animation") }
                options.color_mode = MODE_RGBA
                guard let decoder = WebPAnimDecoderNew(&whole, &options) else { throw .corruptFile(format: "WebP", "animation unreadable") }
                defer { WebPAnimDecoderDelete(decoder) }
                var info = WebPAnimInfo()
                guard WebPAnimDecoderGetInfo(decoder, &info) != 0 else { throw .corruptFile(format: "WebP", "animation unreadable") }
                let (w, h) = (Int(info.canvas_width), Int(info.canvas_height))
                guard w > 0, h > 0 else { throw .corruptFile(format: "WebP", "no pixels") }
                guard w * h <= maxPixels else { throw .tooLarge }
                var shownUntil: Int32 = 0
                while WebPAnimDecoderHasMoreFrames(decoder) != 0 {
                    var rgba: UnsafeMutablePointer<UInt8>?
                    var until: Int32 = 0
                    // A damaged frame ends the animation after the frames before it.
                    guard WebPAnimDecoderGetNext(decoder, &rgba, &until) != 0, let rgba else { return }
                    let image = composite(rgba, width: w, height: h, stride: w * 4, rows: h)
                    // The time given is when the frame's showing ends.
                    defer { shownUntil = until }
                    guard each(image, Int(until - shownUntil)) else { return }
                }
            })
        }
        try result.get()
    }

    /// RGBA rows onto `PNG.background`; rows past `rows` (not decoded yet) are the background.
    private static func composite(_ rgba: UnsafeMutablePointer<UInt8>, width w: Int, height h: Int, stride: Int, rows: Int) -> RGBImage {
        var image = RGBImage(width: w, height: h)
        let background = [PNG.background.r, PNG.background.g, PNG.background.b]
        for y in 0..<h {
            for x in 0..<w {
                let o = (y * w + x) * 3
                guard y < rows else { for c in 0..<3 { image.pixels[o + c] = UInt8(background[c]) }; continue }
                let p = y * stride + x * 4, a = Int(rgba[p + 3])
                for c in 0..<3 { image.pixels[o + c] = UInt8((Int(rgba[p + c]) * a + background[c] * (255 - a) + 127) / 255) }
            }
        }
        return image
    }

    private static func check(_ status: VP8StatusCode) throws(DecodeError) {
        switch status {
        case VP8_STATUS_OK: return
        case VP8_STATUS_NOT_ENOUGH_DATA: throw .truncatedFile(format: "WebP")
        case VP8_STATUS_OUT_OF_MEMORY: throw .outOfMemory
        case VP8_STATUS_UNSUPPORTED_FEATURE: throw .unsupportedFormat("WebP feature")
        default: throw .corruptFile(format: "WebP", "status \(status.rawValue)")
        }
    }
}
