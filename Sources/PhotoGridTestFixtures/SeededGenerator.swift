import PhotoGridSamples

/// The sample scenes' SplitMix64 (`SeededRandom`) as a `RandomNumberGenerator`, so that a
/// failing random case can be replayed.
package struct SeededGenerator: RandomNumberGenerator {
    private var random: SeededRandom
    package init(seed: UInt64) { random = SeededRandom(seed: seed) }
    package mutating func next() -> UInt64 { random.next() }
}
