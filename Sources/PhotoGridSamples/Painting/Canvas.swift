import Glibc

/// The pixel buffer a scene paints on, back to front, layer by layer.
///
/// It only lives inside `RGBImage.pixels.withUnsafeMutableBufferPointer`, so painting a 12 MP
/// photo touches the bytes directly: no copy-on-write checks and no allocation per pixel.
struct Canvas {
    let width: Int
    let height: Int
    let pixels: UnsafeMutableBufferPointer<UInt8>
    let w: Float
    let h: Float
    /// The shorter side: what round things (suns, moons, canopies) are sized by,
    /// so that they stay round and in frame in portraits and panoramas alike.
    let short: Float

    init(width: Int, height: Int, pixels: UnsafeMutableBufferPointer<UInt8>) {
        precondition(pixels.count == width * height * 3, "canvas size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
        w = Float(width)
        h = Float(height)
        short = Float(min(width, height))
    }

    subscript(x: Int, y: Int) -> Color {
        @inline(__always) get {
            let i = (y * width + x) * 3
            return Color(Float(pixels[i]), Float(pixels[i + 1]), Float(pixels[i + 2]))
        }
        @inline(__always) nonmutating set {
            let i = (y * width + x) * 3
            pixels[i] = Canvas.byte(newValue.r)
            pixels[i + 1] = Canvas.byte(newValue.g)
            pixels[i + 2] = Canvas.byte(newValue.b)
        }
    }

    @inline(__always)
    static func byte(_ v: Float) -> UInt8 {
        UInt8(min(max(v, 0), 255) + 0.5)
    }

    /// Covers the pixel with `color` by `alpha` (0...1).
    @inline(__always)
    func blend(_ x: Int, _ y: Int, _ color: Color, _ alpha: Float) {
        if alpha <= 0 { return }
        if alpha >= 1 { self[x, y] = color; return }
        self[x, y] = Color.mix(self[x, y], color, alpha)
    }

    /// Sets every pixel of `rows` (clipped to the canvas) to `shade(x, y)`.
    @inline(__always)
    func paintRows(_ rows: Range<Int>, _ shade: (_ x: Int, _ y: Int) -> Color) {
        for y in max(0, rows.lowerBound)..<max(max(0, rows.lowerBound), min(height, rows.upperBound)) {
            for x in 0..<width { self[x, y] = shade(x, y) }
        }
    }

    /// Fills each column from its edge `top[x]` (in pixels, fractional) to the bottom,
    /// anti-aliasing the edge pixel. `shade` gets the depth below the edge in pixels.
    func fillBelow(_ top: [Float], _ shade: (_ x: Int, _ y: Int, _ depth: Float) -> Color) {
        for x in 0..<width {
            let edge = top[x]
            let first = max(0, Int(edge.rounded(.down)))
            guard first < height else { continue }
            for y in first..<height {
                let depth = Float(y) + 0.5 - edge
                let color = shade(x, y, depth)
                if y == first { blend(x, y, color, clamp01(Float(y) + 1 - edge)) } else { self[x, y] = color }
            }
        }
    }

    /// A disc with a one-pixel soft rim, or a wider one with `softness` (in pixels).
    func disc(_ cx: Float, _ cy: Float, _ radius: Float, _ color: Color, softness: Float = 1, opacity: Float = 1) {
        forEach(cx, cy, radius + softness) { x, y, d in
            blend(x, y, color, clamp01((radius - d) / softness + 0.5) * opacity)
        }
    }

    /// An upright rectangle with anti-aliased sides (tree trunks): x0...x1 by y0...y1 in pixels.
    func rect(_ x0: Float, _ y0: Float, _ x1: Float, _ y1: Float, _ color: Color) {
        let top = max(0, Int(y0.rounded(.down))), bottom = min(height, Int(y1.rounded(.up)))
        let left = max(0, Int(x0.rounded(.down))), right = min(width, Int(x1.rounded(.up)))
        guard top < bottom, left < right else { return }
        for y in top..<bottom {
            for x in left..<right {
                let cover = clamp01(min(Float(x) + 1, x1) - max(Float(x), x0))
                blend(x, y, color, cover)
            }
        }
    }

    /// A disc lit from the upper left: rounder-looking canopies and moons for one extra mix.
    func litDisc(_ cx: Float, _ cy: Float, _ radius: Float, light: Color, dark: Color) {
        forEach(cx, cy, radius + 1) { x, y, d in
            let lx = (Float(x) - cx) / radius, ly = (Float(y) - cy) / radius
            let color = Color.mix(light, dark, clamp01(0.5 + (lx + ly) * 0.4))
            blend(x, y, color, clamp01(radius - d + 0.5))
        }
    }

    /// Adds light around (cx, cy) falling off as exp(-distance / radius): suns, moons, lamps.
    func glow(_ cx: Float, _ cy: Float, _ radius: Float, _ color: Color, reach: Float = 6) {
        forEach(cx, cy, radius * reach) { x, y, d in
            self[x, y] = self[x, y] + color * exp(-d / radius)
        }
    }

    /// Calls `body` with the distance from (cx, cy) for each pixel of the clipped bounding square.
    @inline(__always)
    private func forEach(_ cx: Float, _ cy: Float, _ reach: Float, _ body: (Int, Int, Float) -> Void) {
        let x0 = max(0, Int((cx - reach).rounded(.down))), x1 = min(width - 1, Int((cx + reach).rounded(.up)))
        let y0 = max(0, Int((cy - reach).rounded(.down))), y1 = min(height - 1, Int((cy + reach).rounded(.up)))
        guard x0 <= x1, y0 <= y1 else { return }
        for y in y0...y1 {
            let dy = Float(y) + 0.5 - cy
            for x in x0...x1 {
                let dx = Float(x) + 0.5 - cx
                let d = (dx * dx + dy * dy).squareRoot()
                if d <= reach { body(x, y, d) }
            }
        }
    }
}
