import Testing
@testable import PhotoGridModel

/// `RGBImage(width:height:fill:)` copies its first pixel after itself in doubling runs: every
/// size, odd ones and those that are not a power of two included, comes out the one colour.
@Suite struct RGBImageTests {
    @Test(arguments: [(0, 0), (1, 1), (1, 2), (3, 1), (7, 5), (640, 3), (33, 17)])
    func aFilledImageIsItsColourEverywhere(width: Int, height: Int) {
        let colour = RGB(12, 200, 7)
        let image = RGBImage(width: width, height: height, fill: colour)
        #expect(image.pixels.count == width * height * 3)
        let expected: [UInt8] = Array((0..<(width * height)).map { _ in [colour.r, colour.g, colour.b] }.joined())
        #expect(image.pixels == expected)
        #expect(RGBImage(width: width, height: height).pixels.allSatisfy { $0 == 0 })
    }
}
