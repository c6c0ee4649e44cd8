/// A colour in floating point, 0...255 per channel, for mixing and lighting before it is stored.
///
/// Channels may leave 0...255 while layers add up (glows, reflections); they are clamped only
/// when written to the canvas.
struct Color {
    var r: Float, g: Float, b: Float

    init(_ r: Float, _ g: Float, _ b: Float) { self.r = r; self.g = g; self.b = b }

    /// From 0xRRGGBB, the way palettes are usually written down.
    init(hex: UInt32) {
        self.init(Float(hex >> 16 & 0xFF), Float(hex >> 8 & 0xFF), Float(hex & 0xFF))
    }

    @inline(__always)
    static func mix(_ a: Color, _ b: Color, _ t: Float) -> Color {
        Color(a.r + (b.r - a.r) * t, a.g + (b.g - a.g) * t, a.b + (b.b - a.b) * t)
    }

    @inline(__always)
    static func + (a: Color, b: Color) -> Color { Color(a.r + b.r, a.g + b.g, a.b + b.b) }

    @inline(__always)
    static func * (a: Color, k: Float) -> Color { Color(a.r * k, a.g * k, a.b * k) }

    static let white = Color(255, 255, 255)
}

/// A colour ramp through stops at increasing positions, clamped at both ends.
struct Gradient {
    private let stops: [(at: Float, color: Color)]

    init(_ stops: [(Float, UInt32)]) {
        self.stops = stops.map { ($0.0, Color(hex: $0.1)) }
    }

    func at(_ t: Float) -> Color {
        guard let first = stops.first, let last = stops.last else { return Color(0, 0, 0) }
        if t <= first.at { return first.color }
        if t >= last.at { return last.color }
        var i = 1
        while stops[i].at < t { i += 1 }
        let a = stops[i - 1], b = stops[i]
        // Linear between stops: an eased ramp would flatten at every stop and show bands.
        return Color.mix(a.color, b.color, (t - a.at) / (b.at - a.at))
    }
}

/// Hermite step from 0 at `edge0` to 1 at `edge1`: soft edges everywhere, which JPEG compresses well.
@inline(__always)
func smoothstep(_ edge0: Float, _ edge1: Float, _ x: Float) -> Float {
    let t = min(max((x - edge0) / (edge1 - edge0), 0), 1)
    return t * t * (3 - 2 * t)
}

@inline(__always)
func clamp01(_ x: Float) -> Float { min(max(x, 0), 1) }
