import CSPNG
import PhotoGridCore

/// The test files' PNG encoder: tests and the sample gallery make their files with the library
/// that reads them. Kept out of the shipped library, which only decodes PNG.
extension PNG {

    /// A PNG of `image` (8-bit RGB, no interlacing), with an `eXIf` chunk of `exif` (TIFF data) and
    /// an iTXt chunk of `xmp` where given: for tests and the sample gallery, which make their files
    /// with the library that reads them, as sixel tests read back with libsixel.
    package static func encode(_ image: RGBImage, alpha: [UInt8]? = nil, bitDepth16: Bool = false,
                              exif: [UInt8]? = nil, xmp: String? = nil) -> [UInt8]? {
        guard let context = spng_ctx_new(Int32(SPNG_CTX_ENCODER.rawValue)) else { return nil }
        defer { spng_ctx_free(context) }
        spng_set_option(context, SPNG_ENCODE_TO_BUFFER, 1)
        // libspng keeps the pointers it is given until the image is written: copies that live
        // until this function returns.
        var kept: [UnsafeMutableBufferPointer<CChar>] = []
        defer { kept.forEach { $0.deallocate() } }
        func copy(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar> {
            let buffer = UnsafeMutableBufferPointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, byte) in (bytes + [0]).enumerated() { buffer[i] = CChar(bitPattern: byte) }
            kept.append(buffer)
            return buffer.baseAddress!
        }
        if let exif {
            var chunk = spng_exif(length: exif.count, data: copy(exif))
            guard spng_set_exif(context, &chunk) == 0 else { return nil }
        }
        if let xmp {
            var text = spng_text()
            withUnsafeMutableBytes(of: &text.keyword) { keyword in
                for (i, byte) in "XML:com.adobe.xmp".utf8.enumerated() { keyword[i] = byte }
            }
            text.type = Int32(SPNG_ITXT.rawValue)
            text.length = xmp.utf8.count
            text.text = copy(Array(xmp.utf8))
            text.language_tag = copy([])
            text.translated_keyword = copy([])
            guard spng_set_text(context, &text, 1) == 0 else { return nil }
        }
        let channels = alpha == nil ? 3 : 4
        var ihdr = spng_ihdr(width: UInt32(image.width), height: UInt32(image.height), bit_depth: bitDepth16 ? 16 : 8,
                             color_type: UInt8(alpha == nil ? SPNG_COLOR_TYPE_TRUECOLOR.rawValue : SPNG_COLOR_TYPE_TRUECOLOR_ALPHA.rawValue),
                             compression_method: 0, filter_method: 0, interlace_method: 0)
        spng_set_ihdr(context, &ihdr)
        var samples: [UInt8] = []
        for i in 0..<(image.width * image.height) {
            for c in 0..<channels {
                let value = c < 3 ? image.pixels[i * 3 + c] : alpha![i]
                samples.append(value)
                if bitDepth16 { samples.append(value) }   // 0xAB -> 0xABAB: the same level in 16 bits
            }
        }
        let status = samples.withUnsafeBytes {
            spng_encode_image(context, $0.baseAddress, $0.count, Int32(SPNG_FMT_PNG.rawValue), Int32(SPNG_ENCODE_FINALIZE.rawValue))
        }
        guard status == 0 else { return nil }
        var length = 0, error: Int32 = 0
        guard let buffer = spng_get_png_buffer(context, &length, &error), error == 0 else { return nil }
        defer { free(buffer) }
        return Array(UnsafeRawBufferPointer(start: buffer, count: length).bindMemory(to: UInt8.self))
    }
}
