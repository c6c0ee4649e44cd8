import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// A sequential (baseline) JPEG at 1/8 from its DC coefficients, its AC ones passed over
/// (`JPEGEighth+Sequential`): libjpeg's picture where the colour is not subsampled, and as
/// close to the photo's own block averages as libjpeg's where it is.
@Suite struct SequentialDCTests {
    static let folder = Paths.root + "/Tests/Fixtures/sequential"
    static let whole = ["444", "grey", "rgb", "quality-100"]
    static let subsampled = ["420", "422", "440", "restart-every-row", "restart-every-5-mcus", "scan-per-component", "optimized-tables"]

    static var options: JPEG.DecodeOptions {
        var options = JPEG.DecodeOptions(scaleEighths: 1)
        (options.fast, options.partialScans) = (true, true)
        return options
    }

    static func fixture(_ name: String) throws -> [UInt8] { try FileReader.read(RawPath(folder + "/" + name + ".jpg")) }

    /// Where the first marker 0xFF `code` at or after `start` begins, if any. (A function: the
    /// same search as a closure inside #require took half a second of every build to check.)
    static func marker(_ code: UInt8, in data: [UInt8], from start: Int = 0) -> Int? {
        var at = start
        while at + 1 < data.count {
            if data[at] == 0xFF && data[at + 1] == code { return at }
            at += 1
        }
        return nil
    }

    static func ours(_ data: [UInt8], _ name: String) throws -> RGBImage {
        try #require(try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in data }), "\(name): not read").image
    }

    /// The mean of each 8x8 block of the full-size picture: what a pixel at 1/8 stands for.
    static func blockAverages(_ data: [UInt8], width: Int, height: Int) throws -> [Double] {
        let full = try JPEG.decode(data, options: .init())
        var averages = [Double](repeating: 0, count: width * height * 3)
        for y in 0..<height {
            for x in 0..<width {
                for channel in 0..<3 {
                    var sum = 0, count = 0
                    for dy in 0..<8 where y * 8 + dy < full.height {
                        for dx in 0..<8 where x * 8 + dx < full.width {
                            sum += Int(full.pixels[((y * 8 + dy) * full.width + x * 8 + dx) * 3 + channel])
                            count += 1
                        }
                    }
                    averages[(y * width + x) * 3 + channel] = Double(sum) / Double(count)
                }
            }
        }
        return averages
    }

    static func meanDistance(_ pixels: [UInt8], _ reference: [Double]) -> Double {
        zip(pixels, reference).map { abs(Double($0) - $1) }.reduce(0, +) / Double(pixels.count)
    }

    @Test func withoutSubsampledColourItIsLibjpegsPicture() throws {
        for name in Self.whole {
            let data = try Self.fixture(name)
            let ours = try Self.ours(data, name), theirs = try JPEG.decode(data, options: Self.options)
            #expect(ours.width == theirs.width && ours.height == theirs.height, "\(name)")
            let largest = zip(ours.pixels, theirs.pixels).map { abs(Int($0) - Int($1)) }.max() ?? 0
            #expect(largest <= 1, "\(name): a channel \(largest) from libjpeg's")
        }
    }

    /// With 4:2:0 colour libjpeg draws each chroma block through a 2x2 IDCT; this draws it from
    /// its lowest coefficients alone. Measured against the photo's own block averages (the mean
    /// channel's distance): 0.49 against libjpeg's 0.36 on the small fixtures, 0.24-0.33 against
    /// 0.22-0.32 on the gallery's photos; the bound is libjpeg's plus a fifth of a level.
    @Test func withSubsampledColourItIsAsCloseToThePhotoAsLibjpegs() throws {
        var files = try Self.subsampled.map { ($0, try Self.fixture($0)) }
        files.append(("gradient", try JPEG.encode(TestImages.gradient(width: 1001, height: 603), quality: 90)))
        for name in ["landscapes/misty-01.jpg", "night/night-01.jpg", "travel/beach-01.jpg"] {
            files.append((name, try FileReader.read(RawPath(Paths.gallery + "/" + name))))
        }
        for (name, data) in files {
            let ours = try Self.ours(data, name), theirs = try JPEG.decode(data, options: Self.options)
            #expect(ours.width == theirs.width && ours.height == theirs.height, "\(name)")
            let reference = try Self.blockAverages(data, width: ours.width, height: ours.height)
            let (mine, libjpeg) = (Self.meanDistance(ours.pixels, reference), Self.meanDistance(theirs.pixels, reference))
            #expect(mine <= libjpeg + 0.2, "\(name): \(mine) from the block averages, libjpeg's \(libjpeg)")
        }
    }

    /// Every file the gallery has, baseline or not: read when it is sequential and 8-bit, and
    /// each picture libjpeg's size.
    @Test func theSampleGallerysBaselinePhotosAreRead() throws {
        var read = 0
        let names = try #require(FileManager.default.enumerator(atPath: Paths.gallery)).compactMap { $0 as? String }
        for name in names where name.hasSuffix(".jpg") {
            let data = try FileReader.read(RawPath(Paths.gallery + "/" + name))
            let header = try JPEG.readHeader(data)
            guard let picture = try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in data }) else {
                continue
            }
            let theirs = try JPEG.decode(data, options: Self.options)
            #expect(picture.image.width == theirs.width && picture.image.height == theirs.height, "\(name)")
            if !header.isProgressive { read += 1 }
        }
        #expect(read > 10)
    }

    /// Cut short anywhere in its scan, or damaged: nil (libjpeg then shows what there is) or a
    /// picture, never a crash; a wrong restart marker breaks the scan.
    @Test func aFileCutShortOrDamagedIsLeftToLibjpeg() throws {
        let data = try Self.fixture("restart-every-5-mcus")
        let scan = try #require(Self.marker(0xDA, in: data))
        for end in stride(from: scan, to: data.count - 2, by: 7) {
            let cut = Array(data.prefix(end))
            #expect(try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in cut }) == nil, "cut at \(end)")
        }
        var random = SeededGenerator(seed: 11)
        for name in ["420", "quality-100", "scan-per-component"] {
            let whole = try Self.fixture(name)
            for round in 0..<700 {
                var damaged = whole
                let at = Int(random.next() % UInt64(damaged.count))
                damaged[at] = UInt8(truncatingIfNeeded: random.next())
                if round % 4 == 0 { damaged = Array(damaged.prefix(at + 1 + Int(random.next() % 40))) }
                _ = try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in damaged })
            }
        }
        let restart = try #require(Self.marker(0xD1, in: data, from: scan))
        var wrongRestart = data
        wrongRestart[restart + 1] = 0xD3
        #expect(try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in wrongRestart }) == nil)
    }

    @Test func aCancelledDecodeStops() throws {
        let data = try JPEG.encode(TestImages.gradient(width: 800, height: 600), quality: 90)
        let flag = CancelFlag()
        flag.cancel()
        #expect(throws: DecodeError.cancelled) { try JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: flag, prefix: { _ in data }) }
    }

    /// Through the decoder: a small tile of a baseline file is read this way, from the file and
    /// from memory; a larger one is libjpeg's as before.
    @Test func theDecoderReadsSmallTilesOfBaselineFilesThisWay() throws {
        let path = Self.folder + "/420.jpg"
        let photo = Photo(path: RawPath(path), relativePath: RawPath("420.jpg"))
        let small = try PhotoDecoder().image(of: photo, covering: 20, atMost: 40)
        let data = try FileReader.read(RawPath(path))
        let expected = try Self.ours(data, "420")
        #expect(small.image == expected && small.origin == .file(scaleEighths: 1, scans: 1))
        #expect(try PhotoDecoder().decode(data, covering: 20, atMost: 40).image == expected)
        let large = try PhotoDecoder().image(of: photo, covering: 200, atMost: 400)
        #expect(large.image.width > expected.width)
    }
}
