/// A small seeded generator (SplitMix64).
///
/// The scenes must come out byte-identical on every run, so they cannot use the system generator,
/// and they do not go through `RandomNumberGenerator` either: the standard library does not
/// promise that `Float.random(in:using:)` keeps its algorithm across releases.
package struct SeededRandom {
    private var state: UInt64

    package init(seed: UInt64) { state = seed }

    package mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    /// Uniform in 0..<1, from the top 24 bits (all a Float holds).
    mutating func unit() -> Float {
        Float(next() >> 40) / Float(1 << 24)
    }

    mutating func range(_ low: Float, _ high: Float) -> Float {
        low + (high - low) * unit()
    }

    /// One of `items`, each equally likely.
    mutating func pick<T>(_ items: [T]) -> T {
        items[Int(next() % UInt64(items.count))]
    }
}
