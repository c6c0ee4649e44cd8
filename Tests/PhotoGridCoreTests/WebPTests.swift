import Foundation
import Testing
@testable import PhotoGridCore

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
        let folder = TestImages.scratchFolder("webp")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let source = TestImages.gradient(width: 300, height: 200)
        let data = try #require(WebP.encode(source))
        for name in ["saved.webp", "misnamed.jpg", "no-extension"] {
            try Data(data).write(to: URL(fileURLWithPath: folder + "/" + name))
        }
        let photos = try FolderScanner().scan(RawPath(folder))
        #expect(photos.count == 3)
        for photo in photos {
            let info = try #require(PhotoDecoder().info(of: photo))
            #expect(info.width == 300 && info.height == 200)
            let decoded = try PhotoDecoder().image(of: photo, covering: 100, atMost: 128)
            #expect(decoded.image.height >= 100 && decoded.image.height <= 128, "\(photo.name): \(decoded.image.width)x\(decoded.image.height)")
            let expected = PhotoDecoder.scaled(source, shortSide: decoded.image.height)
            #expect(TestImages.meanAbsoluteError(PhotoDecoder.scaled(decoded.image, shortSide: expected.height), expected) < 4)
        }
    }
}
