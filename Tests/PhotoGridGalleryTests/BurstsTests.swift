import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
import PhotoGridModel
import PhotoGridSamples
import PhotoGridTestFixtures

/// Bursts (`Bursts`) and the look they go by (`PhotoLook`): frames of one scene a second apart
/// are one group, another scene in the same second is not, nor the same scene an hour on; and
/// smooth pictures whose difference hashes agree by chance are told apart by their colours.
struct BurstsTests {
    static func frame(_ scene: Scene, shift: Int, brighter: Int = 0) -> RGBImage { BurstFixtures.frame(scene, shift: shift, brighter: brighter) }

    /// A smooth picture: a vertical gradient between two colours, barely any detail.
    static func smooth(_ top: (Int, Int, Int), _ bottom: (Int, Int, Int)) -> RGBImage {
        var image = RGBImage(width: 160, height: 100)
        for y in 0..<100 {
            for x in 0..<160 {
                let t = Double(y) / 99, at = (y * 160 + x) * 3
                image.pixels[at] = UInt8(Double(top.0) * (1 - t) + Double(bottom.0) * t)
                image.pixels[at + 1] = UInt8(Double(top.1) * (1 - t) + Double(bottom.1) * t)
                image.pixels[at + 2] = UInt8(Double(top.2) * (1 - t) + Double(bottom.2) * t)
            }
        }
        return image
    }

    @Test func framesOfABurstLookAlikeAndOtherScenesDoNot() {
        let frames = (0..<5).map { PhotoLook(Self.frame(.hills, shift: $0, brighter: $0 * 3)) }
        // Each frame looks like the one before; the first and last may be further apart (chained).
        for (a, b) in zip(frames, frames.dropFirst()) { #expect(a.isAlike(b)) }
        for other in Scene.allCases where other != .hills {
            #expect(!PhotoLook(Self.frame(other, shift: 0)).isAlike(frames[0]), "\(other) looks like the hills")
        }
        // A copy at another size looks alike.
        let small = PhotoDecoder.scaled(Self.frame(.hills, shift: 0), shortSide: 60)
        #expect(PhotoLook(small).isAlike(frames[0]))
    }

    @Test func smoothPicturesOfOtherColoursAreNotAlikeWhateverTheirHashes() {
        // A yellow dusk and a dark blue night: both a plain gradient top to bottom, so their
        // difference hashes are nearly the same noise; their colours are not.
        let dusk = PhotoLook(Self.smooth((230, 200, 90), (200, 150, 60))), night = PhotoLook(Self.smooth((20, 30, 80), (5, 10, 40)))
        #expect((dusk.hash ^ night.hash).nonzeroBitCount <= PhotoLook.hashDistance)
        #expect(!dusk.isAlike(night))
        #expect(dusk.colourDistance(night) > 100)
    }

    @Test func photosGroupByTimeAndLookBoth() {
        let burst = PhotoLook(hash: 0xF0F0_F0F0_0F0F_0F0F, colours: [100, 100, 100])
        func near(_ bits: UInt64) -> PhotoLook { PhotoLook(hash: burst.hash ^ bits, colours: [104, 98, 100]) }
        let other = PhotoLook(hash: ~burst.hash, colours: [100, 100, 100])
        // Five a second apart (chained: the first and last are 4 s apart), one of another scene
        // in the same seconds, the same scene an hour later, and one without a date.
        let dates: [Int64?] = [100, 101, 102, 102, 103, 104, 3700, nil]
        let looks: [PhotoLook?] = [burst, near(0b11), near(0b101), other, near(0b1), burst, burst, burst]
        #expect(Bursts.candidates(dates) == [0, 1, 2, 3, 4, 5])
        #expect(Bursts.groups(dates: dates, looks: looks) == [[0, 1, 2, 4, 5]])
        // Nothing within the gap: nothing to look at, no group.
        #expect(Bursts.candidates([10, 20, nil, 30]).isEmpty)
        #expect(Bursts.groups(dates: [10, 20, 30], looks: [burst, burst, burst]).isEmpty)
    }
}
