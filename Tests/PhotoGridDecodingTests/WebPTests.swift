import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
import PhotoGridTestFixtures

/// WebP through libwebp: files are made with libwebp's own lossless encoder (`WebP.encode`).
@Suite struct WebPTests {
    @Test func losslessDecodesToTheSamePixelsAndScalesWhileDecoding() throws {
        let source = TestImages.gradient(width: 60, height: 40)
        let data = try #require(WebP.encode(source))
        #expect(WebP.isWebP(data) && !PNG.isPNG(data))
        let header = try WebP.readHeader(data)
        #expect(header.width == 60 && header.height == 40 && !header.isAnimated)
        #expect(try WebP.decode(data) == source)
        let small = try WebP.decode(data, width: 30, height: 20)
        #expect(small.width == 30 && small.height == 20)
        #expect(TestImages.meanAbsoluteError(small, PhotoDecoder.scaled(source, shortSide: 20)) < 4)
    }

    @Test func transparencyIsCompositedOntoTheSameGreyAsPNG() throws {
        let source = RGBImage(width: 2, height: 1, pixels: [255, 0, 0, 0, 255, 0])
        let image = try WebP.decode(try #require(WebP.encode(source, alpha: [255, 0])))
        #expect(image[0, 0] == RGB(255, 0, 0))
        #expect(image[1, 0] == RGB(UInt8(PNG.background.r), UInt8(PNG.background.g), UInt8(PNG.background.b)))
    }

    /// An animation, put together here from two still frames (RIFF, VP8X with its animation
    /// flag, ANIM, then one ANMF chunk a frame): the grid shows the first frame.
    @Test func anAnimationShowsItsFirstFrame() throws {
        let first = RGBImage(width: 8, height: 6, fill: RGB(200, 30, 30)), second = RGBImage(width: 8, height: 6, fill: RGB(30, 30, 200))
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        func chunk(_ tag: String, _ body: [UInt8]) -> [UInt8] { Array(tag.utf8) + le(body.count, 4) + body + (body.count % 2 == 1 ? [0] : []) }
        var chunks = chunk("VP8X", [0x02, 0, 0, 0] + le(7, 3) + le(5, 3)) + chunk("ANIM", [0, 0, 0, 0, 0, 0])
        for frame in [first, second] {
            let still = try #require(WebP.encode(frame))
            chunks += chunk("ANMF", le(0, 3) + le(0, 3) + le(7, 3) + le(5, 3) + le(100, 3) + [0] + Array(still[12...]))
        }
        let data = Array("RIFF".utf8) + le(4 + chunks.count, 4) + Array("WEBP".utf8) + chunks
        let header = try WebP.readHeader(data)
        #expect(header.isAnimated && header.width == 8 && header.height == 6)
        #expect(try WebP.decode(data) == first)
    }

    /// libwebp holds a lossless picture whole while it decodes: one whose header says 9000x9000
    /// is refused before anything is allocated for it.
    @Test func aPictureTooLargeToDecodeWholeIsRefused() throws {
        func le(_ value: Int, _ bytes: Int) -> [UInt8] { (0..<bytes).map { UInt8((value >> (8 * $0)) & 0xFF) } }
        let still = try #require(WebP.encode(TestImages.gradient(width: 8, height: 8)))
        // An animation's canvas may be larger than its frames: this one's is 9000x9000.
        let frame = le(0, 3) + le(0, 3) + le(7, 3) + le(7, 3) + le(100, 3) + [0] + Array(still[12...])
        let chunks = Array("VP8X".utf8) + le(10, 4) + [0x02, 0, 0, 0] + le(8999, 3) + le(8999, 3)
            + Array("ANIM".utf8) + le(6, 4) + [0, 0, 0, 0, 0, 0] + Array("ANMF".utf8) + le(frame.count, 4) + frame + (frame.count % 2 == 1 ? [0] : [])
        let data = Array("RIFF".utf8) + le(4 + chunks.count, 4) + Array("WEBP".utf8) + chunks
        #expect(try WebP.readHeader(data).width == 9000)
        #expect(throws: DecodeError.tooLarge) { try PhotoDecoder().decode(data, covering: 100, atMost: 128) }
        #expect(throws: DecodeError.tooLarge) { try PhotoDecoder.decodeUpright(data, atLeast: (100, 100), fit: .fit) }
    }

    @Test func damagedFilesGiveReasonsNotCrashes() throws {
        let data = try #require(WebP.encode(TestImages.gradient(width: 64, height: 64)))
        var reasons: [String] = []
        var flipped = data
        for i in stride(from: 30, to: data.count, by: 7) { flipped[i] ^= 0x5A }
        for bytes in [Array(data.prefix(data.count / 2)), Array(data.prefix(20)), flipped] {
            do throws(DecodeError) { _ = try WebP.decode(bytes); reasons.append("decoded") } catch { reasons.append(error.reason) }
        }
        #expect(reasons[0] == "truncated WebP" && reasons[1].hasSuffix("WebP"), "\(reasons)")
        #expect(throws: DecodeError.empty) { try WebP.decode([]) }
    }

    @Test func photosThatAreWebPAreDecodedWhateverTheirName() throws {
        let source = TestImages.gradient(width: 300, height: 200)
        try TestImages.expectDecodedWhateverTheName(try #require(WebP.encode(source)), of: source,
                                                    names: ["saved.webp", "misnamed.jpg", "no-extension"])
    }
}
