import Glibc

/// Farmland scenes: rolling green hills, autumn trees in a meadow, and a lavender field.
extension Scene {
    static func paintHills(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let horizon = c.h * 0.55
        paintSky(c, Gradient([(0, 0x3a78d0), (0.7, 0x8cc0ee), (1, 0xd4eaf7)]), horizon: horizon)
        paintClouds(c, noise, horizon: horizon, cover: random.range(0.52, 0.6))

        // Back to front: hazy and blue-green far away, saturated and darker near.
        let layers: [(base: Float, amplitude: Float, frequency: Float, top: UInt32, bottom: UInt32)] = [
            (0.50, 0.05, 0.9, 0xb4d39a, 0x88b476),
            (0.59, 0.06, 0.7, 0x9cca62, 0x5e9a40),
            (0.70, 0.07, 0.55, 0x86c04a, 0x40862a),
            (0.84, 0.08, 0.45, 0x78b83c, 0x2c6a20),
        ]
        for (index, layer) in layers.enumerated() {
            let edge = Ridge.rolling(c, noise, base: layer.base, amplitude: layer.amplitude,
                                     frequency: layer.frequency, octaves: 2, offset: Float(index) * 13.7)
            let top = Color(hex: layer.top), bottom = Color(hex: layer.bottom)
            let fall = c.h * 0.16
            c.fillBelow(edge) { x, _, depth in
                // Slopes facing the sun (up and to the left) are lighter.
                let light = 0.94 + 0.12 * clamp01(0.5 - Ridge.slope(edge, x) * 4)
                return Color.mix(top, bottom, smoothstep(0, fall, depth)) * light
            }
            if index >= 1 { paintHedgeTrees(c, on: edge, &random, count: index) }
        }
    }

    /// Clumps of dark round trees standing on a hill's crest.
    private static func paintHedgeTrees(_ c: Canvas, on edge: [Float], _ random: inout SeededRandom, count: Int) {
        var trees = SeededRandom(seed: random.next())
        let clumps = Int((Float(count) * c.w / c.h).rounded())
        let light = Color(hex: 0x3f7a2a), dark = Color(hex: 0x1c4214)
        for _ in 0..<clumps {
            var x = trees.unit() * c.w
            for _ in 0..<(2 + Int(trees.next() % 4)) {
                let radius = c.h * trees.range(0.008, 0.018)
                let ground = edge[min(c.width - 1, max(0, Int(x)))]
                c.litDisc(x, ground - radius * 0.7, radius, light: light, dark: dark)
                x += radius * trees.range(1.2, 1.9)
            }
        }
    }

    static func paintAutumn(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let horizon = c.h * 0.6
        paintSky(c, Gradient([(0, 0x4a8ad4), (0.75, 0x9cc5ea), (1, 0xd6e6ef)]), horizon: horizon)
        paintClouds(c, noise, horizon: horizon, cover: 0.62)

        let far = Ridge.rolling(c, noise, base: 0.58, amplitude: 0.04, frequency: 0.8, offset: 3)
        let farTop = Color(hex: 0x93a07a), farBottom = Color(hex: 0x7d8c60)
        c.fillBelow(far) { _, _, depth in Color.mix(farTop, farBottom, smoothstep(0, c.h * 0.1, depth)) }
        // The edge of a wood in autumn colours along the far hills.
        var wood = SeededRandom(seed: random.next())
        let woodColors = [(0xc98a4a, 0x8e5a2e), (0xb86a36, 0x7a4222), (0xd6a452, 0x94692c)]
        for _ in 0..<Int(16 * c.w / c.h) {
            let x = wood.unit() * c.w, radius = c.h * wood.range(0.012, 0.026)
            let ground = far[min(c.width - 1, max(0, Int(x)))]
            let tone = wood.pick(woodColors)
            c.litDisc(x, ground - radius * 0.5, radius, light: Color(hex: UInt32(tone.0)), dark: Color(hex: UInt32(tone.1)))
        }

        let meadow = Ridge.rolling(c, noise, base: 0.66, amplitude: 0.025, frequency: 0.6, offset: 11)
        let grassTop = Color(hex: 0xb9aa4e), grassBottom = Color(hex: 0x76802e), leaves = Color(hex: 0xc4742e)
        c.fillBelow(meadow) { x, y, depth in
            let color = Color.mix(grassTop, grassBottom, smoothstep(0, c.h * 0.35, depth))
            let patch = noise.fractal((Float(x) + 0.5) / c.h * 3, (Float(y) + 0.5) / c.h * 6 + 40, octaves: 3)
            return Color.mix(color, leaves, smoothstep(0.55, 0.75, patch) * 0.45)
        }

        // Trees sorted far to near, so nearer ones (lower, larger) overlap the others.
        var grove = SeededRandom(seed: random.next())
        let count = Int(2 + 2.2 * c.w / c.h)
        var trees: [(x: Float, base: Float)] = (0..<count).map { _ in (grove.unit(), grove.range(0.7, 0.97)) }
        trees.sort { $0.base < $1.base }
        let canopies: [(UInt32, UInt32)] = [(0xf2a43e, 0xb4542a), (0xea6a2e, 0x962c1c), (0xf5c84a, 0xbe7628), (0xd8452c, 0x7c1f18)]
        let trunk = Color(hex: 0x4a3020)
        for tree in trees {
            let x = tree.x * c.w, base = tree.base * c.h
            let size = c.h * (0.06 + 0.09 * (tree.base - 0.7) / 0.27)
            let center = base - size * 1.9
            c.rect(x - size * 0.09, center, x + size * 0.09, base, trunk)
            let tone = grove.pick(canopies)
            let light = Color(hex: tone.0), dark = Color(hex: tone.1)
            for _ in 0..<6 {
                let bx = x + grove.range(-0.6, 0.6) * size, by = center + grove.range(-0.5, 0.35) * size
                c.litDisc(bx, by, size * grove.range(0.45, 0.7), light: light, dark: dark)
            }
            c.litDisc(x, center - size * 0.1, size * 0.62, light: light, dark: dark)
        }
    }

    static func paintLavender(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let horizon = c.h * random.range(0.5, 0.56)
        let sunX = c.w * random.range(0.2, 0.8)
        paintSky(c, Gradient([(0, 0x5a7fc4), (0.55, 0xb9a9c9), (0.85, 0xf4c9a0), (1, 0xfbe0b5)]), horizon: horizon)
        c.glow(sunX, horizon - c.h * 0.04, c.short * 0.12, Color(hex: 0xffb070) * 0.45)
        c.disc(sunX, horizon - c.h * 0.04, c.short * 0.03, Color(hex: 0xfff3d6), softness: 2)

        // A dark line of trees along the horizon, with one lone tree standing out.
        let treeline = Ridge.rolling(c, noise, base: horizon / c.h - 0.007, amplitude: 0.008, frequency: 7, octaves: 3)
        let woods = Color(hex: 0x3f4634)
        c.fillBelow(treeline) { _, _, _ in woods }
        let loneX = c.w * random.range(0.1, 0.9), loneR = c.h * 0.032
        c.rect(loneX - loneR * 0.1, horizon - loneR * 1.2, loneX + loneR * 0.1, horizon + 1, woods)
        c.disc(loneX, horizon - loneR * 1.6, loneR, woods)

        // Rows run to a vanishing point on the horizon; each row is one turn of a cosine across
        // x / depth. Far away the rows are finer than the pixels, so they blend into their average.
        let vanishX = c.w * random.range(0.35, 0.65), rowsPerUnit: Float = 3.5
        let flowerLight = Color(hex: 0x9a70d4), flowerDark = Color(hex: 0x6c46a8)
        let soil = Color(hex: 0x4c5a30), haze = Color(hex: 0xc9a6c4), sunlight = Color(hex: 0xffb070)
        let first = min(c.height, max(0, Int(horizon.rounded(.up))))
        c.paintRows(first..<c.height) { x, y in
            let dy = Float(y) + 0.5 - horizon
            let t = dy / (c.h - horizon)
            let row = (Float(x) + 0.5 - vanishX) / dy * rowsPerUnit
            let crest = 0.5 + 0.5 * cos(row * 2 * Float.pi)
            let rowPixels = dy / rowsPerUnit
            let contrast = smoothstep(3, 10, rowPixels) * smoothstep(0, 0.3, t)
            let purple = 0.62 + (smoothstep(0.25, 0.75, crest) - 0.62) * contrast
            let blossom = Color.mix(flowerDark, flowerLight, crest * (0.4 + 0.6 * t))
            var color = Color.mix(soil, blossom, purple)
            color = Color.mix(color, haze, (1 - smoothstep(0, 0.35, t)) * 0.5)
            return color + sunlight * (0.12 * (1 - t))
        }
    }
}
