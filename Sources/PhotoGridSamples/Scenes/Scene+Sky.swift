import Glibc

/// Skies shared by the scenes: gradients, clouds and stars.
extension Scene {
    /// Fills the whole canvas with a vertical gradient whose position 1 is at `horizon` (pixels);
    /// the land layers painted afterwards cover what lies below it.
    static func paintSky(_ c: Canvas, _ gradient: Gradient, horizon: Float) {
        for y in 0..<c.height {
            let color = gradient.at((Float(y) + 0.5) / horizon)
            for x in 0..<c.width { c[x, y] = color }
        }
    }

    /// Soft fair-weather clouds above `horizon`, flatter and thinner towards it.
    /// `cover` is the noise level where cloud starts: higher means fewer clouds.
    static func paintClouds(_ c: Canvas, _ noise: ValueNoise, horizon: Float, cover: Float,
                            light: Color = .white, shadow: Color = Color(hex: 0xd3dbe6)) {
        let rows = min(c.height, Int(horizon.rounded(.up)))
        for y in 0..<rows {
            let v = (Float(y) + 0.5) / horizon
            let fade = 1 - smoothstep(0.45, 1, v)
            if fade <= 0 { continue }
            // Perspective: clouds near the horizon are further away, so smaller and flatter.
            let stretch = 1 + v * 2.5
            for x in 0..<c.width {
                let n = noise.fractal((Float(x) + 0.5) / c.h * 1.4 * stretch, v * 3.2 * stretch, octaves: 5)
                let alpha = smoothstep(cover, cover + 0.18, n) * fade
                if alpha <= 0 { continue }
                let body = Color.mix(shadow, light, smoothstep(cover + 0.05, cover + 0.3, n))
                c.blend(x, y, body, alpha * 0.92)
            }
        }
    }

    /// Stars above `horizon`: `density` stars per square of the picture height, mostly faint.
    static func paintStars(_ c: Canvas, _ random: inout SeededRandom, density: Float, horizon: Float,
                           brightness: Float = 1) {
        var stars = SeededRandom(seed: random.next())
        let count = Int(density * c.w / c.h)
        for _ in 0..<count {
            let x = stars.unit() * c.w
            // More stars high up, where the sky is darkest and the air thinnest.
            let y = stars.unit() * stars.unit() * horizon * 0.95
            let level = stars.unit()
            let strength = level * level * level
            let tint = Color.mix(Color(hex: 0xc9d6ff), Color(hex: 0xffe6c0), stars.unit())
            // Below a pixel a star is drawn at 0.6 px and dimmed instead, so that a thumbnail
            // does not turn into snow.
            let natural = c.h * 0.0009 * (0.6 + strength * 1.2)
            let radius = max(0.6, natural)
            c.disc(x, y, radius, tint, opacity: (0.3 + 0.7 * strength) * brightness * natural / radius)
            if strength > 0.7 { c.glow(x, y, radius * 1.5, tint * (0.12 * brightness), reach: 4) }
        }
    }
}
