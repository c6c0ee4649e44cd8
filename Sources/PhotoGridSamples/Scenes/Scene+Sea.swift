import Glibc

/// Scenes by the sea: a sunset with the sun's path on the water, and a tropical beach.
extension Scene {
    static func paintSunset(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let horizon = c.h * random.range(0.56, 0.64)
        let sunX = c.w * random.range(0.3, 0.7)
        let sunR = c.short * random.range(0.06, 0.08)
        let sunY = horizon - sunR * random.range(0.1, 0.7)
        let sky = Gradient([(0, 0x241a4f), (0.35, 0x6b2f6e), (0.62, 0xc8506a), (0.84, 0xf08a45), (1, 0xffc46a)])
        let warmGlow = Color(hex: 0xffa850), sunColor = Color(hex: 0xfff1c4)
        let cloudDark = Color(hex: 0x4a2a5e), cloudLit = Color(hex: 0xff9a6a)
        let skyRows = min(c.height, Int(horizon.rounded(.up)))

        c.paintRows(0..<skyRows) { x, y in
            let fx = Float(x) + 0.5, fy = Float(y) + 0.5, v = fy / horizon
            let dx = (fx - sunX) / c.short, dy = (fy - sunY) / c.short
            let d = (dx * dx + dy * dy).squareRoot()
            let warmth = exp(-d * 4)
            var color = sky.at(v) + warmGlow * (warmth * 0.55)
            color = Color.mix(color, sunColor, clamp01(sunR - d * c.short + 0.5))
            // Long thin clouds in the upper sky, lit from below near the sun.
            let band = smoothstep(0.12, 0.32, v) * (1 - smoothstep(0.68, 0.9, v))
            if band > 0 {
                let n = noise.fractal(fx / c.h * 1.1, fy / c.h * 9, octaves: 4)
                let cloud = smoothstep(0.5, 0.7, n) * band
                let tint = Color.mix(cloudDark, cloudLit, clamp01(warmth * 1.8 + v * 0.35))
                color = Color.mix(color, tint, cloud * 0.85)
            }
            return color
        }

        let sea = Gradient([(0, 0x7a4266), (0.1, 0x45305e), (1, 0x0e1431)])
        let path = Color(hex: 0xffb45a)
        let depth = c.h - horizon
        c.paintRows(skyRows..<c.height) { x, y in
            let fx = Float(x) + 0.5
            let t = clamp01((Float(y) + 0.5 - horizon) / depth)
            var color = sea.at(t)
            // The sun's path widens towards the viewer and breaks up into wave glints;
            // near the horizon the waves are too small to see and the path is a solid band.
            let across = (fx - sunX) / (sunR * (1.1 + t * 5))
            let column = exp(-across * across)
            if column > 0.002 {
                let z = 1 / (t + 0.06)
                let wave = noise.sample((fx - sunX) / c.h * z * 1.6, z * 5)
                let glints = smoothstep(0.4, 0.75, wave)
                let shimmer = 0.55 + (glints - 0.55) * smoothstep(0.02, 0.25, t)
                color = color + path * (column * shimmer * (1.05 - t * 0.6))
            }
            let broad = exp(-abs(fx - sunX) / (c.short * 0.7)) * exp(-t * 7)
            return color + warmGlow * (broad * 0.3)
        }
    }

    static func paintBeach(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let horizon = c.h * random.range(0.46, 0.52)
        paintSky(c, Gradient([(0, 0x1f74cc), (0.6, 0x5fb0ea), (1, 0xcdeefa)]), horizon: horizon)
        paintClouds(c, noise, horizon: horizon, cover: 0.6)

        // A small green island on the horizon, hazy with distance.
        let islandX = c.w * random.range(0.15, 0.85), islandWidth = c.h * random.range(0.18, 0.3)
        let island = (0..<c.width).map { x -> Float in
            let u = (Float(x) + 0.5 - islandX) / islandWidth
            let bump = exp(-u * u * 2) * (0.8 + 0.4 * noise.fractal((Float(x) + 0.5) / c.h * 9, octaves: 2))
            return horizon - c.h * 0.06 * bump + 0.5
        }
        let islandColor = Color.mix(Color(hex: 0x2f6b45), Color(hex: 0x9cc8d8), 0.35)
        c.fillBelow(island) { _, _, _ in islandColor }

        let shore = Ridge.rolling(c, noise, base: random.range(0.7, 0.76), amplitude: 0.035, frequency: 1.3, offset: 7)
        let water = Gradient([(0, 0x1a5ea6), (0.3, 0x1d86b8), (0.7, 0x33c2c4), (0.93, 0x8fe6d6), (1, 0xb8f0e0)])
        let foam = Color(hex: 0xf4fbf8), wet = Color(hex: 0xc9ad80)
        let sand = Gradient([(0, 0xe9d3a6), (1, 0xdcbf8c)])
        let seaTop = min(c.height, max(0, Int(horizon.rounded(.down))))
        let foamWidth = c.h * 0.007
        c.paintRows(seaTop..<c.height) { x, y in
            let fy = Float(y) + 0.5, edge = shore[x]
            if fy < edge {
                let t = clamp01((fy - horizon) / (edge - horizon))
                var color = water.at(t)
                let lap = (edge - fy) / foamWidth
                color = Color.mix(color, foam, exp(-lap * lap) * 0.85)
                let cover = clamp01(Float(y) + 1 - horizon)
                return cover < 1 ? Color.mix(c[x, y], color, cover) : color
            }
            let below = (fy - edge) / (c.h - edge)
            var color = Color.mix(wet, sand.at(below), smoothstep(0, 0.25, below))
            let lap = (fy - edge) / foamWidth
            color = Color.mix(color, foam, exp(-lap * lap) * 0.85)
            return color
        }
    }
}
