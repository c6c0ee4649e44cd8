import CJxl
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// libjxl: the only Swift file that calls it, loaded on first use (Sources/CJxl). A JPEG XL (lossy or lossless, a bare codestream or
/// in its container) shows its first frame, upright (libjxl applies the orientation of its
/// header), in 8 bits a channel, transparency over `PNG.background`. libjxl 0.7 has no decode at
/// a smaller scale: the frame is made whole, so it is refused past
/// `PhotoDecoder.wholeDecodeMaxPixels`.
package enum JXL {
    package struct Header: Sendable {
        /// As shown (the orientation applied).
        package var width: Int, height: Int
        package var hasAlpha: Bool
    }

    /// A bare codestream (FF 0A) or the container's signature box.
    package static func isJXL(_ data: [UInt8]) -> Bool {
        if data.count >= 2 && data[0] == 0xFF && data[1] == 0x0A { return true }
        return data.starts(with: [0, 0, 0, 0x0C, 0x4A, 0x58, 0x4C, 0x20, 0x0D, 0x0A, 0x87, 0x0A])
    }

    package static func readHeader(_ data: [UInt8]) throws(DecodeError) -> Header {
        try decode(data, image: false, maxPixels: .max).header
    }

    package static func decode(_ data: [UInt8], maxPixels: Int = PhotoDecoder.wholeDecodeMaxPixels) throws(DecodeError) -> RGBImage {
        try decodeWithProfile(data, maxPixels: maxPixels).image
    }

    /// The first frame, and the ICC profile of its pixels as libjxl hands them out (the
    /// original's space, or sRGB it converted to): converted by the caller on the pixels it keeps.
    package static func decodeWithProfile(_ data: [UInt8], maxPixels: Int = PhotoDecoder.wholeDecodeMaxPixels) throws(DecodeError)
        -> (image: RGBImage, profile: [UInt8]?) {
        let decoded = try decode(data, image: true, maxPixels: maxPixels)
        guard let image = decoded.image else { throw .corruptFile(format: "JPEG XL", "no frame") }
        return (image, decoded.profile)
    }

    private static func decode(_ data: [UInt8], image wanted: Bool, maxPixels: Int) throws(DecodeError)
        -> (header: Header, image: RGBImage?, profile: [UInt8]?) {
        guard isJXL(data) else { throw .corruptFile(format: "JPEG XL", "not a JPEG XL") }
        guard let jxl = pg_jxl_load()?.pointee else { throw .unsupportedFormat("JPEG XL: libjxl is not installed") }
        guard let decoder = jxl.JxlDecoderCreate(nil) else { throw .corrupt("out of memory") }
        defer { jxl.JxlDecoderDestroy(decoder) }
        let events = Int32(JXL_DEC_BASIC_INFO.rawValue)
            | (wanted ? Int32(JXL_DEC_COLOR_ENCODING.rawValue) | Int32(JXL_DEC_FULL_IMAGE.rawValue) : 0)
        guard jxl.JxlDecoderSubscribeEvents(decoder, events) == JXL_DEC_SUCCESS else { throw .corrupt("libjxl refused the events") }
        return try data.withUnsafeBufferPointer { input throws(DecodeError) -> (Header, RGBImage?, [UInt8]?) in
            guard jxl.JxlDecoderSetInput(decoder, input.baseAddress, input.count) == JXL_DEC_SUCCESS else { throw .corrupt("libjxl refused the input") }
            jxl.JxlDecoderCloseInput(decoder)
            var header: Header?
            var format = JxlPixelFormat(num_channels: 3, data_type: JXL_TYPE_UINT8, endianness: JXL_NATIVE_ENDIAN, align: 0)
            var pixels: [UInt8] = []
            var profile: [UInt8]?
            while true {
                let status = jxl.JxlDecoderProcessInput(decoder)
                switch status {
                case JXL_DEC_BASIC_INFO:
                    var info = JxlBasicInfo()
                    guard jxl.JxlDecoderGetBasicInfo(decoder, &info) == JXL_DEC_SUCCESS else { throw .corruptFile(format: "JPEG XL", "no header") }
                    let turned = info.orientation.rawValue >= 5
                    let found = Header(width: Int(turned ? info.ysize : info.xsize), height: Int(turned ? info.xsize : info.ysize),
                                       hasAlpha: info.alpha_bits > 0)
                    guard found.width > 0, found.height > 0 else { throw .corruptFile(format: "JPEG XL", "no size") }
                    if !wanted { return (found, nil, nil) }
                    guard found.width * found.height <= maxPixels else { throw .tooLarge }
                    header = found
                    format.num_channels = found.hasAlpha ? 4 : 3
                case JXL_DEC_COLOR_ENCODING:
                    var size = 0
                    if jxl.JxlDecoderGetICCProfileSize(decoder, &format, JXL_COLOR_PROFILE_TARGET_DATA, &size) == JXL_DEC_SUCCESS,
                       size > 0, size <= ColourProfile.maxProfileBytes {
                        var bytes = [UInt8](repeating: 0, count: size)
                        let got = bytes.withUnsafeMutableBufferPointer {
                            jxl.JxlDecoderGetColorAsICCProfile(decoder, &format, JXL_COLOR_PROFILE_TARGET_DATA, $0.baseAddress, size)
                        }
                        if got == JXL_DEC_SUCCESS { profile = bytes }
                    }
                case JXL_DEC_NEED_IMAGE_OUT_BUFFER:
                    guard let header else { throw .corruptFile(format: "JPEG XL", "no header") }
                    var size = 0
                    guard jxl.JxlDecoderImageOutBufferSize(decoder, &format, &size) == JXL_DEC_SUCCESS,
                          size == header.width * header.height * Int(format.num_channels) else {
                        throw .corruptFile(format: "JPEG XL", "unexpected frame size")
                    }
                    pixels = [UInt8](repeating: 0, count: size)
                    let set = pixels.withUnsafeMutableBytes { jxl.JxlDecoderSetImageOutBuffer(decoder, &format, $0.baseAddress, size) }
                    guard set == JXL_DEC_SUCCESS else { throw .corrupt("libjxl refused the buffer") }
                case JXL_DEC_FULL_IMAGE:
                    // The first frame is enough: an animation's later ones are not made.
                    guard let header else { throw .corruptFile(format: "JPEG XL", "no header") }
                    return (header, image(pixels, header: header), profile)
                case JXL_DEC_NEED_MORE_INPUT:
                    throw .truncatedFile(format: "JPEG XL")
                case JXL_DEC_SUCCESS:
                    // The end, and not the frame asked for.
                    throw .truncatedFile(format: "JPEG XL")
                default:
                    throw .corruptFile(format: "JPEG XL", "undecodable")
                }
            }
        }
    }

    /// RGB, or RGBA with the alpha over the background, as an RGB image.
    private static func image(_ pixels: [UInt8], header: Header) -> RGBImage {
        guard header.hasAlpha else { return RGBImage(width: header.width, height: header.height, pixels: pixels) }
        let background = PNG.background
        var rgb = [UInt8](repeating: 0, count: header.width * header.height * 3)
        for i in 0..<(header.width * header.height) {
            let alpha = Int(pixels[i * 4 + 3]), rest = 255 - alpha
            rgb[i * 3] = UInt8((Int(pixels[i * 4]) * alpha + background.r * rest + 127) / 255)
            rgb[i * 3 + 1] = UInt8((Int(pixels[i * 4 + 1]) * alpha + background.g * rest + 127) / 255)
            rgb[i * 3 + 2] = UInt8((Int(pixels[i * 4 + 2]) * alpha + background.b * rest + 127) / 255)
        }
        return RGBImage(width: header.width, height: header.height, pixels: rgb)
    }
}
