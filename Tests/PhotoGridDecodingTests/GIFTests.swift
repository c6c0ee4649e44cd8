import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
import PhotoGridTestFixtures

/// GIF through giflib: files are made with giflib's own encoder (`GIF.encode`).
@Suite struct GIFTests {
    @Test(arguments: [false, true])
    func theFirstFrameDecodesToItsExactColours(interlaced: Bool) throws {
        let source = TestImages.quadrants(width: 40, height: 30)
        let data = try #require(GIF.encode(source, interlaced: interlaced, frames: 3))
        #expect(try GIF.readHeader(data).size == (40, 30))
        #expect(try GIF.decode(data) == source)
        try TestImages.expectDecodedWhateverTheName(try #require(GIF.encode(TestImages.quadrants(width: 200, height: 150))),
                                                   of: TestImages.quadrants(width: 200, height: 150),
                                                   names: ["a.gif", "B.GIF", "gif-named.jpg", "no-extension"])
    }

    /// The frame's LZW codes are decoded by photogrid (GIFCodes), from giflib's code blocks: noise
    /// over 255 colours fills the code table many times over (clear codes, full tables, codes
    /// naming the entry they make), and a few colours make long strings. Each comes back exact.
    @Test(arguments: [255, 3, 1])
    func longStreamsOfCodesComeBackExactly(colours: Int) throws {
        var random = SeededGenerator(seed: UInt64(colours))
        var source = RGBImage(width: 301, height: 211)
        for i in 0..<(301 * 211) {
            let c = colours == 1 ? 0 : Int(random.next() % UInt64(colours))
            let level = UInt8(c)
            source.pixels[i * 3] = level; source.pixels[i * 3 + 1] = 255 - level; source.pixels[i * 3 + 2] = level / 2
        }
        for interlaced in [false, true] {
            let data = try #require(GIF.encode(source, interlaced: interlaced))
            #expect(try GIF.decode(data) == source, "\(colours) colours, interlaced \(interlaced)")
        }
    }

    /// Shrunk as its rows are read, interlaced or not, with transparency and a frame smaller than
    /// its screen: each pixel the rounded mean of its block of the whole frame as displayed.
    @Test(arguments: [(2, false), (3, true), (5, false)])
    func shrinkingWhileReadingGivesTheBlocksMeans(shrink: Int, interlaced: Bool) throws {
        let source = TestImages.quadrants(width: 41, height: 31)
        let see = (0..<(41 * 31)).map { $0 % 7 == 0 }
        var data = try #require(GIF.encode(source, transparent: see, interlaced: interlaced))
        let whole = try GIF.decode(data)
        let shrunk = try GIF.decode(data, shrink: shrink)
        #expect(shrunk == Self.blockMeans(whole, shrink))
        // A frame narrower than its screen: the screen widened to 50 in the header.
        data[6] = 50
        let wide = try GIF.decode(data)
        #expect(wide.width == 50 && wide[45, 5] == RGB(UInt8(PNG.background.r), UInt8(PNG.background.g), UInt8(PNG.background.b)))
        #expect(try GIF.decode(data, shrink: shrink) == Self.blockMeans(wide, shrink))
    }

    static func blockMeans(_ image: RGBImage, _ step: Int) -> RGBImage {
        var out = RGBImage(width: image.width / step, height: image.height / step)
        for oy in 0..<out.height {
            for ox in 0..<out.width {
                for c in 0..<3 {
                    var sum = 0
                    for y in (oy * step)..<(oy * step + step) { for x in (ox * step)..<(ox * step + step) { sum += Int(image.pixels[(y * image.width + x) * 3 + c]) } }
                    out.pixels[(oy * out.width + ox) * 3 + c] = UInt8((sum + step * step / 2) / (step * step))
                }
            }
        }
        return out
    }

    @Test func transparencyIsCompositedOntoTheSameGreyAsPNG() throws {
        let source = RGBImage(width: 2, height: 1, pixels: [255, 0, 0, 0, 255, 0])
        let image = try GIF.decode(try #require(GIF.encode(source, transparent: [false, true])))
        #expect(image[0, 0] == RGB(255, 0, 0))
        #expect(image[1, 0] == RGB(UInt8(PNG.background.r), UInt8(PNG.background.g), UInt8(PNG.background.b)))
    }

    /// Only the records before the first frame are read: 100,000 frames after it cost nothing.
    @Test func anAnimationOf100000FramesShowsItsFirstAtOnce() throws {
        let data = try #require(GIF.encode(TestImages.quadrants(width: 16, height: 16), frames: 100_000))
        #expect(data.count > 1_000_000)
        let start = ContinuousClock.now
        #expect(try GIF.decode(data) == TestImages.quadrants(width: 16, height: 16))
        // Generous, for a loaded machine: reading all frames would take seconds.
        #expect(ContinuousClock.now - start < .milliseconds(500))
    }

    /// A frame is clipped to the logical screen, as browsers draw it: a 16 x 16 screen whose frame
    /// says 8000 x 8000 (found by the fuzzer: 192 MB of canvas from 187 bytes) is 16 x 16.
    @Test func aFrameLargerThanItsScreenIsClippedToIt() throws {
        var data = try #require(GIF.encode(TestImages.quadrants(width: 16, height: 16)))
        // The frame descriptor's width and height, after the header (13), palette (768) and the
        // graphic control extension (8): ',' then left, top, width, height.
        let at = try #require(data.firstIndex(of: 0x2C))
        data[at + 5] = 0x40; data[at + 6] = 0x1F; data[at + 7] = 0x40; data[at + 8] = 0x1F
        do throws(DecodeError) {
            let image = try GIF.decode(data)
            #expect(image.width == 16 && image.height == 16)
        } catch {
            #expect(error == .truncatedFile(format: "GIF") || error.reason == "corrupt GIF")
        }
    }

    /// A screen of 16 x 60,000 (under the 16 MP limit) whose frame says 60,000 x 60,000: the rows
    /// kept while decoding would take 3.6 GB. Refused before anything is allocated for them.
    @Test func aFrameFarWiderThanItsTallScreenIsRefused() throws {
        var data = try #require(GIF.encode(TestImages.quadrants(width: 16, height: 16)))
        data[8] = 0x60; data[9] = 0xEA                  // screen height 60,000
        let at = try #require(data.firstIndex(of: 0x2C))
        data[at + 5] = 0x60; data[at + 6] = 0xEA; data[at + 7] = 0x60; data[at + 8] = 0xEA
        #expect(throws: DecodeError.tooLarge) { try GIF.decode(data) }
    }

    @Test func damagedFilesGiveReasonsNotCrashes() throws {
        let data = try #require(GIF.encode(TestImages.gradient(width: 16, height: 16).quantisedForGIF()))
        #expect(throws: DecodeError.truncatedFile(format: "GIF")) { try PhotoDecoder().decode(Array(data.prefix(data.count / 2)), covering: 8, atMost: 16) }
        for length in [6, 10, 13, 40] {
            #expect(throws: DecodeError.self) { try PhotoDecoder().decode(Array(data.prefix(length)), covering: 8, atMost: 16) }
        }
        for at in stride(from: 6, to: data.count, by: 2) {
            var damaged = data
            damaged[at] ^= 0xA5
            _ = try? PhotoDecoder().decode(damaged, covering: 8, atMost: 16)
        }
        // A logical screen of 65535 x 65535 is refused before anything is allocated for it.
        var huge = data
        huge[6] = 0xFF; huge[7] = 0xFF; huge[8] = 0xFF; huge[9] = 0xFF
        #expect(throws: DecodeError.tooLarge) { try PhotoDecoder().decode(huge, covering: 8, atMost: 16) }
    }
}

extension RGBImage {
    /// At most 216 colours (six levels a channel), as a GIF can hold.
    func quantisedForGIF() -> RGBImage {
        var copy = self
        for i in 0..<copy.pixels.count { copy.pixels[i] = UInt8(Int(copy.pixels[i]) / 51 * 51) }
        return copy
    }
}
