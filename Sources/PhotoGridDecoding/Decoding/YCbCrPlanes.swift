import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A picture as a video codec hands it out (HEVC through libheif, AV1 through libavif): planes of
/// YCbCr samples of 8 to 16 bits, chroma at full, half or quarter resolution or none (grey), and
/// an optional alpha plane. Averaged in blocks and converted to RGB here, at the size wanted,
/// rather than converted at full size into a buffer three times the planes' size and shrunk after
/// (a fifth of a decode's time, and its largest buffer).
struct YCbCrPlanes {
    /// One plane: its first sample and the bytes from one row to the next. Samples deeper than 8
    /// bits take two bytes, little-endian (what both libraries give).
    struct Plane {
        var base: UnsafePointer<UInt8>
        var stride: Int
    }

    var width: Int, height: Int
    var bits: Int
    var luma: Plane
    /// nil for a grey picture.
    var chroma: (cb: Plane, cr: Plane, width: Int, height: Int)?
    /// Samples of `bits` bits, full range, not premultiplied; nil when opaque.
    var alpha: Plane?
    /// ISO/IEC 23091-2 matrix coefficients (1 BT.709, 5 and 6 BT.601, 9 and 10 BT.2020, 0 GBR);
    /// anything else is taken as BT.601.
    var matrix: Int
    var fullRange: Bool

    /// The picture with each side divided by `shrink` (each pixel the mean of a block), alpha
    /// composited onto `background`.
    func rgb(shrink: Int, background: (r: Int, g: Int, b: Int) = PNG.background) -> RGBImage {
        let (kr, kb): (Double, Double) = switch matrix {
        case 1: (0.2126, 0.0722)            // BT.709
        case 9, 10: (0.2627, 0.0593)        // BT.2020
        default: (0.299, 0.114)             // BT.601 (5, 6) and what is not named
        }
        let maxValue = Double((1 << bits) - 1), middle = Double(1 << (bits - 1))
        let scale = 255 / maxValue
        let chromaWidth = chroma?.width ?? width, chromaHeight = chroma?.height ?? height
        // Subsampled chroma is half the width (4:2:0, 4:2:2) and half the height (4:2:0).
        let shiftX = chromaWidth < width ? 1 : 0, shiftY = chromaHeight < height ? 1 : 0
        let wide = bits > 8
        @inline(__always) func sample(_ plane: Plane, _ x: Int, _ y: Int) -> Int {
            let row = plane.base + y * plane.stride
            return wide ? Int(row[2 * x]) | Int(row[2 * x + 1]) << 8 : Int(row[x])
        }

        let step = max(1, min(shrink, width, height))
        var image = RGBImage(width: width / step, height: height / step)
        let area = Double(step * step), columns = image.width * step
        // Y, Cb, Cr and alpha of each output pixel; with alpha, the colours are weighted by it
        // (colour is affine in YCbCr, so the weighted mean converts to the weighted mean's colour).
        var sums = [Int](repeating: 0, count: image.width * 4)
        image.pixels.withUnsafeMutableBufferPointer { out in
          sums.withUnsafeMutableBufferPointer { sums in
            for oy in 0..<image.height {
                for i in 0..<sums.count { sums[i] = 0 }
                for y in (oy * step)..<(oy * step + step) {
                    let cy = min(chromaHeight - 1, y >> shiftY)
                    let yRow = luma.base + y * luma.stride
                    if !wide, alpha == nil, let chroma, ((columns - 1) >> shiftX) < chromaWidth {
                        // The common case, opaque 8-bit YCbCr: a block's samples summed in runs,
                        // with no division or call a sample (this loop is most of a conversion).
                        let cbRow = chroma.cb.base + cy * chroma.cb.stride, crRow = chroma.cr.base + cy * chroma.cr.stride
                        let pairs = shiftX == 1 && step % 2 == 0
                        for ox in 0..<image.width {
                            let start = ox * step, o = ox * 4
                            var y = 0, cb = 0, cr = 0
                            for x in start..<(start + step) { y += Int(yRow[x]) }
                            if pairs {
                                // Each chroma sample covers two columns of the block.
                                for cx in (start >> 1)..<((start + step) >> 1) { cb += Int(cbRow[cx]); cr += Int(crRow[cx]) }
                                cb *= 2; cr *= 2
                            } else {
                                for x in start..<(start + step) { cb += Int(cbRow[x >> shiftX]); cr += Int(crRow[x >> shiftX]) }
                            }
                            sums[o] += y; sums[o + 1] += cb; sums[o + 2] += cr
                        }
                        continue
                    }
                    for x in 0..<columns {
                        let o = (x / step) * 4
                        let a = alpha.map { sample($0, x, y) } ?? 1
                        sums[o] += sample(luma, x, y) * a
                        sums[o + 3] += a
                        guard let chroma else { continue }
                        let cx = min(chromaWidth - 1, x >> shiftX)
                        sums[o + 1] += sample(chroma.cb, cx, cy) * a
                        sums[o + 2] += sample(chroma.cr, cx, cy) * a
                    }
                }
                for ox in 0..<image.width {
                    // Without alpha the weights are all one: `weight` is the block's area.
                    let weight = alpha == nil ? area : Double(sums[ox * 4 + 3])
                    let coverage = alpha == nil ? 1 : weight / (area * maxValue)
                    var r = 0.0, g = 0.0, b = 0.0
                    if weight > 0 {
                        var y = Double(sums[ox * 4]) / weight
                        var cb = chroma == nil ? 0 : Double(sums[ox * 4 + 1]) / weight - middle
                        var cr = chroma == nil ? 0 : Double(sums[ox * 4 + 2]) / weight - middle
                        if !fullRange {
                            // Limited range: luma from 16 to 235, chroma 16 to 240 (at 8 bits).
                            let unit = maxValue / 255
                            y = (y - 16 * unit) * 255 / 219
                            cb = cb * 255 / 224
                            cr = cr * 255 / 224
                        }
                        if matrix == 0 {
                            (r, g, b) = (cr + middle, y, cb + middle)      // GBR: the planes are G, B, R
                        } else {
                            r = y + 2 * (1 - kr) * cr
                            b = y + 2 * (1 - kb) * cb
                            g = (y - kr * r - kb * b) / (1 - kr - kb)
                        }
                        (r, g, b) = (r * scale, g * scale, b * scale)
                    }
                    if coverage < 1 {
                        r = max(0, min(255, r)) * coverage + Double(background.r) * (1 - coverage)
                        g = max(0, min(255, g)) * coverage + Double(background.g) * (1 - coverage)
                        b = max(0, min(255, b)) * coverage + Double(background.b) * (1 - coverage)
                    }
                    let o = (oy * image.width + ox) * 3
                    out[o] = UInt8(max(0, min(255, r.rounded())))
                    out[o + 1] = UInt8(max(0, min(255, g.rounded())))
                    out[o + 2] = UInt8(max(0, min(255, b.rounded())))
                }
            }
          }
        }
        return image
    }
}
