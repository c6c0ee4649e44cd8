import Glibc

/// Night scenes: a moonlit starry sky over dark hills, and the northern lights over snow.
extension Scene {
    static func paintNight(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let horizon = c.h * 0.8
        paintSky(c, Gradient([(0, 0x02040f), (0.5, 0x0a1434), (0.85, 0x1c2c5e), (1, 0x2e3f73)]), horizon: horizon)

        // A faint band of the Milky Way across the sky, blotchy with dust.
        let tilt = random.range(-0.6, 0.6), through = random.range(0.3, 0.7)
        let milky = Color(hex: 0x3a4068)
        let norm = 1 / (1 + tilt * tilt).squareRoot()
        c.paintRows(0..<min(c.height, Int(horizon))) { x, y in
            let u = (Float(x) + 0.5) / c.h, v = (Float(y) + 0.5) / c.h
            let across = (v - through * horizon / c.h - tilt * (u - 0.5 * c.w / c.h)) * norm
            let band = exp(-pow(across / 0.11, 2)) * (0.35 + 0.65 * noise.fractal(u * 3, v * 3, octaves: 3))
            return c[x, y] + milky * (band * 0.55)
        }
        paintStars(c, &random, density: 480, horizon: horizon)

        let moonX = c.w * random.pick([random.range(0.12, 0.32), random.range(0.68, 0.88)])
        let moonY = c.h * random.range(0.16, 0.28), moonR = c.short * 0.055
        c.glow(moonX, moonY, c.short * 0.12, Color(hex: 0x2c3866), reach: 8)
        let bright = Color(hex: 0xf6f3e2), maria = Color(hex: 0xc6c3b2)
        c.disc(moonX, moonY, moonR, bright)
        for y in max(0, Int(moonY - moonR))..<min(c.height, Int(moonY + moonR) + 1) {
            for x in max(0, Int(moonX - moonR))..<min(c.width, Int(moonX + moonR) + 1) {
                let dx = Float(x) + 0.5 - moonX, dy = Float(y) + 0.5 - moonY
                let inside = clamp01(moonR - 1 - (dx * dx + dy * dy).squareRoot())
                let spots = smoothstep(0.5, 0.68, noise.fractal(dx / moonR * 1.6 + 50, dy / moonR * 1.6, octaves: 3))
                c.blend(x, y, maria, spots * inside * 0.7)
            }
        }

        let land = Ridge.rolling(c, noise, base: 0.82, amplitude: 0.05, frequency: 0.8, offset: 5)
        let hillTop = Color(hex: 0x0d1326), hillBottom = Color(hex: 0x05070f)
        c.fillBelow(land) { _, _, depth in Color.mix(hillTop, hillBottom, smoothstep(0, c.h * 0.12, depth)) }
        let trees = Ridge.pines(c, on: Ridge.rolling(c, noise, base: 0.9, amplitude: 0.03, frequency: 0.6, offset: 9),
                                &random, spacing: 0.02, heights: 0.02...0.07)
        let black = Color(hex: 0x03050b)
        c.fillBelow(trees) { _, _, _ in black }
    }

    static func paintAurora(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let horizon = c.h * 0.74
        paintSky(c, Gradient([(0, 0x01040c), (0.6, 0x04152a), (1, 0x0a2a3a)]), horizon: horizon)
        paintStars(c, &random, density: 260, horizon: horizon, brightness: 0.7)

        // Curtains: a wavy lower edge with a sharp bottom, rays rising from it that fade slowly,
        // green low down turning violet at the top. Per-column values are computed once.
        let green = Color(hex: 0x38f59a), violet = Color(hex: 0x9a4cff)
        let curtains: [(height: Float, strength: Float)] = [(0.46, 0.9), (0.3, 0.55)]
        for (index, curtain) in curtains.enumerated() {
            let offset = random.range(0, 100) + Float(index) * 37
            let bottom = (0..<c.width).map { x -> Float in
                let u = (Float(x) + 0.5) / c.h
                return (curtain.height + 0.24 * (noise.fractal(u * 0.9 + offset, octaves: 3) - 0.5)) * c.h
            }
            let rays = (0..<c.width).map { x -> Float in
                0.35 + 0.65 * noise.fractal((Float(x) + 0.5) / c.h * 22 + offset, octaves: 2)
            }
            let rows = min(c.height, Int(horizon.rounded(.up)))
            for y in 0..<rows {
                let fy = Float(y) + 0.5
                for x in 0..<c.width {
                    let dy = (fy - bottom[x]) / c.h
                    let glow = dy > 0 ? exp(-pow(dy / 0.03, 2)) : exp(dy / 0.2) * rays[x]
                    if glow < 0.004 { continue }
                    let color = Color.mix(green, violet, smoothstep(0.02, 0.24, -dy))
                    c[x, y] = c[x, y] + color * (glow * curtain.strength)
                }
            }
        }

        let snow = Ridge.rolling(c, noise, base: 0.76, amplitude: 0.04, frequency: 0.7, offset: 13)
        let snowTop = Color(hex: 0x3d6672), snowBottom = Color(hex: 0x1a2a3c)
        c.fillBelow(snow) { _, _, depth in Color.mix(snowTop, snowBottom, smoothstep(0, c.h * 0.25, depth)) }
        let ground = Ridge.rolling(c, noise, base: 0.84, amplitude: 0.03, frequency: 0.5, offset: 29)
        let trees = Ridge.pines(c, on: ground, &random, spacing: 0.022, heights: 0.03...0.1, narrowness: 3)
        let black = Color(hex: 0x02050a)
        let feet = ground.map { $0 + c.h * 0.004 }
        c.fillBelow(trees) { x, y, _ in
            // Only the trees are black: the snow between their feet keeps its colour.
            Float(y) + 0.5 < feet[x] ? black : Color.mix(snowTop, snowBottom, 0.6)
        }
    }
}
