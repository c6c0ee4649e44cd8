import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures

@Suite struct DecodingTests {
    @Test func scaleIsTheSmallestEighthThatStillCovers() {
        #expect(PhotoDecoder.scaleEighths(forFactor: 0.01) == 1)
        #expect(PhotoDecoder.scaleEighths(forFactor: 0.125) == 1)
        #expect(PhotoDecoder.scaleEighths(forFactor: 0.126) == 2)
        #expect(PhotoDecoder.scaleEighths(forFactor: 0.5) == 4)
        #expect(PhotoDecoder.scaleEighths(forFactor: 0.51) == 5)
        #expect(PhotoDecoder.scaleEighths(forFactor: 1) == 8)
        #expect(PhotoDecoder.scaleEighths(forFactor: 3) == 8)      // never enlarged by the DCT
        // A 6000x4000 photo into a 390x400 square tile (fill): factor 0.1, so 1/8 (750x500) covers it.
        let f = PhotoDecoder.factor(width: 6000, height: 4000, box: (390, 400), fit: .fill)
        #expect(PhotoDecoder.scaleEighths(forFactor: f) == 1)
        // The same in a 1600x1600 zoom: factor 0.4, so 4/8 (3000x2000): 3/8 would give 1500 rows.
        let g = PhotoDecoder.factor(width: 6000, height: 4000, box: (1600, 1600), fit: .fill)
        #expect(PhotoDecoder.scaleEighths(forFactor: g) == 4)
    }

    @Test func decodesAtTheChosenDCTScale() throws {
        let jpeg = try JPEG.encode(TestImages.gradient(width: 640, height: 480), quality: 90)
        let header = try JPEG.readHeader(jpeg)
        #expect(header.width == 640 && header.height == 480 && header.components == 3 && !header.isProgressive)
        for eighths in [1, 2, 3, 4, 8] {
            let image = try JPEG.decode(jpeg, options: JPEG.DecodeOptions(scaleEighths: eighths))
            #expect(image.width == (640 * eighths + 7) / 8 && image.height == (480 * eighths + 7) / 8)
        }
        // A 100x100 tile of it needs 1/4: 160x120 covers it, 1/8 (80x60) would not.
        let upright = try PhotoDecoder.decodeUpright(jpeg, atLeast: (100, 100), fit: .fill)
        #expect(upright.width == 160 && upright.height == 120)
    }

    @Test func progressiveFilesDecodeLikeBaselineOnes() throws {
        let source = TestImages.gradient(width: 300, height: 200)
        let baseline = try JPEG.decode(try JPEG.encode(source, quality: 92))
        let progressiveData = try JPEG.encode(source, quality: 92, progressive: true)
        #expect(try JPEG.readHeader(progressiveData).isProgressive)
        let progressive = try JPEG.decode(progressiveData)
        #expect(TestImages.meanAbsoluteError(baseline, progressive) < 1.5)
        #expect(TestImages.meanAbsoluteError(source, progressive) < 3)
    }

    @Test func progressiveFilesAtSmallScalesStopAfterTheScansTheyUse() throws {
        let source = TestImages.gradient(width: 480, height: 320)
        let data = try JPEG.encode(source, quality: 90, progressive: true)
        let full = try JPEG.decodeCountingScans(data, options: JPEG.DecodeOptions(scaleEighths: 1))
        let dc = try JPEG.decodeCountingScans(data, options: JPEG.DecodeOptions(scaleEighths: 1, partialScans: true))
        #expect(dc.scans < full.scans)
        #expect(dc.scans == 1)                  // libjpeg's progression sends all DC first, in one scan
        #expect(dc.image.width == 60 && dc.image.height == 40)
        #expect(TestImages.meanAbsoluteError(dc.image, full.image) < 3)
        // At 2/8 the first AC scans are needed too, but not the refinements.
        let fullQuarter = try JPEG.decodeCountingScans(data, options: JPEG.DecodeOptions(scaleEighths: 2))
        let quarter = try JPEG.decodeCountingScans(data, options: JPEG.DecodeOptions(scaleEighths: 2, partialScans: true))
        #expect(quarter.scans > dc.scans && quarter.scans < fullQuarter.scans)
        #expect(TestImages.meanAbsoluteError(quarter.image, fullQuarter.image) < 3)
        // At larger scales the option changes nothing.
        let half = try JPEG.decodeCountingScans(data, options: JPEG.DecodeOptions(scaleEighths: 4, partialScans: true))
        #expect(half.scans == full.scans)
        // Baseline files have one scan either way.
        let baseline = try JPEG.encode(source, quality: 90)
        #expect(try JPEG.decodeCountingScans(baseline, options: JPEG.DecodeOptions(scaleEighths: 1, partialScans: true)).scans == 1)
    }

    @Test func tileImagesHaveTheExactBoxSize() throws {
        let jpeg = try JPEG.encode(TestImages.quadrants(width: 400, height: 200), quality: 95)
        let fill = try PhotoDecoder.tileImage(fromJPEG: jpeg, width: 50, height: 50, fit: .fill)
        #expect(fill.width == 50 && fill.height == 50)
        // Fill crops the sides: the middle of a 2:1 image. Top-left is red, top-right green.
        #expect(fill[2, 2].r > 180 && fill[47, 2].g > 160)
        let fit = try PhotoDecoder.tileImage(fromJPEG: jpeg, width: 50, height: 50, fit: .fit)
        #expect(fit.width == 50 && fit.height == 50)
        // Fit letterboxes: black bars above and below a 50x25 picture.
        #expect(fit[25, 2] == RGB(0, 0, 0) && fit[25, 47] == RGB(0, 0, 0))
        #expect(fit[2, 14].r > 180)
    }

    @Test func badDataGivesErrorsNotCrashes() throws {
        let good = try JPEG.encode(TestImages.gradient(width: 256, height: 256), quality: 90)
        #expect(throws: DecodeError.empty) { try JPEG.decode([]) }
        #expect(throws: DecodeError.truncated) { try JPEG.decode(Array(good.prefix(good.count / 2))) }
        #expect(throws: DecodeError.self) { try JPEG.decode(Array(good.prefix(2))) }
        #expect(throws: DecodeError.self) { try JPEG.decode(Array(good.prefix(200))) }
        var random = SystemRandomNumberGenerator()
        let noise = (0..<5000).map { _ in UInt8.random(in: 0...255, using: &random) }
        #expect(throws: DecodeError.self) { try JPEG.decode(noise) }
        #expect(throws: DecodeError.self) { try JPEG.decode([0xFF, 0xD8] + noise) }
        let png: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + noise
        // PNG's signature then noise: libspng's verdict, not a crash.
        #expect(throws: DecodeError.self) { try PhotoDecoder.decodeUpright(png, atLeast: (10, 10), fit: .fill) }
        let gif = Array("GIF89a".utf8) + noise
        // GIF's signature then noise: giflib's verdict (or a screen size past the limits), not a crash.
        #expect(throws: DecodeError.self) { try PhotoDecoder.decodeUpright(gif, atLeast: (10, 10), fit: .fill) }
        // Corrupting the entropy-coded data past the header: still an image or an error, never a crash.
        var damaged = good
        for i in stride(from: 700, to: damaged.count - 2, by: 37) { damaged[i] ^= 0x5A }
        _ = try? JPEG.decode(damaged)
    }

    @Test func hugeDimensionsAreRefusedBeforeDecoding() throws {
        var jpeg = try JPEG.encode(TestImages.gradient(width: 16, height: 16), quality: 90)
        // Rewrite the SOF0 frame size to 65535x65535.
        let sof = (0..<(jpeg.count - 1)).first { jpeg[$0] == 0xFF && jpeg[$0 + 1] == 0xC0 }!
        jpeg[sof + 5] = 0xFF; jpeg[sof + 6] = 0xFF; jpeg[sof + 7] = 0xFF; jpeg[sof + 8] = 0xFF
        #expect(throws: DecodeError.tooLarge) { try JPEG.readHeader(jpeg) }
        #expect(throws: DecodeError.tooLarge) { try JPEG.decode(jpeg) }
        // 30000x30000 is within JPEG's limits but past photogrid's 250 MP cap.
        jpeg[sof + 5] = 0x75; jpeg[sof + 6] = 0x30; jpeg[sof + 7] = 0x75; jpeg[sof + 8] = 0x30
        #expect(throws: DecodeError.tooLarge) { try JPEG.readHeader(jpeg) }
        #expect(throws: DecodeError.tooLarge) { try JPEG.decode(jpeg) }
    }

    @Test func photoFilesDecodeFromTheirDescriptorLikeFromMemory() throws {
        let folder = TestImages.scratchFolder("fd")
        defer { TestImages.remove(folder) }
        let source = TestImages.gradient(width: 800, height: 600)
        for progressive in [false, true] {
            let jpeg = try JPEG.encode(source, quality: 90, progressive: progressive)
            let path = folder + "/p\(progressive).jpg"
            TestImages.write(jpeg, to: path)
            let photo = Photo(path: RawPath(path), relativePath: RawPath("p.jpg"))
            let fromFile = try PhotoDecoder().image(of: photo, covering: 150, atMost: 256)
            let fromMemory = try PhotoDecoder().decode(jpeg, covering: 150, atMost: 256)
            #expect(fromFile.image == fromMemory.image)
            #expect(fromFile.origin == fromMemory.origin)
            #expect(min(fromFile.image.width, fromFile.image.height) == 150)      // decoded at 2/8: 1/8 gives 75
            // Cut in half on disk (still being copied): what there is, marked partial, and never
            // complete. (A progressive file's first half can hold every scan a small scale
            // needs: then it is whole at that scale.)
            TestImages.write(Array(jpeg.prefix(jpeg.count / 2)), to: path)
            if !progressive {
                #expect(try PhotoDecoder().image(of: photo, covering: 150, atMost: 256).isPartial)
            }
            let large = try PhotoDecoder().image(of: photo, covering: 600, atMost: 1024)
            #expect(large.isPartial && !large.isComplete)
        }
    }

    @Test func anEXIFThumbnailLargeEnoughStandsInForTheDecode() throws {
        let folder = TestImages.scratchFolder("thumb")
        defer { TestImages.remove(folder) }
        let image = TestImages.quadrants(width: 1200, height: 800)
        let thumbnail = try JPEG.encode(Resampler.fit(image, width: 160, height: 120), quality: 85)
        let plain = try JPEG.encode(image, quality: 85)
        let app1 = ExifBuilder.app1(ExifFields(orientation: 1, thumbnail: thumbnail))
        let length = app1.count + 2
        let withThumbnail = Array(plain[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1 + Array(plain[2...])
        let path = folder + "/t.jpg"
        TestImages.write(withThumbnail, to: path)
        let photo = Photo(path: RawPath(path), relativePath: RawPath("t.jpg"))
        // The thumbnail is letterboxed 160x120; cut to the photo's 3:2 it is 160x107.
        let small = try PhotoDecoder().image(of: photo, covering: 64, atMost: 64)
        #expect(small.origin == .embeddedThumbnail)
        #expect(small.image.height == 64 && small.image.width == 96)
        #expect(small.image[4, 4].r > 180 && small.image[91, 60].g > 180)    // red top-left, yellow bottom-right
        let preview = try #require(PhotoDecoder().thumbnail(of: photo))
        #expect(preview.width == 160 && abs(preview.height - 107) <= 1)
        // Its size known from its frame header before it is decoded: 107 rows cover, 108 do not.
        let header = try JPEG.readHeader(withThumbnail)
        #expect(PhotoDecoder.thumbnailMayCover(header, preview.height) && !PhotoDecoder.thumbnailMayCover(header, preview.height + 1))
        // Too small for a 400-pixel tile: the photo itself is decoded.
        if case .file = try PhotoDecoder().image(of: photo, covering: 400, atMost: 512).origin {} else { Issue.record("not decoded") }
        #expect(try PhotoDecoder(usesThumbnails: false).image(of: photo, covering: 64, atMost: 64).origin != .embeddedThumbnail)
    }

    @Test func unreadableAndUnsupportedFilesSayWhy() throws {
        let folder = TestImages.scratchFolder("unreadable")
        defer { TestImages.remove(folder) }
        let missing = Photo(path: RawPath(folder + "/gone.jpg"), relativePath: RawPath("gone.jpg"))
        #expect(throws: DecodeError.self) { try PhotoDecoder().image(of: missing, covering: 10, atMost: 64) }
        #expect(PhotoDecoder().thumbnail(of: missing) == nil)
        // A format photogrid does not read is named by its name (PSD); a file whose content is a
        // format it reads, damaged, says so in that format's name (a TIFF header and nothing else).
        TestImages.write([0x49, 0x49, 0x2A, 0x00] + Array(repeating: 0, count: 60), to: folder + "/scan.dat")
        TestImages.write(Array("8BPS".utf8) + Array(repeating: 0, count: 60), to: folder + "/layers.psd")
        let tiff = Photo(path: RawPath(folder + "/scan.dat"), relativePath: RawPath("scan.dat"), format: .other("TIFF"))
        do {
            _ = try PhotoDecoder().image(of: tiff, covering: 10, atMost: 64)
            Issue.record("a TIFF header with nothing behind it decoded")
        } catch {
            #expect(error.reason.hasPrefix("corrupt TIFF"), "\(error.reason)")
        }
        let psd = Photo(path: RawPath(folder + "/layers.psd"), relativePath: RawPath("layers.psd"))
        #expect(throws: DecodeError.unsupportedFormat("PSD")) { try PhotoDecoder().image(of: psd, covering: 10, atMost: 64) }
        #expect(DecodeError.unsupportedFormat("PSD").reason == "unsupported format (PSD)")
        #expect(DecodeError.unreadable("x").reason == "unreadable")
        #expect(DecodeError.corrupt("x").reason == "corrupt JPEG")
    }
}

@Suite struct ResamplerTests {
    @Test func shrinkingAveragesInsteadOfPickingPixels() {
        // A one-pixel black and white checkerboard shrunk 4x must come out mid-grey everywhere;
        // nearest-neighbour would give pure black or white.
        var checker = RGBImage(width: 64, height: 64)
        for y in 0..<64 { for x in 0..<64 where (x + y) % 2 == 0 { checker[x, y] = RGB(255, 255, 255) } }
        let small = Resampler.resample(checker, region: .init(x: 0, y: 0, width: 64, height: 64), width: 16, height: 16)
        for y in 1..<15 { for x in 1..<15 { #expect(abs(Int(small[x, y].r) - 128) <= 6) } }
    }

    /// Sizes down to one pixel each way, where the passes turn a single row or column on its
    /// side: every pixel keeps its own colour at the same size, and a flat colour stays flat.
    @Test func narrowPicturesKeepTheirPixels() {
        for (width, height) in [(1, 1), (1, 5), (5, 1), (2, 3), (7, 4)] {
            var image = RGBImage(width: width, height: height)
            for y in 0..<height { for x in 0..<width { image[x, y] = RGB(UInt8(40 * x + 3), UInt8(50 * y + 7), UInt8(11 * (x + y))) } }
            let whole = Resampler.Region(x: 0, y: 0, width: Double(width), height: Double(height))
            #expect(Resampler.resample(image, region: whole, width: width, height: height) == image, "\(width)x\(height)")
            var flat = RGBImage(width: width, height: height)
            for y in 0..<height { for x in 0..<width { flat[x, y] = RGB(200, 90, 17) } }
            for (w, h) in [(1, 1), (3, 1), (1, 3), (4, 6)] {
                let scaled = Resampler.resample(flat, region: whole, width: w, height: h)
                #expect(scaled.pixels == [UInt8]((0..<(w * h)).flatMap { _ in [200, 90, 17] as [UInt8] }), "\(width)x\(height) to \(w)x\(h)")
            }
        }
    }

    @Test func enlargingAndShrinkingKeepsSmoothImages() {
        let gradient = TestImages.gradient(width: 120, height: 80)
        let down = Resampler.resample(gradient, region: .init(x: 0, y: 0, width: 120, height: 80), width: 60, height: 40)
        let reference = TestImages.gradient(width: 60, height: 40)
        #expect(TestImages.meanAbsoluteError(down, reference) < 3)
        let up = Resampler.resample(down, region: .init(x: 0, y: 0, width: 60, height: 40), width: 120, height: 80)
        #expect(TestImages.meanAbsoluteError(up, gradient) < 3)
    }

    @Test func centreCropKeepsTheMiddle() {
        let crop = Resampler.centreCrop(width: 400, height: 200, toAspectOf: 1, 1)
        #expect(crop == .init(x: 100, y: 0, width: 200, height: 200))
        let tall = Resampler.centreCrop(width: 200, height: 400, toAspectOf: 2, 1)
        #expect(tall == .init(x: 0, y: 150, width: 200, height: 100))
        #expect(Resampler.fittedSize(width: 400, height: 200, inside: 100, 100) == (100, 50))
    }
}
