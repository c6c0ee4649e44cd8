/// Smooth seeded value noise in one and two dimensions, and its fractal sums.
///
/// Value noise (random values on an integer lattice, eased between) is enough for clouds, ridges
/// and mist, and is cheap: one hash per lattice corner, no gradients, no tables to allocate.
struct ValueNoise {
    let seed: UInt64

    init(seed: UInt64) { self.seed = seed }

    /// The lattice value at (x, y), in 0..<1.
    @inline(__always)
    private func lattice(_ x: Int, _ y: Int) -> Float {
        var h = seed ^ (UInt64(bitPattern: Int64(x)) &* 0x9E37_79B9_7F4A_7C15)
        h ^= UInt64(bitPattern: Int64(y)) &* 0xC2B2_AE3D_27D4_EB4F
        // MurmurHash3's finaliser: neighbouring lattice points must not look related.
        h = (h ^ (h >> 33)) &* 0xFF51_AFD7_ED55_8CCD
        h = (h ^ (h >> 33)) &* 0xC4CE_B9FE_1A85_EC53
        h ^= h >> 33
        return Float(h >> 40) / Float(1 << 24)
    }

    @inline(__always)
    private static func ease(_ t: Float) -> Float { t * t * (3 - 2 * t) }

    /// Noise at (x, y), in 0...1, one lattice cell per unit.
    @inline(__always)
    func sample(_ x: Float, _ y: Float) -> Float {
        let fx = x.rounded(.down), fy = y.rounded(.down)
        let ix = Int(fx), iy = Int(fy)
        let tx = ValueNoise.ease(x - fx), ty = ValueNoise.ease(y - fy)
        let a = lattice(ix, iy), b = lattice(ix + 1, iy)
        let c = lattice(ix, iy + 1), d = lattice(ix + 1, iy + 1)
        let top = a + (b - a) * tx, bottom = c + (d - c) * tx
        return top + (bottom - top) * ty
    }

    /// Noise along a line: the row y = 0 of the 2D noise.
    @inline(__always)
    func sample(_ x: Float) -> Float {
        let fx = x.rounded(.down)
        let ix = Int(fx)
        let a = lattice(ix, -7), b = lattice(ix + 1, -7)
        return a + (b - a) * ValueNoise.ease(x - fx)
    }

    /// Octaves of noise, each twice the frequency and half the weight, normalised to 0...1.
    func fractal(_ x: Float, _ y: Float, octaves: Int) -> Float {
        var sum: Float = 0, weight: Float = 1, total: Float = 0
        var fx = x, fy = y
        for octave in 0..<octaves {
            sum += sample(fx + Float(octave) * 17.3, fy) * weight
            total += weight
            weight *= 0.5
            fx *= 2; fy *= 2
        }
        return sum / total
    }

    func fractal(_ x: Float, octaves: Int) -> Float {
        var sum: Float = 0, weight: Float = 1, total: Float = 0
        var fx = x
        for octave in 0..<octaves {
            sum += sample(fx + Float(octave) * 31.7) * weight
            total += weight
            weight *= 0.5
            fx *= 2
        }
        return sum / total
    }

    /// Fractal noise with straight lines between lattice points instead of eased curves:
    /// straight flanks and sharp peaks at every scale, the way mountains stand against the sky.
    func jagged(_ x: Float, octaves: Int) -> Float {
        var sum: Float = 0, weight: Float = 1, total: Float = 0
        var fx = x
        for octave in 0..<octaves {
            let shifted = fx + Float(octave) * 11.1
            let floor = shifted.rounded(.down)
            let a = lattice(Int(floor), 13), b = lattice(Int(floor) + 1, 13)
            sum += (a + (b - a) * (shifted - floor)) * weight
            total += weight
            weight *= 0.45
            fx *= 2.1
        }
        return sum / total
    }
}
