import Glibc

/// Upland scenes: snowy mountains, a misty valley, and a forest lake with its reflection.
extension Scene {
    static func paintMountains(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let skyColors = Gradient([(0, 0x4f86cc), (0.6, 0xa3c5ea), (1, 0xe3edf7)])
        paintSky(c, skyColors, horizon: c.h * 0.6)
        paintClouds(c, noise, horizon: c.h * 0.45, cover: 0.66)

        let far = Ridge.peaks(c, noise, base: 0.6, amplitude: 0.5, frequency: 1.4, offset: random.range(0, 50))
        paintRange(c, noise, edge: far, snow: 0.13, haze: 0.3,
                   rock: (Color(hex: 0x8a93a8), Color(hex: 0x525d75)), ice: (Color(hex: 0xf8fafd), Color(hex: 0xaabbd6)))
        let near = Ridge.peaks(c, noise, base: 0.8, amplitude: 0.34, frequency: 1.1, octaves: 4, offset: random.range(60, 110))
        paintRange(c, noise, edge: near, snow: 0.05, haze: 0.08,
                   rock: (Color(hex: 0x65708a), Color(hex: 0x353f52)), ice: (Color(hex: 0xeef2f8), Color(hex: 0x9aaac4)))

        let ground = Ridge.rolling(c, noise, base: 0.88, amplitude: 0.03, frequency: 0.7, offset: 21)
        let forest = Ridge.pines(c, on: ground, &random, spacing: 0.012, heights: 0.03...0.08)
        let pineTop = Color(hex: 0x1d3a29), pineBottom = Color(hex: 0x12261a)
        c.fillBelow(forest) { _, _, depth in Color.mix(pineTop, pineBottom, smoothstep(0, c.h * 0.1, depth)) }
    }

    /// One mountain range: rock lit from the left, with snow down to `snow` (a fraction of the
    /// picture height) below its highest summit, so that every range has snowy peaks whatever its
    /// noise, and faded towards the sky colour by `haze` for distance.
    private static func paintRange(_ c: Canvas, _ noise: ValueNoise, edge: [Float], snow: Float, haze: Float,
                                   rock: (lit: Color, shade: Color), ice: (lit: Color, shade: Color)) {
        let air = Color(hex: 0xc9d8ea)
        let line = (edge.min() ?? 0) + c.h * snow
        let snowline = (0..<c.width).map { x in
            line + c.h * 0.05 * (noise.fractal((Float(x) + 0.5) / c.h * 4, octaves: 3) - 0.5)
        }
        c.fillBelow(edge) { x, y, depth in
            let u = (Float(x) + 0.5) / c.h, v = (Float(y) + 0.5) / c.h
            // Faces rising to the right look towards the sun. Deeper down the slope is measured
            // wider, so that a whole flank under a peak is lit or shaded, not a column of pixels.
            let face = clamp01(0.5 - Ridge.slope(edge, x, reach: 2 + depth * 0.8) * 2.5)
            let light = face + (0.4 - face) * smoothstep(0, c.h * 0.3, depth)
            let ragged = snowline[x] + c.h * 0.03 * (noise.sample(u * 9, v * 14) - 0.5)
            let snowy = smoothstep(ragged + c.h * 0.004, ragged - c.h * 0.004, Float(y) + 0.5)
            let stone = Color.mix(rock.shade, rock.lit, light)
            let cover = Color.mix(ice.shade, ice.lit, light)
            return Color.mix(Color.mix(stone, cover, snowy), air, haze)
        }
    }

    static func paintMisty(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        paintSky(c, Gradient([(0, 0xb3c2d3), (0.6, 0xe3ddd5), (1, 0xf3e6d3)]), horizon: c.h * 0.5)
        let sunX = c.w * random.range(0.2, 0.8), sunY = c.h * random.range(0.22, 0.32)
        // The disc first: the glow added over it then whitens it instead of ringing it.
        c.disc(sunX, sunY, c.short * 0.045, Color(hex: 0xfff4e0), softness: c.short * 0.01)
        c.glow(sunX, sunY, c.short * 0.1, Color(hex: 0xfff0d0) * 0.5)

        // Ridge after ridge, each darker than the one behind, with mist pooling in the valleys
        // between them: the bottom of every layer fades back to the mist colour.
        let mist = Color(hex: 0xe6e2dc), far = Color(hex: 0xc3cacf), near = Color(hex: 0x2c4038)
        let count = 6
        for i in 0..<count {
            let f = Float(i) / Float(count - 1)
            let ground = Ridge.rolling(c, noise, base: 0.4 + 0.11 * Float(i), amplitude: 0.05 + 0.02 * Float(i),
                                       frequency: 1.3 - 0.12 * Float(i), octaves: 4, offset: Float(i) * 9.1)
            let edge = i >= 3
                ? Ridge.pines(c, on: ground, &random, spacing: 0.008 + 0.004 * f, heights: (0.015 + 0.02 * f)...(0.03 + 0.04 * f))
                : ground
            let color = Color.mix(far, near, pow(f, 1.1))
            let pooling = 0.75 * (1 - f * 0.45)
            // Depth is measured from the ground, not from the tree tops, so that the trees stay
            // solid silhouettes and the mist lies level along the slope.
            c.fillBelow(edge) { x, y, _ in
                Color.mix(color, mist, smoothstep(0, c.h * 0.13, Float(y) + 0.5 - ground[x]) * pooling)
            }
        }
    }

    static func paintLake(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let shore = c.h * random.range(0.5, 0.56)
        paintSky(c, Gradient([(0, 0x5b93c9), (0.7, 0xa7cde0), (1, 0xe4efe9)]), horizon: shore)
        paintClouds(c, noise, horizon: shore * 0.85, cover: 0.6)

        let hills = Ridge.rolling(c, noise, base: shore / c.h - 0.1, amplitude: 0.06, frequency: 0.8, offset: 4)
        let hillTop = Color(hex: 0x7f98a6), hillBottom = Color(hex: 0x6a8594)
        c.fillBelow(hills) { _, _, depth in Color.mix(hillTop, hillBottom, smoothstep(0, c.h * 0.1, depth)) }
        let bank = Ridge.rolling(c, noise, base: shore / c.h - 0.01, amplitude: 0.01, frequency: 1.5, offset: 17)
        let forest = Ridge.pines(c, on: bank, &random, spacing: 0.014, heights: 0.04...0.13, narrowness: 2.8)
        let pineTop = Color(hex: 0x21402f), pineBottom = Color(hex: 0x172e21)
        c.fillBelow(forest) { _, _, depth in Color.mix(pineTop, pineBottom, smoothstep(0, c.h * 0.08, depth)) }

        // The lake mirrors what is above the shore, darker and bluer with nearness,
        // broken by slow ripples that shift each row sideways a little.
        let water = Color(hex: 0x1d4657), shoreShadow = Color(hex: 0x13211a)
        let first = min(c.height, max(0, Int(shore.rounded(.up))))
        let lastMirrored = max(0, first - 1)
        for y in first..<c.height {
            let fy = Float(y) + 0.5
            let t = (fy - shore) / (c.h - shore)
            let source = min(lastMirrored, max(0, Int(shore - (fy - shore))))
            let ripple = (noise.sample(fy / c.h * 70, 3.3) - 0.5) * c.h * 0.012 * t
            let dark = exp(-pow((fy - shore) / (c.h * 0.006), 2)) * 0.6
            let tint = 0.22 + 0.4 * t
            for x in 0..<c.width {
                let sx = min(c.width - 1, max(0, x + Int(ripple)))
                let color = Color.mix(c[sx, source], water, tint)
                c[x, y] = Color.mix(color, shoreShadow, dark)
            }
        }
    }
}
