import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// A progressive JPEG at 1/8 from its DC scans alone (`JPEGEighth`): the same picture libjpeg
/// makes of those scans, on every layout of them, and libjpeg's whenever the file is one it does
/// not read.
@Suite struct ProgressiveDCTests {
    static let folder = Paths.root + "/Tests/Fixtures/progressive"
    static let names = ["420", "422", "444", "440", "grey", "rgb", "restart-every-row", "restart-every-5-mcus",
                        "dc-scan-per-component", "separate-scans-with-restarts"]

    static var options: JPEG.DecodeOptions {
        var options = JPEG.DecodeOptions(scaleEighths: 1)
        (options.fast, options.partialScans) = (true, true)
        return options
    }

    /// Each channel within 1 of libjpeg's (its chroma goes through a 2x2 IDCT with other rounding);
    /// where a component's DC refinement comes before another's first DC scan, libjpeg has that
    /// bit and this does not: within 2 there.
    static func expectLikeLibjpeg(_ data: [UInt8], _ name: String, tolerance: Int = 1) throws {
        let ours = try #require(try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in data }), "\(name): not read")
        let theirs = try JPEG.decodeCountingScans(data, options: options)
        #expect(ours.image.width == theirs.image.width && ours.image.height == theirs.image.height, "\(name)")
        #expect(ours.scans == theirs.scans, "\(name): \(ours.scans) scans read, libjpeg \(theirs.scans)")
        let largest = zip(ours.image.pixels, theirs.image.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
        #expect(largest <= tolerance, "\(name): a channel \(largest) from libjpeg's")
    }

    @Test func everyLayoutOfTheDCScansIsLibjpegsPicture() throws {
        for name in Self.names {
            let data = try FileReader.read(RawPath(Self.folder + "/" + name + ".jpg"))
            try Self.expectLikeLibjpeg(data, name, tolerance: name.contains("separate") || name.contains("per-component") ? 2 : 1)
        }
        // The sample gallery's progressive photos, and libjpeg-turbo's own encoder's.
        for name in ["night/night-03.jpg", "landscapes/misty-04.jpg", "landscapes/lake-03.jpg", "travel/lavender-04.jpg"] {
            try Self.expectLikeLibjpeg(try FileReader.read(RawPath(Paths.gallery + "/" + name)), name)
        }
        let encoded = try JPEG.encode(TestImages.gradient(width: 1001, height: 603), quality: 90, progressive: true)
        try Self.expectLikeLibjpeg(encoded, "gradient")
    }

    /// The DC scans past the first 256 KB read: the file is asked for more, and only as far as
    /// they go.
    @Test func theFileIsReadOnlyAsFarAsTheDCScans() throws {
        let data = try FileReader.read(RawPath(Self.folder + "/420.jpg"))
        // A comment segment of 60,000 bytes, five times, after the start marker.
        var padded = Array(data[0..<2])
        for _ in 0..<5 { padded += [0xFF, 0xFE, 0xEA, 0x62] + [UInt8](repeating: 0x20, count: 60_000) }
        padded += Array(data[2...]) + [UInt8](repeating: 0, count: 2_000_000)
        var asked: [Int] = []
        let picture = try #require(try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil) { count in
            asked.append(count)
            return Array(padded.prefix(count))
        })
        #expect(picture.image == (try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in data }))?.image)
        #expect(asked.count == 2 && asked.last! <= 1 << 20, "\(asked)")
    }

    /// What it does not read goes to libjpeg (nil): other frames, CMYK, 12 bits, arithmetic
    /// coding, and files that end or break before their DC scans are done. None crashes it.
    /// (Baseline files are read too: SequentialDCTests.)
    @Test func filesItDoesNotReadAreLeftToLibjpeg() throws {
        let progressive = try FileReader.read(RawPath(Self.folder + "/restart-every-5-mcus.jpg"))
        // Cut at every length up to the end of the first scan: nil each time.
        let firstScan = try #require(SequentialDCTests.marker(0xDA, in: progressive))
        let scanEnd = try #require((firstScan + 2..<(progressive.count - 1)).first { (at: Int) -> Bool in
            let marker: UInt8 = progressive[at + 1]
            return progressive[at] == 0xFF && marker != 0 && !(0xD0...0xD7).contains(marker)
        })
        let ends: [Int] = Array(stride(from: 0, to: scanEnd, by: 5)) + [firstScan + 4, firstScan + 14, scanEnd, scanEnd + 1]
        for end in ends {
            let cut = Array(progressive.prefix(end))
            let result = try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in cut })
            // Cut inside the first DC scan: its blocks past the cut would be made up.
            #expect(result == nil, "cut at \(end)")
        }
        // Too large for the limit.
        #expect(try JPEGEighth.decode(maxPixels: 1000, cancel: nil, prefix: { _ in progressive }) == nil)
        // A byte changed anywhere in the headers or the first scan, the file then cut there or
        // not: a picture or nil, never a crash; and one changed in a restart marker breaks the scan.
        var random = SeededGenerator(seed: 5)
        for round in 0..<2000 {
            var damaged = progressive
            let at = Int(random.next() % UInt64(min(firstScan + 2000, progressive.count)))
            damaged[at] = UInt8(truncatingIfNeeded: random.next())
            if round % 3 == 0 { damaged = Array(damaged.prefix(at + 1 + Int(random.next() % 40))) }
            _ = try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in damaged })
        }
        let restart = try #require((firstScan..<(progressive.count - 1)).first { (at: Int) -> Bool in progressive[at] == 0xFF && progressive[at + 1] == 0xD1 })
        var wrongRestart = progressive
        wrongRestart[restart + 1] = 0xD3
        #expect(try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in wrongRestart }) == nil)
        // The hostile corpus: nothing crashes; the CMYK, 12-bit and arithmetic files are not read.
        let bad = Paths.root + "/Tests/Fixtures/bad"
        for name in try FileManager.default.contentsOfDirectory(atPath: bad) where name.hasSuffix(".jpg") {
            let data = try FileReader.read(RawPath(bad + "/" + name))
            let result = try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in data })
            if ["cmyk-adobe.jpg", "12-bit-samples.jpg", "arithmetic-coded.jpg", "progressive-cut-during-the-fifth-scan.jpg"].contains(name) {
                #expect(result == nil || name.hasPrefix("progressive"), "\(name)")
            }
        }
    }

    @Test func aCancelledDecodeStops() throws {
        let data = try JPEG.encode(TestImages.gradient(width: 800, height: 600), quality: 90, progressive: true)
        let flag = CancelFlag()
        flag.cancel()
        #expect(throws: DecodeError.cancelled) { try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: flag, prefix: { _ in data }) }
    }

    /// Through the decoder: a small tile of a progressive file is read this way, from the file
    /// and from memory, upright; a larger one is libjpeg's as before.
    @Test func theDecoderReadsSmallTilesOfProgressiveFilesThisWay() throws {
        let path = Self.folder + "/420.jpg"
        let photo = Photo(path: RawPath(path), relativePath: RawPath("420.jpg"))
        let small = try PhotoDecoder().image(of: photo, covering: 20, atMost: 40)
        let data = try FileReader.read(RawPath(path))
        let expected = try #require(try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in data }))
        #expect(small.image == expected.image && small.origin == .file(scaleEighths: 1, scans: expected.scans))
        #expect(try PhotoDecoder().decode(data, covering: 20, atMost: 40).image == expected.image)
        let large = try PhotoDecoder().image(of: photo, covering: 200, atMost: 400)
        #expect(large.image.width > expected.image.width)
    }
}
