import CWebP
import PhotoGridCore

/// The test files' WebP encoder: tests and the sample gallery make their files with the library
/// that reads them. Kept out of the shipped library, which only decodes WebP.
extension WebP {

    /// A lossless WebP of `image` (lossy at `lossyQuality`, 0-100), with `alpha` where given: for tests, which make their files
    /// with the library that reads them.
    package static func encode(_ image: RGBImage, alpha: [UInt8]? = nil, lossyQuality: Float? = nil) -> [UInt8]? {
        var rgba: [UInt8] = []
        for i in 0..<(image.width * image.height) {
            rgba += [image.pixels[i * 3], image.pixels[i * 3 + 1], image.pixels[i * 3 + 2], alpha?[i] ?? 255]
        }
        var output: UnsafeMutablePointer<UInt8>? = nil
        let size = lossyQuality.map { WebPEncodeRGBA(rgba, Int32(image.width), Int32(image.height), Int32(image.width * 4), $0, &output) }
            ?? WebPEncodeLosslessRGBA(rgba, Int32(image.width), Int32(image.height), Int32(image.width * 4), &output)
        guard size > 0, let output else { return nil }
        defer { WebPFree(output) }
        return Array(UnsafeBufferPointer(start: output, count: size))
    }
}
