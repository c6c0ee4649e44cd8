import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
import PhotoGridTestFixtures
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

    /// An AVIF whose `nclx` says Display P3 (primaries 12, sRGB's curve), as libavif and many
    /// encoders write them instead of a profile: the photo's pixels put into P3 here and encoded
    /// by libheif show as the sRGB photo does; the same pixels said to be sRGB do not. (libheif
    /// 1.15 writes no `nclx` box into a HEIC; an iPhone's HEIC carries an ICC profile, tested above.)
    @Test func aDisplayP3DescribedByNclxLooksLikeItsSRGBOriginal() throws {
        let data = try #require(TestImages.read(Paths.root + "/sample-gallery/landscapes/autumn-01.jpg"))
        let original = try PhotoDecoder().decode(data, covering: 240, atMost: 240).image
        let p3 = Self.displayP3(original)
        let tagged = try #require(HEIF.encode(p3, avif: true, quality: 95, primaries: 12, transfer: 13), "cannot encode")
        let untagged = try #require(HEIF.encode(p3, avif: true, quality: 95, primaries: 1, transfer: 13))
        #expect(HEIF.profile(tagged) != nil && HEIF.profile(untagged) == nil)
        let fixed = TestImages.meanAbsoluteError(try PhotoDecoder().decode(tagged, covering: 240, atMost: 240).image, original)
        let dull = TestImages.meanAbsoluteError(try PhotoDecoder().decode(untagged, covering: 240, atMost: 240).image, original)
        #expect(fixed < 3, "the P3 picture differs from its original by \(fixed)")
        #expect(dull > 2 * fixed, "read as sRGB it should look duller: \(dull) against \(fixed)")
        // PQ (HDR) and BT.709's own primaries make no profile: their samples are shown as they are.
        #expect(ColourProfile.described(primaries: 9, transfer: 16) == nil && ColourProfile.described(primaries: 1, transfer: 1) == nil)
    }

    /// `image` (sRGB) in Display P3: the same colours, sRGB's curve, P3's primaries (SMPTE EG 432-1,
    /// D65 white). The matrices are made from the primaries' xy here.
    static func displayP3(_ image: RGBImage) -> RGBImage {
        func toXYZ(_ p: [Double]) -> [[Double]] {
            // Each primary's XYZ at Y = 1: (x/y, 1, (1-x-y)/y); the white's the same way.
            func unit(_ x: Double, _ y: Double) -> [Double] { [x / y, 1, (1 - x - y) / y] }
            let columns: [[Double]] = [unit(p[0], p[1]), unit(p[2], p[3]), unit(p[4], p[5])]
            let white = unit(0.3127, 0.3290)
            let m = (0..<3).map { r in (0..<3).map { c in columns[c][r] } }
            let scale = solve(m, white)
            return (0..<3).map { r in (0..<3).map { c in m[r][c] * scale[c] } }
        }
        func solve(_ m: [[Double]], _ v: [Double]) -> [Double] {
            // Cramer's rule: three unknowns.
            func det(_ a: [[Double]]) -> Double {
                let first: Double = a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1])
                let second: Double = a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0])
                let third: Double = a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0])
                return first - second + third
            }
            let d = det(m)
            return (0..<3).map { (c: Int) -> Double in
                let replaced: [[Double]] = (0..<3).map { (r: Int) -> [Double] in (0..<3).map { (k: Int) -> Double in k == c ? v[r] : m[r][k] } }
                return det(replaced) / d
            }
        }
        let srgb = toXYZ([0.64, 0.33, 0.30, 0.60, 0.15, 0.06]), p3 = toXYZ([0.680, 0.320, 0.265, 0.690, 0.150, 0.060])
        let inverse = (0..<3).map { c in solve(p3, (0..<3).map { $0 == c ? 1 : 0 }) }   // columns of p3's inverse
        func linear(_ v: UInt8) -> Double { let x = Double(v) / 255; return x <= 0.04045 ? x / 12.92 : pow((x + 0.055) / 1.055, 2.4) }
        func encoded(_ x: Double) -> UInt8 {
            let v: Double = min(1, max(0, x))
            let curved: Double = v <= 0.0031308 ? v * 12.92 : 1.055 * pow(v, 1 / 2.4) - 0.055
            return UInt8((curved * 255).rounded())
        }
        var out = image
        for i in stride(from: 0, to: image.pixels.count, by: 3) {
            let rgb: [Double] = (0..<3).map { linear(image.pixels[i + $0]) }
            let xyz: [Double] = (0..<3).map { (r: Int) -> Double in (0..<3).reduce(0.0) { (sum: Double, k: Int) -> Double in sum + srgb[r][k] * rgb[k] } }
            for c in 0..<3 { out.pixels[i + c] = encoded((0..<3).reduce(0.0) { (sum: Double, k: Int) -> Double in sum + inverse[k][c] * xyz[k] }) }
        }
        return out
    }
}
