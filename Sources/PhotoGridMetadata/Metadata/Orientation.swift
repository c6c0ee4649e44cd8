import PhotoGridModel
import PhotoGridSystem

/// EXIF Orientation (tag 0x0112): how the stored pixels must be turned to stand upright.
package enum Orientation: Int, Sendable, CaseIterable {
    case up = 1, mirrored = 2, down = 3, mirroredDown = 4
    case transposed = 5, right = 6, transverse = 7, left = 8

    /// Whether width and height trade places on display (the 90-degree cases 5-8).
    package var swapsAxes: Bool { rawValue >= 5 }

    /// The displayed size of a stored image.
    package func displaySize(width: Int, height: Int) -> (width: Int, height: Int) {
        swapsAxes ? (height, width) : (width, height)
    }

    /// The stored pixel shown at display position (x, y), for a stored image of size w x h.
    @inline(__always)
    func source(x: Int, y: Int, w: Int, h: Int) -> (Int, Int) {
        switch self {
        case .up: return (x, y)
        case .mirrored: return (w - 1 - x, y)
        case .down: return (w - 1 - x, h - 1 - y)
        case .mirroredDown: return (x, h - 1 - y)
        case .transposed: return (y, x)
        case .right: return (y, h - 1 - x)
        case .transverse: return (w - 1 - y, h - 1 - x)
        case .left: return (w - 1 - y, x)
        }
    }

    /// The image as it should be displayed.
    package func apply(to image: RGBImage) -> RGBImage {
        if self == .up { return image }
        let (dw, dh) = displaySize(width: image.width, height: image.height)
        var out = [UInt8](repeating: 0, count: dw * dh * 3)
        image.pixels.withUnsafeBufferPointer { src in
            out.withUnsafeMutableBufferPointer { dst in
                for y in 0..<dh {
                    for x in 0..<dw {
                        let (sx, sy) = source(x: x, y: y, w: image.width, h: image.height)
                        let s = (sy * image.width + sx) * 3, d = (y * dw + x) * 3
                        dst[d] = src[s]; dst[d + 1] = src[s + 1]; dst[d + 2] = src[s + 2]
                    }
                }
            }
        }
        return RGBImage(width: dw, height: dh, pixels: out)
    }

    /// The stored image that, tagged with this orientation, displays as `upright`.
    /// The sample generator writes photos "sideways" with it so that honouring the tag matters.
    package func stored(from upright: RGBImage) -> RGBImage {
        let (sw, sh) = displaySize(width: upright.width, height: upright.height)
        var out = RGBImage(width: sw, height: sh)
        for y in 0..<upright.height {
            for x in 0..<upright.width {
                let (sx, sy) = source(x: x, y: y, w: sw, h: sh)
                out[sx, sy] = upright[x, y]
            }
        }
        return out
    }
}
