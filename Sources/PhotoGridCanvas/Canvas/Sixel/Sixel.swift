import CSixel
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// libsixel: the only Swift file that calls it.
package enum Sixel {
    package struct Failure: Error, CustomStringConvertible {
        package let description: String
    }

    /// How the palette's error is spread over neighbouring pixels.
    package enum Diffusion: String, CaseIterable, Sendable {
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

    /// What writes the sixel data once libsixel has made the palette and dithered: photogrid's
    /// `SixelWriter` (the same pixels; a 400-pixel tile's whole encode 13.9 ms with libsixel's
    /// writer, 10.0 with it), or libsixel's own, kept for comparing (`photogrid-bench sixel`).
    package enum Writer: String, CaseIterable, Sendable {
        case photogrid, libsixel
    }

    /// Who dithers with Floyd-Steinberg once libsixel has made the palette: photogrid's
    /// `SixelDither` (the same indices, a fraction of the time) or libsixel, kept for comparing.
    /// The other diffusions are libsixel's.
    package enum Ditherer: String, CaseIterable, Sendable {
        case photogrid, libsixel
    }

    /// A whole DCS sixel sequence (`ESC P q ... ESC \`) drawing `image` with an adaptive palette
    /// of at most `colors` registers.
    package static func encode(_ image: consuming RGBImage, colors: Int = 256, diffusion: Diffusion = .floydSteinberg,
                               writer: Writer = .photogrid, ditherer: Ditherer = .photogrid) throws(Failure) -> [UInt8] {
        let width = image.width
        return try encode(image, columns: [0, width], colors: colors, diffusion: diffusion, writer: writer, ditherer: ditherer)[0]
    }

    /// One palette built and one dithering made for the whole of `image`, then the image written
    /// as pictures side by side, columns `edges[k]..<edges[k + 1]`, each a whole DCS sequence.
    ///
    /// Why: libsixel's writer keeps each band's runs in a list sorted by insertion, so a band costs
    /// the square of its runs, and a dithered photo has runs of a few pixels: an 800-pixel tile
    /// spends most of its encode there. Narrow pictures have fewer runs a band; sharing the palette
    /// and dithering the whole leaves no seam between them.
    ///
    /// `image` is taken: where the caller has no other copy, the dithering works in its pixels.
    package static func encode(_ image: consuming RGBImage, columns edges: [Int], colors: Int = 256,
                              diffusion: Diffusion = .floydSteinberg, writer: Writer = .photogrid,
                              ditherer: Ditherer = .photogrid) throws(Failure) -> [[UInt8]] {
        guard image.width > 0, image.height > 0 else { throw Failure(description: "empty image") }
        guard edges.count >= 2, edges.first == 0, edges.last == image.width, zip(edges, edges.dropFirst()).allSatisfy({ $0 < $1 }) else {
            throw Failure(description: "strip edges \(edges) do not cut a \(image.width)-pixel image")
        }
        var dither: OpaquePointer? = nil
        defer { if let dither { sixel_dither_unref(dither) } }
        guard !failed(sixel_dither_new(&dither, Int32(max(2, min(256, colors))), nil)) else {
            throw Failure(description: "libsixel could not start")
        }
        // libsixel builds its palette from a histogram of 5 bits per channel, truncating: every
        // colour comes out up to 8 levels too dark. Half a step added to the sample it builds the
        // palette from makes that rounding; the pixels themselves are dithered unchanged. Past a
        // quarter megapixel the sample takes every other pixel of every other row: the palette
        // is as good (docs/benchmarks.md) and its sample a quarter of the memory and time.
        let step = image.width * image.height > 250_000 ? 2 : 1
        let (sampleWidth, sampleHeight) = ((image.width + step - 1) / step, (image.height + step - 1) / step)
        var sample = [UInt8](repeating: 0, count: sampleWidth * sampleHeight * 3)
        image.pixels.withUnsafeBufferPointer { source in
            var i = 0
            for y in stride(from: 0, to: image.height, by: step) {
                for x in stride(from: 0, to: image.width, by: step) {
                    let p = (y * image.width + x) * 3
                    for c in 0..<3 { let v = source[p + c]; sample[i + c] = v > 251 ? 255 : v &+ 4 }
                    i += 3
                }
            }
        }
        // One palette built at a time in the process: libsixel's median cut (netpbm's, in
        // quant.c) hands qsort the plane to compare through a static variable, so two built at
        // once on two workers sorted by each other's planes. Seen as tiles that came out with
        // another palette and dithering from one run to the next (`--print` of the same folder,
        // 4 of 36 pictures); the palette is a small part of an encode.
        let initialized: SIXELSTATUS = Sixel.paletteLock.withLock { _ in
            sample.withUnsafeMutableBufferPointer { buffer in
                sixel_dither_initialize(dither, buffer.baseAddress, Int32(sampleWidth), Int32(sampleHeight),
                                        pg_sixel_pixelformat_rgb888, SIXEL_LARGE_AUTO, SIXEL_REP_AUTO, SIXEL_QUALITY_AUTO)
            }
        }
        if failed(initialized) { throw Failure(description: "libsixel could not build a palette (status \(initialized))") }
        sixel_dither_set_diffusion_type(dither, diffusion.libsixel)
        // The dithering works in place (photogrid's and libsixel's): in the image's own pixels
        // where no one else holds them (one tile's worth less memory while it encodes), else in
        // a copy.
        let (width, height) = (image.width, image.height)
        var pixels = (consume image).pixels
        guard let palette = sixel_dither_get_palette(dither) else { throw Failure(description: "libsixel made no palette") }
        let count = Int(sixel_dither_get_num_of_palette_colors(dither))
        let indexed: [UInt8]
        // Two colours, black and white, libsixel looks up by brightness instead: left to it.
        if diffusion == .floydSteinberg && ditherer == .photogrid && count > 2 {
            indexed = pixels.withUnsafeMutableBufferPointer { buffer in
                SixelDither.floydSteinberg(buffer.baseAddress!, width: width, height: height, palette: palette, colors: count)
            }
        } else {
            guard let made = pixels.withUnsafeMutableBufferPointer({ buffer in
                sixel_dither_apply_palette(dither, buffer.baseAddress, Int32(width), Int32(height))
            }) else { throw Failure(description: "libsixel could not dither") }
            indexed = Array(UnsafeBufferPointer(start: made, count: width * height))
            Allocator.free(made)
        }
        pixels = []
        if writer == .photogrid {
            return indexed.withUnsafeBufferPointer { indexed in
                (0..<(edges.count - 1)).map { k in
                    SixelWriter.write(indexed.baseAddress!, stride: width, x0: edges[k], width: edges[k + 1] - edges[k], height: height,
                                      palette: palette, colors: count)
                }
            }
        }
        sixel_dither_set_pixelformat(dither, Int32(pg_sixel_pixelformat_pal8))
        var result: [[UInt8]] = []
        var strip: [UInt8] = []
        for k in 0..<(edges.count - 1) {
            let x0 = edges[k], stripWidth = edges[k + 1] - x0
            strip.removeAll(keepingCapacity: true)
            strip.reserveCapacity(stripWidth * height)
            for y in 0..<height {
                strip.append(contentsOf: indexed[(y * width + x0)..<(y * width + x0 + stripWidth)])
            }
            let sink = Sink()
            var output: OpaquePointer? = nil
            guard !failed(sixel_output_new(&output, sinkWrite, Unmanaged.passUnretained(sink).toOpaque(), nil)) else {
                throw Failure(description: "libsixel could not start")
            }
            let status: SIXELSTATUS = strip.withUnsafeMutableBufferPointer { buffer in
                sixel_encode(buffer.baseAddress, Int32(stripWidth), Int32(height), 1, dither, output)
            }
            sixel_output_unref(output)
            withExtendedLifetime(sink) {}
            if failed(status) { throw Failure(description: "libsixel could not encode (status \(status))") }
            result.append(sink.bytes)
        }
        return result
    }

    /// Pixels of a sixel sequence, through libsixel's decoder: how tests read back what photogrid drew.
    package static func decode(_ bytes: [UInt8]) -> RGBImage? {
        var input = bytes
        var indexed: UnsafeMutablePointer<UInt8>? = nil
        var palette: UnsafeMutablePointer<UInt8>? = nil
        var width: Int32 = 0, height: Int32 = 0, colors: Int32 = 0
        let status = input.withUnsafeMutableBufferPointer { buffer in
            sixel_decode_raw(buffer.baseAddress, Int32(buffer.count), &indexed, &width, &height, &palette, &colors, nil)
        }
        defer { Allocator.free(indexed); Allocator.free(palette) }
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

    /// Held while libsixel builds a palette (see `encode(_:columns:colors:diffusion:writer:)`).
    private static let paletteLock = Locked(0)

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
