import Foundation
import Glibc
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// TIFF through libtiff and JPEG XL through libjxl, against files made here with Debian's tools:
/// ImageMagick's TIFFs (8-bit LZW, 16-bit zip, tiled, turned by their Orientation tag) decode to
/// the picture ImageMagick makes of them; cjxl's lossy and lossless files to the picture djxl,
/// libjxl's own decoder, makes. Damaged files say what they are.
@Suite(.serialized) struct TIFFAndJXLTests {
    static let tools = ["convert", "cjxl", "djxl"].allSatisfy { (try? Subprocess.run(["sh", "-c", "command -v \($0)"]))?.status == 0 }
    static let source = Paths.root + "/sample-gallery/landscapes/autumn-01.jpg"

    func run(_ arguments: [String]) throws { try TestImages.runTool(arguments) }
    func ppm(_ path: String) throws -> RGBImage { try TestImages.readPPM(path) }

    @Test(.enabled(if: TIFFAndJXLTests.tools, "ImageMagick or libjxl-tools is not installed"))
    func tiffsDecodeAsImageMagickReadsThem() throws {
        let folder = TestImages.scratchFolder("tiff")
        defer { TestImages.remove(folder) }
        // A smaller copy of a sample photo, the source of every file below.
        try run(["convert", Self.source, "-resize", "320x240", folder + "/source.png"])
        let kinds: [(String, [String])] = [
            ("lzw8.tif", ["-depth", "8", "-compress", "lzw"]),
            ("zip16.tif", ["-depth", "16", "-compress", "zip"]),
            ("tiled.tif", ["-depth", "8", "-define", "tiff:tile-geometry=64x64", "-compress", "lzw"]),
            ("right.tif", ["-orient", "RightTop", "-compress", "none"]),
            ("alpha.tif", ["-alpha", "set", "-channel", "A", "-evaluate", "set", "50%", "+channel", "-compress", "zip"]),
        ]
        for (name, options) in kinds {
            let path = folder + "/" + name
            try run(["convert", folder + "/source.png"] + options + [path])
            // ImageMagick's picture of it, turned as its tag says and over the same grey.
            try run(["convert", path, "-auto-orient", "-background", "rgb(128,128,128)", "-alpha", "remove", "-depth", "8", folder + "/ref.ppm"])
            let reference = try ppm(folder + "/ref.ppm")
            let data = try #require(TestImages.read(path))
            let decoded = try TIFF.decode(data)
            #expect(decoded.width == reference.width && decoded.height == reference.height, "\(name): \(decoded.width)x\(decoded.height)")
            guard decoded.width == reference.width && decoded.height == reference.height else { continue }
            let error = TestImages.meanAbsoluteError(decoded, reference)
            #expect(error < 1.0, "\(name): mean difference \(error)")
            // The same through the decoder seam, by content and at a tile's size.
            #expect(try PhotoDecoder.displaySize(of: data) == (reference.width, reference.height) ? true : false)
            let tile = try PhotoDecoder().decode(data, covering: 64, atMost: 128)
            #expect(min(tile.image.width, tile.image.height) == 64 || min(tile.image.width, tile.image.height) <= 128, "\(name)")
        }
        // The details: the size as shown, the camera from the tags.
        let photo = Photo(path: RawPath(folder + "/right.tif"), relativePath: RawPath("right.tif"))
        let info = try #require(PhotoDecoder().info(of: photo))
        #expect(info.width == 240 && info.height == 320)
    }

    @Test(.enabled(if: TIFFAndJXLTests.tools, "ImageMagick or libjxl-tools is not installed"))
    func jpegXLDecodesAsDjxlMakesIt() throws {
        let folder = TestImages.scratchFolder("jxl")
        defer { TestImages.remove(folder) }
        try run(["convert", Self.source, "-resize", "320x240", folder + "/source.png"])
        for (name, distance) in [("lossy.jxl", "1.5"), ("lossless.jxl", "0")] {
            let path = folder + "/" + name
            try run(["cjxl", folder + "/source.png", path, "-d", distance, "--quiet"])
            try run(["djxl", path, folder + "/ref.png", "--quiet"])
            try run(["convert", folder + "/ref.png", "-depth", "8", folder + "/ref.ppm"])
            let reference = try ppm(folder + "/ref.ppm")
            let data = try #require(TestImages.read(path))
            let decoded = try JXL.decode(data)
            #expect(decoded.width == 320 && decoded.height == 240)
            let error = TestImages.meanAbsoluteError(decoded, reference)
            #expect(error < 1.0, "\(name): mean difference \(error) from djxl's")
            if distance == "0" {
                // Lossless: the source's own pixels.
                try run(["convert", folder + "/source.png", "-depth", "8", folder + "/source.ppm"])
                #expect(TestImages.meanAbsoluteError(decoded, try ppm(folder + "/source.ppm")) == 0)
            }
            let tile = try PhotoDecoder().decode(data, covering: 64, atMost: 128)
            #expect(tile.image.height <= 128 && tile.image.height >= 64)
        }
    }

    /// A lossless JPEG XL of an sRGB picture, and the PNG djxl makes of it (with an ICC profile
    /// libjxl writes for sRGB), shown as the source's own pixels: any description of sRGB is
    /// sRGB (issue 46 found them 5 and 2.7 levels away on average).
    @Test(.enabled(if: TIFFAndJXLTests.tools, "ImageMagick or libjxl-tools is not installed"))
    func anSRGBDescriptionGivesTheSourcesPixels() throws {
        let folder = TestImages.scratchFolder("jxl-srgb")
        defer { TestImages.remove(folder) }
        // Eight bits a sample, as photos are: the pixels each decode must give back exactly.
        try run(["convert", Self.source, "-resize", "320x240", "-depth", "8", folder + "/source.png"])
        try run(["convert", folder + "/source.png", "-depth", "8", folder + "/source.ppm"])
        let source = try ppm(folder + "/source.ppm")
        try run(["cjxl", folder + "/source.png", folder + "/lossless.jxl", "-d", "0", "--quiet"])
        try run(["djxl", folder + "/lossless.jxl", folder + "/djxl.png", "--quiet"])
        for name in ["source.png", "lossless.jxl", "djxl.png"] {
            let data = try #require(TestImages.read(folder + "/" + name))
            let shown = try PhotoDecoder().decode(data, covering: 240, atMost: 240).image
            let error = TestImages.meanAbsoluteError(shown, source)
            print("\(name): mean difference \(error) from the source")
            #expect(shown.width == 320 && error < 1.0, "\(name): mean difference \(error) from the source")
        }
    }

    @Test(.enabled(if: TIFFAndJXLTests.tools, "ImageMagick or libjxl-tools is not installed"))
    func damagedFilesSayWhatTheyAre() throws {
        let folder = TestImages.scratchFolder("tiff-bad")
        defer { TestImages.remove(folder) }
        try run(["convert", Self.source, "-resize", "160x120", "-compress", "lzw", folder + "/whole.tif"])
        try run(["cjxl", Self.source, folder + "/whole.jxl", "-d", "2", "--quiet"])
        for name in ["whole.tif", "whole.jxl"] {
            let data = try #require(TestImages.read(folder + "/" + name))
            for cut in [4, 16, data.count / 3, data.count * 2 / 3] {
                #expect(throws: DecodeError.self, "\(name) cut at \(cut)") { try PhotoDecoder().decode(Array(data.prefix(cut)), covering: 64, atMost: 128) }
            }
        }
        // Not a TIFF at all, named as one: said so, never "unsupported".
        TestImages.write(Array("hello, not a picture".utf8), to: folder + "/fake.tif")
        let fake = Photo(path: RawPath(folder + "/fake.tif"), relativePath: RawPath("fake.tif"))
        #expect(throws: DecodeError.corruptFile(format: "TIFF", "not a TIFF file")) {
            try PhotoDecoder.checkFormat(fake, head: Array("hello, not a pict".utf8))
        }
        #expect(ImageFormat(fileExtension: "tif") == .tiff && ImageFormat(fileExtension: "jxl") == .jxl)
        #expect(ImageFormat(content: [0x4D, 0x4D, 0, 0x2A]) == .tiff && ImageFormat(content: [0xFF, 0x0A, 0xFA]) == .jxl)
    }
}
