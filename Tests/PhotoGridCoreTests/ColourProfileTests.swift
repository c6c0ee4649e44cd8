import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestSupport

/// Embedded ICC profiles through Little CMS: a photo converted to ProPhoto (ROMM RGB) by
/// ImageMagick with Ghostscript's free profiles, and tagged so, shows as its sRGB original does;
/// the same pixels without their profile do not, which is what the conversion mends.
@Suite(.serialized) struct ColourProfileTests {
    static let profiles = "/usr/share/color/icc/ghostscript"
    static let ready = (try? Subprocess.run(["sh", "-c", "command -v convert"]))?.status == 0
        && FileManager.default.fileExists(atPath: profiles + "/rommrgb.icc")

    func run(_ arguments: [String]) throws {
        let result = try Subprocess.run(arguments)
        try #require(result.status == 0, "\(arguments.joined(separator: " ")): \(result.errorText)")
    }

    @Test(.enabled(if: ColourProfileTests.ready, "ImageMagick or Ghostscript's ICC profiles (libgs-common) are not installed"))
    func aProPhotoJPEGLooksLikeItsSRGBOriginal() throws {
        let folder = TestImages.scratchFolder("icc")
        defer { TestImages.remove(folder) }
        let source = Paths.root + "/sample-gallery/landscapes/autumn-01.jpg"
        try run(["convert", source, "-resize", "480x360", "-quality", "95", folder + "/srgb.jpg"])
        try run(["convert", folder + "/srgb.jpg", "-profile", Self.profiles + "/srgb.icc", "-profile", Self.profiles + "/rommrgb.icc",
                 "-quality", "95", folder + "/prophoto.jpg"])
        try run(["convert", folder + "/prophoto.jpg", "+profile", "icc", folder + "/untagged.jpg"])
        func decoded(_ name: String) throws -> RGBImage {
            try PhotoDecoder().decode(try #require(TestImages.read(folder + "/" + name)), covering: 360, atMost: 360).image
        }
        let original = try decoded("srgb.jpg"), converted = try decoded("prophoto.jpg"), untagged = try decoded("untagged.jpg")
        let fixed = TestImages.meanAbsoluteError(converted, original), dull = TestImages.meanAbsoluteError(untagged, original)
        #expect(fixed < 4, "the ProPhoto JPEG differs from its original by \(fixed)")
        #expect(dull > 8, "without its profile it should look dull: \(dull)")
        #expect(JPEGSegments.parse(try #require(TestImages.read(folder + "/prophoto.jpg"))).icc != nil)
        // PNG's iCCP and TIFF's tag 34675 the same way.
        for name in ["prophoto.png", "prophoto.tif"] {
            try run(["convert", folder + "/srgb.jpg", "-profile", Self.profiles + "/srgb.icc", "-profile", Self.profiles + "/rommrgb.icc",
                     folder + "/" + name])
            let error = TestImages.meanAbsoluteError(try decoded(name), original)
            #expect(error < 4, "\(name) differs from its original by \(error)")
        }
        #expect(EmbeddedMetadata.pngProfile(try #require(TestImages.read(folder + "/prophoto.png"))) != nil)
        // A WebP with an ICCP chunk (cwebp keeps the PNG's), and JPEG XL lossy and lossless (cjxl
        // keeps it; libjxl says in which space the pixels it gives are).
        for (tool, name) in [(["cwebp", "-quiet", "-q", "95", "-metadata", "icc", folder + "/prophoto.png", "-o"], "prophoto.webp"),
                             (["cjxl", folder + "/prophoto.png", "-d", "0", "--quiet"], "lossless.jxl"),
                             (["cjxl", folder + "/prophoto.png", "-d", "1", "--quiet"], "lossy.jxl")] {
            guard (try? Subprocess.run(["sh", "-c", "command -v \(tool[0])"]))?.status == 0 else { continue }
            var arguments = tool
            if tool[0] == "cjxl" { arguments.insert(folder + "/" + name, at: 2) } else { arguments.append(folder + "/" + name) }
            try run(arguments)
            let error = TestImages.meanAbsoluteError(try decoded(name), original)
            #expect(error < 5, "\(name) differs from its original by \(error)")
        }
        #expect(EmbeddedMetadata.webpProfile(try #require(TestImages.read(folder + "/prophoto.webp"))) != nil)
        // A HEIC with the profile in its colr box (heif-enc keeps the PNG's), as iPhones write
        // Display P3's.
        if (try? Subprocess.run(["sh", "-c", "command -v heif-enc"]))?.status == 0 {
            try run(["heif-enc", "-q", "92", folder + "/prophoto.png", "-o", folder + "/prophoto.heic"])
            let heic = try #require(TestImages.read(folder + "/prophoto.heic"))
            #expect(HEIF.profile(heic) != nil)
            let error = TestImages.meanAbsoluteError(try decoded("prophoto.heic"), original)
            #expect(error < 5, "prophoto.heic differs from its original by \(error)")
        }

        // As a user sees it: the half-block sheets of both, side by side.
        func sheet(_ name: String) throws -> ScreenPixels {
            let printed = try Subprocess.run([Paths.binary, "--print", "--mode", "halfblock", "--size", "40x16", "--no-disk-cache",
                                              folder + "/" + name], environment: ["COLORTERM": "truecolor"])
            return ScreenPixels(text: String(decoding: printed.output, as: UTF8.self), columns: 40, rows: 16)
        }
        let whole = ScreenPixels.Rect(column: 0, row: 0, width: 40, height: 14)
        let printed = try sheet("prophoto.jpg").difference(try sheet("srgb.jpg"), whole, whole)
        #expect(printed < 8, "half-block difference \(printed)")
        #expect(try sheet("untagged.jpg").difference(try sheet("srgb.jpg"), whole, whole) > printed)
    }

    @Test func sRGBAndOtherProfilesChangeNothing() throws {
        // No profile, a damaged one, sRGB's own: the pixels as they were, nothing converted.
        let image = RGBImage(width: 2, height: 1, pixels: [10, 200, 30, 250, 5, 128])
        #expect(ColourProfile.toSRGB(image, profile: nil).pixels == image.pixels)
        #expect(ColourProfile.toSRGB(image, profile: Array(repeating: 7, count: 500)).pixels == image.pixels)
        if let srgb = TestImages.read(Self.profiles + "/srgb.icc") {
            #expect(!ColourProfile.converts(srgb))
            #expect(ColourProfile.toSRGB(image, profile: srgb).pixels == image.pixels)
        }
        if let romm = TestImages.read(Self.profiles + "/rommrgb.icc") {
            #expect(ColourProfile.converts(romm))
            #expect(ColourProfile.toSRGB(image, profile: romm).pixels != image.pixels)
        }
    }
}
