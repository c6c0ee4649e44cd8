/// Desert dunes under a high sun: warm orange sand with sunlit windward slopes and shaded slip faces.
extension Scene {
    static func paintDesert(_ c: Canvas, _ random: inout SeededRandom) {
        let noise = ValueNoise(seed: random.next())
        let horizon = c.h * 0.52
        paintSky(c, Gradient([(0, 0x3d7fc8), (0.6, 0x8fc0e4), (1, 0xf2dfbc)]), horizon: horizon)
        let sunX = c.w * random.range(0.15, 0.85), sunY = c.h * 0.12
        c.glow(sunX, sunY, c.short * 0.06, Color(hex: 0xffffff) * 0.35)
        c.disc(sunX, sunY, c.short * 0.028, Color(hex: 0xfffbe8), softness: 1.5)

        let layers: [(base: Float, amplitude: Float, frequency: Float, lit: UInt32, shade: UInt32, haze: Float)] = [
            (0.53, 0.04, 1.6, 0xf2c490, 0xd39c74, 0.45),
            (0.62, 0.07, 1.2, 0xeeb072, 0xc27c4c, 0.25),
            (0.74, 0.10, 0.9, 0xe89d58, 0xae6536, 0.1),
            (0.90, 0.13, 0.7, 0xe18d48, 0x9c5428, 0),
        ]
        let air = Color(hex: 0xf2dfbc)
        for (index, layer) in layers.enumerated() {
            let edge = Ridge.dunes(c, noise, base: layer.base, amplitude: layer.amplitude,
                                   frequency: layer.frequency, offset: Float(index) * 7.3 + random.range(0, 10))
            let lit = Color.mix(Color(hex: layer.lit), air, layer.haze)
            let shade = Color.mix(Color(hex: layer.shade), air, layer.haze)
            let fall = c.h * 0.2
            c.fillBelow(edge) { x, _, depth in
                // The sun is to the left: the rising windward side is lit, the steep slip face shaded.
                let sunny = 1 - smoothstep(-0.05, 0.12, Ridge.slope(edge, x, reach: 1 + depth * 0.3))
                let light = sunny + (0.6 - sunny) * smoothstep(0, fall, depth)
                return Color.mix(shade, lit, light) * (1 - 0.1 * smoothstep(0, fall, depth))
            }
        }
    }
}
