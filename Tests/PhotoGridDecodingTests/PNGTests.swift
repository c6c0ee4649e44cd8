import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
import PhotoGridTestFixtures

/// PNG through libspng: files are made with libspng's own encoder (`PNG.encode`), as sixel tests
/// read back through libsixel.
@Suite struct PNGTests {
    @Test(arguments: [false, true])
    func eightAndSixteenBitTruecolourDecodeToTheSamePixels(sixteen: Bool) throws {
        let source = TestImages.gradient(width: 37, height: 23)
        let data = try #require(PNG.encode(source, bitDepth16: sixteen))
        #expect(PNG.isPNG(data))
        let header = try PNG.readHeader(data)
        #expect(header.width == 37 && header.height == 23 && !header.isInterlaced)
        #expect(try PNG.readHeader(Array(data.prefix(64))).width == 37)   // the size from the head alone
        #expect(try PNG.decode(data) == source)
    }

    @Test func transparencyIsCompositedOntoTheNeutralGrey() throws {
        let source = RGBImage(width: 3, height: 1, pixels: [255, 0, 0, 0, 255, 0, 0, 0, 255])
        let data = try #require(PNG.encode(source, alpha: [255, 0, 128]))
        let image = try PNG.decode(data)
        #expect(image[0, 0] == RGB(255, 0, 0))          // opaque: itself
        #expect(image[1, 0] == RGB(128, 128, 128))      // transparent: the background
        let half = image[2, 0]                          // half: between the two
        #expect(abs(Int(half.r) - 64) <= 1 && abs(Int(half.g) - 64) <= 1 && abs(Int(half.b) - 191) <= 1)
    }

    /// A large PNG is averaged in blocks as its rows arrive: the result is the mean of each block.
    @Test func shrinkingAveragesBlocks() throws {
        let source = TestImages.gradient(width: 40, height: 24)
        let image = try PNG.decode(try #require(PNG.encode(source)), shrink: 4)
        #expect(image.width == 10 && image.height == 6)
        for (x, y) in [(0, 0), (5, 3), (9, 5)] {
            var sum = [0, 0, 0]
            for dy in 0..<4 { for dx in 0..<4 { let p = source[x * 4 + dx, y * 4 + dy]; sum[0] += Int(p.r); sum[1] += Int(p.g); sum[2] += Int(p.b) } }
            let p = image[x, y]
            #expect(abs(Int(p.r) - sum[0] / 16) <= 1 && abs(Int(p.g) - sum[1] / 16) <= 1 && abs(Int(p.b) - sum[2] / 16) <= 1)
        }
    }

    @Test func damagedFilesGiveReasonsNotCrashes() throws {
        let data = try #require(PNG.encode(TestImages.gradient(width: 64, height: 64)))
        #expect(throws: DecodeError.self) { try PNG.decode(Array(data.prefix(data.count / 2))) }
        var flipped = data
        flipped[data.count / 2] ^= 0xFF                                    // a CRC no longer matches
        #expect(throws: DecodeError.self) { try PNG.decode(flipped) }
        #expect(throws: DecodeError.empty) { try PNG.decode([]) }
        let damaged: [[UInt8]] = [Array(data.prefix(40)), flipped]
        let reasons = damaged.map { (bytes: [UInt8]) -> String in
            do throws(DecodeError) { _ = try PNG.decode(bytes); return "" } catch { return error.reason }
        }
        #expect(reasons.allSatisfy { $0.hasSuffix("PNG") }, "\(reasons)")
    }

    /// A PNG named .png, one named .jpg and one with no extension are decoded for what they are.
    @Test func photosThatArePNGAreDecodedWhateverTheirName() throws {
        let source = TestImages.gradient(width: 300, height: 200)
        try TestImages.expectDecodedWhateverTheName(try #require(PNG.encode(source)), of: source,
                                                    names: ["shot.png", "misnamed.jpg", "no-extension"])
    }
}
