import CSixel
import Glibc

/// libsixel: the only Swift file that calls it.
public enum Sixel {
    public struct Failure: Error, CustomStringConvertible {
        public let description: String
    }

    /// How the palette's error is spread over neighbouring pixels.
    public enum Diffusion: String, CaseIterable, Sendable {
        case floydSteinberg, atkinson, positional, none

        var libsixel: Int32 {
            switch self {
            case .floydSteinberg: return SIXEL_DIFFUSE_FS
            case .atkinson: return SIXEL_DIFFUSE_ATKINSON
            case .positional: return SIXEL_DIFFUSE_A_DITHER
            case .none: return SIXEL_DIFFUSE_NONE
            }
        }
    }

    /// A whole DCS sixel sequence (`ESC P q ... ESC \`) drawing `image` with an adaptive palette
    /// of at most `colors` registers.
    public static func encode(_ image: RGBImage, colors: Int = 256, diffusion: Diffusion = .floydSteinberg) throws(Failure) -> [UInt8] {
        guard image.width > 0, image.height > 0 else { throw Failure(description: "empty image") }
        let sink = Sink()
        var output: OpaquePointer? = nil
        var dither: OpaquePointer? = nil
        defer {
            if let dither { sixel_dither_unref(dither) }
            if let output { sixel_output_unref(output) }
        }
        let context = Unmanaged.passUnretained(sink).toOpaque()
        guard !failed(sixel_output_new(&output, sinkWrite, context, nil)),
              !failed(sixel_dither_new(&dither, Int32(max(2, min(256, colors))), nil)) else {
            throw Failure(description: "libsixel could not start")
        }
        // libsixel builds its palette from a histogram of 5 bits per channel, truncating: every
        // colour comes out up to 8 levels too dark. Half a step added to the sample it builds the
        // palette from makes that rounding; the pixels themselves are dithered unchanged.
        var sample = image.pixels.map { $0 > 251 ? 255 : $0 &+ 4 }
        // sixel_encode may dither in place: give it a copy.
        var pixels = image.pixels
        let initialized: SIXELSTATUS = sample.withUnsafeMutableBufferPointer { buffer in
            sixel_dither_initialize(dither, buffer.baseAddress, Int32(image.width), Int32(image.height),
                                    pg_sixel_pixelformat_rgb888, SIXEL_LARGE_AUTO, SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO)
        }
        if failed(initialized) { throw Failure(description: "libsixel could not build a palette (status \(initialized))") }
        sixel_dither_set_diffusion_type(dither, diffusion.libsixel)
        let status: SIXELSTATUS = pixels.withUnsafeMutableBufferPointer { buffer in
            sixel_encode(buffer.baseAddress, Int32(image.width), Int32(image.height), 3, dither, output)
        }
        withExtendedLifetime(sink) {}
        if failed(status) { throw Failure(description: "libsixel could not encode (status \(status))") }
        return sink.bytes
    }

    /// Pixels of a sixel sequence, through libsixel's decoder: how tests read back what photogrid drew.
    public static func decode(_ bytes: [UInt8]) -> RGBImage? {
        var input = bytes
        var indexed: UnsafeMutablePointer<UInt8>? = nil
        var palette: UnsafeMutablePointer<UInt8>? = nil
        var width: Int32 = 0, height: Int32 = 0, colors: Int32 = 0
        let status = input.withUnsafeMutableBufferPointer { buffer in
            sixel_decode_raw(buffer.baseAddress, Int32(buffer.count), &indexed, &width, &height, &palette, &colors, nil)
        }
        defer { free(indexed); free(palette) }
        guard !failed(status), let indexed, let palette, width > 0, height > 0 else { return nil }
        var image = RGBImage(width: Int(width), height: Int(height))
        for i in 0..<(Int(width) * Int(height)) {
            let p = Int(indexed[i]) * 3
            image.pixels[i * 3] = palette[p]
            image.pixels[i * 3 + 1] = palette[p + 1]
            image.pixels[i * 3 + 2] = palette[p + 2]
        }
        return image
    }

    private static func failed(_ status: SIXELSTATUS) -> Bool { pg_sixel_failed(status) != 0 }

    /// Collects what libsixel writes; reached from C through an unretained pointer.
    private final class Sink {
        var bytes: [UInt8] = []
    }

    private static let sinkWrite: sixel_write_function = { data, size, context in
        guard let data, let context, size > 0 else { return 0 }
        let sink = Unmanaged<Sink>.fromOpaque(context).takeUnretainedValue()
        data.withMemoryRebound(to: UInt8.self, capacity: Int(size)) { sink.bytes.append(contentsOf: UnsafeBufferPointer(start: $0, count: Int(size))) }
        return size
    }
}
