import CResampling
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Scales and crops images with a separable Catmull-Rom (bicubic) filter whose width follows
/// the scale: shrinking weighs every source pixel under an output pixel, enlarging interpolates.
/// Weights are fixed-point, as Pillow does. It replaced a tent filter, which blurred what it
/// shrank by little: a tile made from a DCT-scaled decode barely larger than it (1/8 of a
/// 3840x2400 photo for a 400x250 tile) came out visibly soft, 37.3 dB against a Lanczos
/// reference where this filter gives 41.3 (docs/benchmarks.md, "Fitted tiles from smaller decodes").
package enum Resampler {
    /// A region of the source image in pixels; fractions are allowed.
    package struct Region: Sendable, Equatable {
        package var x: Double, y: Double, width: Double, height: Double
        package init(x: Double, y: Double, width: Double, height: Double) {
            self.x = x; self.y = y; self.width = width; self.height = height
        }
    }

    /// The centred region of a `width` x `height` image with the aspect ratio of the target:
    /// what aspect-fill keeps.
    package static func centreCrop(width: Int, height: Int, toAspectOf targetWidth: Int, _ targetHeight: Int) -> Region {
        let source = Double(width) / Double(height)
        let target = Double(targetWidth) / Double(targetHeight)
        if source > target {
            let w = Double(height) * target
            return Region(x: (Double(width) - w) / 2, y: 0, width: w, height: Double(height))
        } else {
            let h = Double(width) / target
            return Region(x: 0, y: (Double(height) - h) / 2, width: Double(width), height: h)
        }
    }

    /// The size of `width` x `height` scaled to fit inside the box, at least one pixel each way.
    package static func fittedSize(width: Int, height: Int, inside boxWidth: Int, _ boxHeight: Int) -> (width: Int, height: Int) {
        let scale = min(Double(boxWidth) / Double(width), Double(boxHeight) / Double(height))
        return (max(1, min(boxWidth, Int((Double(width) * scale).rounded()))),
                max(1, min(boxHeight, Int((Double(height) * scale).rounded()))))
    }

    /// Aspect-fill: the image covers the whole box, centre cropped.
    package static func fill(_ image: RGBImage, width: Int, height: Int) -> RGBImage {
        resample(image, region: centreCrop(width: image.width, height: image.height, toAspectOf: width, height),
                 width: width, height: height)
    }

    /// Aspect-fit: the whole image, centred in the box on `background`.
    package static func fit(_ image: RGBImage, width: Int, height: Int, background: RGB = RGB(0, 0, 0)) -> RGBImage {
        let size = fittedSize(width: image.width, height: image.height, inside: width, height)
        let scaled = resample(image, region: Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height)),
                              width: size.width, height: size.height)
        if size.width == width && size.height == height { return scaled }
        var canvas = RGBImage(width: width, height: height, fill: background)
        canvas.draw(scaled, atX: (width - size.width) / 2, y: (height - size.height) / 2)
        return canvas
    }

    /// The given region of `image` scaled to exactly `width` x `height`.
    ///
    /// Both passes run as passes down the rows: each output row is the weighted sum of a few
    /// rows, read in order, in loops the compiler vectorises. The vertical pass runs on the source
    /// columns the horizontal one reads; its result is turned on its side, so that the horizontal
    /// pass is a vertical one too, and turned back. Done a pixel at a time, the horizontal pass
    /// was most of a resample (a 705x396 decode made into a 390x219 tile).
    package static func resample(_ image: RGBImage, region: Region, width: Int, height: Int) -> RGBImage {
        precondition(width > 0 && height > 0 && image.width > 0 && image.height > 0)
        let horizontal = Weights(inSize: image.width, start: region.x, length: region.width, outSize: width)
        let vertical = Weights(inSize: image.height, start: region.y, length: region.height, outSize: height)
        let firstColumn = horizontal.start.min()!
        let columns = (0..<width).map { horizontal.start[$0] + horizontal.count[$0] }.max()! - firstColumn
        // Each buffer is written whole by its pass: not zeroed first (a tile's four were 1.2 MB).
        let down = [UInt8](unsafeUninitializedCapacity: height * columns * 3) { target, initialized in
            image.pixels.withUnsafeBufferPointer { source in
                filterRows(source.baseAddress! + firstColumn * 3, rowBytes: image.width * 3, lineBytes: columns * 3,
                           weights: vertical, firstRow: 0, into: target.baseAddress!)
            }
            initialized = height * columns * 3
        }
        let sideways = transposed(down, width: columns, height: height)
        let across = [UInt8](unsafeUninitializedCapacity: width * height * 3) { target, initialized in
            sideways.withUnsafeBufferPointer { source in
                filterRows(source.baseAddress!, rowBytes: height * 3, lineBytes: height * 3,
                           weights: horizontal, firstRow: firstColumn, into: target.baseAddress!)
            }
            initialized = width * height * 3
        }
        return RGBImage(width: width, height: height, pixels: transposed(across, width: height, height: width))
    }

    /// Row i of `target` (`lineBytes` long): the sum of source rows `start[i] + k - firstRow`,
    /// each times its tap. In C (`pg_filter_rows`), compiled for AVX2, SSE4.1 and the baseline:
    /// x86-64's baseline has no 32-bit vector multiply, and Swift cannot pick a loop by processor.
    private static func filterRows(_ source: UnsafePointer<UInt8>, rowBytes: Int, lineBytes: Int, weights: Weights, firstRow: Int,
                                   into target: UnsafeMutablePointer<UInt8>) {
        let sums = UnsafeMutablePointer<Int32>.allocate(capacity: lineBytes)
        defer { sums.deallocate() }
        weights.start.withUnsafeBufferPointer { starts in
            weights.count.withUnsafeBufferPointer { counts in
                weights.taps.withUnsafeBufferPointer { taps in
                    pg_filter_rows(source, rowBytes, lineBytes, starts.baseAddress!, counts.baseAddress!, taps.baseAddress!,
                                   weights.maxTaps, starts.count, firstRow, Int32(Weights.precision), target, sums)
                }
            }
        }
    }

    /// RGB pixels of `width` x `height` turned on their side: row x of the result is column x.
    /// Written a result row at a time, in order, reading a source row apart: strided writes
    /// (each pixel to its own cache line) cost more than strided reads, which the processor
    /// fetches ahead. A pixel moves as four bytes, the fourth overwritten by the next pixel;
    /// a column's last pixel, whose fourth byte would be past the source's end, as three.
    private static func transposed(_ pixels: [UInt8], width: Int, height: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height * 3) { target, initialized in
            pixels.withUnsafeBufferPointer { source in
                let (from, to) = (UnsafeRawPointer(source.baseAddress!), UnsafeMutableRawPointer(target.baseAddress!))
                let sourceRow = width &* 3
                for x in 0..<width {
                    var (s, d) = (from + x &* 3, to + x &* height &* 3)
                    for _ in 0..<(height &- 1) {
                        d.storeBytes(of: s.loadUnaligned(as: UInt32.self), as: UInt32.self)
                        s += sourceRow
                        d += 3
                    }
                    for k in 0..<3 { (d + k).storeBytes(of: (s + k).load(as: UInt8.self), as: UInt8.self) }
                }
            }
            initialized = width * height * 3
        }
    }

    /// Filter taps for one axis: for output i, `count[i]` weights starting at source `start[i]`.
    struct Weights {
        static let precision: Int32 = 14
        var start: [Int] = []
        var count: [Int] = []
        var taps: [Int32] = []
        var maxTaps = 0

        init(inSize: Int, start regionStart: Double, length: Double, outSize: Int) {
            let scale = length / Double(outSize)
            let filterScale = max(scale, 1)
            let support = 2 * filterScale      // radius 2, widened when shrinking
            maxTaps = Int((support * 2).rounded(.up)) + 2
            taps = [Int32](repeating: 0, count: maxTaps * outSize)
            var weights = [Double](repeating: 0, count: maxTaps)
            for i in 0..<outSize {
                let centre = regionStart + (Double(i) + 0.5) * scale
                let lo = max(0, Int((centre - support).rounded(.down)))
                let hi = min(inSize, Int((centre + support).rounded(.up)))
                var n = 0, total = 0.0
                for j in lo..<max(lo, hi) where n < maxTaps {
                    let w = Weights.catmullRom(abs((Double(j) + 0.5 - centre) / filterScale))
                    weights[n] = w; total += w; n += 1
                }
                if total <= 0 {                 // the centre lies outside the image: nearest edge pixel
                    let edge = min(inSize - 1, max(0, Int(centre)))
                    start.append(edge); count.append(1); taps[i * maxTaps] = 1 << Weights.precision
                    continue
                }
                start.append(lo); count.append(n)
                for k in 0..<n {
                    taps[i * maxTaps + k] = Int32((weights[k] / total * Double(1 << Weights.precision)).rounded())
                }
            }
        }

        /// Keys' cubic with a = -0.5: 1 at 0, 0 at the other whole numbers, small negative lobes
        /// between 1 and 2 that keep edges sharp (the sums are clamped to a byte).
        static func catmullRom(_ x: Double) -> Double {
            if x < 1 { return (1.5 * x - 2.5) * x * x + 1 }
            if x < 2 { return ((-0.5 * x + 2.5) * x - 4) * x + 2 }
            return 0
        }
    }
}

