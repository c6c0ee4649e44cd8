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
    package static func resample(_ image: RGBImage, region: Region, width: Int, height: Int) -> RGBImage {
        precondition(width > 0 && height > 0 && image.width > 0 && image.height > 0)
        let horizontal = Weights(inSize: image.width, start: region.x, length: region.width, outSize: width)
        let vertical = Weights(inSize: image.height, start: region.y, length: region.height, outSize: height)
        // Only the source columns the horizontal pass reads are filtered vertically.
        let firstColumn = horizontal.start.min()!
        let lastColumn = (0..<width).map { horizontal.start[$0] + horizontal.count[$0] }.max()!
        let line = (lastColumn - firstColumn) * 3
        var rows = [UInt8](repeating: 0, count: height * line)
        var out = [UInt8](repeating: 0, count: width * height * 3)
        // The vertical pass first, a whole row at a time: each output row is the weighted sum of
        // a few source rows, read in order, in loops the compiler vectorises. The horizontal
        // pass, a pixel at a time, then runs on the output's rows rather than the source's: when
        // shrinking, that was most of a resample (a photo decoded at 705x396 for a 390x219 tile).
        image.pixels.withUnsafeBufferPointer { src in
            rows.withUnsafeMutableBufferPointer { mid in
                var sums = [Int32](repeating: 0, count: line)
                sums.withUnsafeMutableBufferPointer { sums in
                    vertical.taps.withUnsafeBufferPointer { taps in
                        let half: Int32 = 1 << (Weights.precision - 1)
                        // Pointers to each row, so that the inner loops have no index
                        // arithmetic to check for overflow and the compiler vectorises them.
                        let (acc, source, target) = (sums.baseAddress!, src.baseAddress! + firstColumn * 3, mid.baseAddress!)
                        let stride = image.width * 3
                        for i in 0..<height {
                            for j in 0..<line { acc[j] = half }
                            let base = i * vertical.maxTaps
                            for k in 0..<vertical.count[i] {
                                let w = taps[base + k]
                                let row = source + (vertical.start[i] + k) * stride
                                for j in 0..<line { acc[j] &+= Int32(row[j]) &* w }
                            }
                            let t = target + i * line
                            for j in 0..<line { t[j] = clampToByte(acc[j] >> Weights.precision) }
                        }
                    }
                }
            }
            rows.withUnsafeBufferPointer { mid in
                out.withUnsafeMutableBufferPointer { dst in
                    for y in 0..<height {
                        horizontal.apply(source: mid, sourceOffset: y * line - firstColumn * 3, sourceStride: 3,
                                         target: dst, targetOffset: y * width * 3, targetStride: 3)
                    }
                }
            }
        }
        return RGBImage(width: width, height: height, pixels: out)
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

        @inline(__always)
        func apply(source: UnsafeBufferPointer<UInt8>, sourceOffset: Int, sourceStride: Int,
                   target: UnsafeMutableBufferPointer<UInt8>, targetOffset: Int, targetStride: Int) {
            let half: Int32 = 1 << (Weights.precision - 1)
            // Through pointers: the arrays' bounds checks and reference counting in this loop were
            // a third of a resample.
            taps.withUnsafeBufferPointer { taps in
            start.withUnsafeBufferPointer { start in
            count.withUnsafeBufferPointer { count in
                let (source, target, taps) = (source.baseAddress!, target.baseAddress!, taps.baseAddress!)
                for i in 0..<start.count {
                    var r = half, g = half, b = half
                    var s = source + sourceOffset + start[i] * sourceStride
                    var w = taps + i * maxTaps
                    for _ in 0..<count[i] {
                        r &+= Int32(s[0]) &* w.pointee
                        g &+= Int32(s[1]) &* w.pointee
                        b &+= Int32(s[2]) &* w.pointee
                        s += sourceStride
                        w += 1
                    }
                    let t = target + targetOffset + i * targetStride
                    t[0] = clampToByte(r >> Weights.precision)
                    t[1] = clampToByte(g >> Weights.precision)
                    t[2] = clampToByte(b >> Weights.precision)
                }
            } } }
        }
    }
}

@inline(__always)
private func clampToByte(_ v: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(255, max(0, v))) }
