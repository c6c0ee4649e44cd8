import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
import PhotoGridModel
import PhotoGridSamples
import PhotoGridTestFixtures

/// Bursts (`Bursts`) and the look they go by (`PerceptualHash`): frames of one scene a second
/// apart are one group, another scene in the same second is not, nor the same scene an hour on.
struct BurstsTests {
    static func frame(_ scene: Scene, shift: Int, brighter: Int = 0) -> RGBImage { BurstFixtures.frame(scene, shift: shift, brighter: brighter) }

    @Test func framesOfABurstHashCloseAndOtherScenesFar() {
        let frames = (0..<5).map { Self.frame(.hills, shift: $0, brighter: $0 * 3) }.map(PerceptualHash.difference)
        // Each frame looks like the one before; the first and last may be further apart (chained).
        for (a, b) in zip(frames, frames.dropFirst()) { #expect(PerceptualHash.distance(a, b) <= Bursts.distance) }
        for other in [Scene.sunset, .night, .desert, .lake] {
            let hash = PerceptualHash.difference(Self.frame(other, shift: 0))
            #expect(PerceptualHash.distance(hash, frames[0]) > Bursts.distance, "\(other) looks like the hills")
        }
        // A copy at another size hashes alike.
        let small = PhotoDecoder.scaled(Self.frame(.hills, shift: 0), shortSide: 60)
        #expect(PerceptualHash.distance(PerceptualHash.difference(small), frames[0]) <= 4)
    }

    @Test func photosGroupByTimeAndLookBoth() {
        let burst: UInt64 = 0xF0F0_F0F0_0F0F_0F0F
        let other: UInt64 = ~burst
        // Five a second apart (chained: the first and last are 4 s apart), one of another scene
        // in the same seconds, the same scene an hour later, and one without a date.
        let dates: [Int64?] = [100, 101, 102, 102, 103, 104, 3700, nil]
        let hashes: [UInt64?] = [burst, burst ^ 0b11, burst ^ 0b101, other, burst ^ 0b1, burst, burst, burst]
        #expect(Bursts.candidates(dates) == [0, 1, 2, 3, 4, 5])
        #expect(Bursts.groups(dates: dates, hashes: hashes) == [[0, 1, 2, 4, 5]])
        // Nothing within the gap: nothing to hash, no group.
        #expect(Bursts.candidates([10, 20, nil, 30]).isEmpty)
        #expect(Bursts.groups(dates: [10, 20, 30], hashes: [burst, burst, burst]).isEmpty)
    }
}
