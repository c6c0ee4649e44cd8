/// Skylines: the top edge of a layer of land, as one y (in pixels, fractional) per column.
///
/// Horizontal positions are measured in picture heights, so a panorama shows more hills
/// rather than the same hills stretched, and a thumbnail of the same shape shows the same ones.
enum Ridge {
    /// Rolling land: fractal noise around `base` (a fraction of the height), `amplitude` up or down.
    static func rolling(_ c: Canvas, _ noise: ValueNoise, base: Float, amplitude: Float,
                        frequency: Float, octaves: Int = 3, offset: Float = 0) -> [Float] {
        columns(c) { u in
            (base - amplitude * (noise.fractal(u * frequency + offset, octaves: octaves) - 0.5) * 2) * c.h
        }
    }

    /// Mountain crests: jagged noise rises up to `amplitude` above `base`.
    static func peaks(_ c: Canvas, _ noise: ValueNoise, base: Float, amplitude: Float,
                      frequency: Float, octaves: Int = 5, offset: Float = 0) -> [Float] {
        columns(c) { u in
            // Stretched about the middle: the octaves' average is flatter than mountains are.
            let n = (noise.jagged(u * frequency + offset, octaves: octaves) - 0.5) * 1.8 + 0.5
            return (base - amplitude * n) * c.h
        }
    }

    /// Sand dunes: a long windward rise and a short steep slip face per period, sharp at the crest,
    /// smooth in the trough; the period wanders so the dunes do not line up like waves.
    static func dunes(_ c: Canvas, _ noise: ValueNoise, base: Float, amplitude: Float,
                      frequency: Float, offset: Float = 0) -> [Float] {
        columns(c) { u in
            let t = u * frequency + offset + noise.sample(u * 0.8 + offset) * 0.9
            let phase = t - t.rounded(.down)
            let profile: Float
            if phase < 0.72 {
                let rise = phase / 0.72
                profile = rise * rise
            } else {
                let fall = 1 - (phase - 0.72) / 0.28
                profile = fall * fall * fall
            }
            let size = 0.6 + 0.4 * noise.sample(t.rounded(.down) * 0.37 + 5)
            return (base - amplitude * profile * size) * c.h
        }
    }

    /// Conifers standing on `ground`: the lower of the ground and a row of narrow triangles.
    /// `spacing` and `heights` are fractions of the picture height.
    static func pines(_ c: Canvas, on ground: [Float], _ random: inout SeededRandom, spacing: Float,
                      heights: ClosedRange<Float>, narrowness: Float = 2.6) -> [Float] {
        var edge = ground
        var trees = SeededRandom(seed: random.next())
        var u = -spacing * trees.unit()
        let end = c.w / c.h + spacing
        while u < end {
            let height = trees.range(heights.lowerBound, heights.upperBound) * c.h
            let center = u * c.h
            let column = min(max(Int(center), 0), c.width - 1)
            let top = ground[column] - height
            let halfWidth = height / narrowness
            let x0 = max(0, Int((center - halfWidth).rounded(.down)))
            let x1 = min(c.width - 1, Int((center + halfWidth).rounded(.up)))
            if x0 <= x1 {
                for x in x0...x1 {
                    let y = top + abs(Float(x) + 0.5 - center) * narrowness
                    if y < edge[x] { edge[x] = y }
                }
            }
            u += spacing * trees.range(0.5, 1.5)
        }
        return edge
    }

    /// How steep the edge is around column x, in pixels down per pixel right (negative where it rises),
    /// measured `reach` pixels either side: a wide reach follows the big shapes and ignores the small.
    @inline(__always)
    static func slope(_ edge: [Float], _ x: Int, reach: Float = 1) -> Float {
        let r = max(1, Int(reach))
        let lo = max(0, x - r), hi = min(edge.count - 1, x + r)
        guard hi > lo else { return 0 }
        return (edge[hi] - edge[lo]) / Float(hi - lo)
    }

    /// Evaluates `top(u)` at every column's centre, with u in picture heights.
    private static func columns(_ c: Canvas, _ top: (Float) -> Float) -> [Float] {
        (0..<c.width).map { x in top((Float(x) + 0.5) / c.h) }
    }
}
