import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
import PhotoGridSamples
import PhotoGridTestFixtures

@Suite struct JPEGSegmentsTests {
    @Test(arguments: [false, true])
    func findsWhatLibjpegFindsAndTheInsertedSegments(progressive: Bool) throws {
        let fields = MetadataFixtures.allFields()
        let jpeg = try MetadataFixtures.jpeg(exif: fields, xmp: "A caption", iptc: "Ein Titel", progressive: progressive)
        let segments = JPEGSegments.parse(jpeg)
        let header = try JPEG.readHeader(jpeg)
        #expect(segments.width == header.width && segments.height == header.height)
        #expect(segments.width == 48 && segments.height == 32)
        #expect(segments.isProgressive == progressive && header.isProgressive == progressive)
        #expect(segments.exif == header.exif && segments.exif == ExifBuilder.tiff(fields))
        #expect(segments.xmp == Array(XMPBuilder.app1(description: "A caption").dropFirst(29)))
        #expect(segments.iptc == IPTCBuilder.iim(caption: "Ein Titel"))
        // libjpeg still decodes the file with the segments inserted.
        #expect(try JPEG.decode(jpeg).width == 48)

        let plain = JPEGSegments.parse(try MetadataFixtures.jpeg(progressive: progressive))
        #expect(plain.exif == nil && plain.xmp == nil && plain.iptc == nil && plain.width == 48)
    }

    @Test func insertedSegmentsFollowJFIFAndExif() throws {
        let jpeg = try MetadataFixtures.jpeg(exif: ExifFields(make: "M"), xmp: "x")
        // SOI, APP0 (JFIF), APP1 (Exif), then the inserted APP1 (XMP).
        #expect(jpeg[2] == 0xFF && jpeg[3] == 0xE0)
        let exifAt = 4 + (Int(jpeg[4]) << 8 | Int(jpeg[5]))
        #expect(jpeg[exifAt + 1] == 0xE1 && Array(jpeg[(exifAt + 4)..<(exifAt + 8)]) == Array("Exif".utf8))
        let xmpAt = exifAt + 2 + (Int(jpeg[exifAt + 2]) << 8 | Int(jpeg[exifAt + 3]))
        #expect(jpeg[xmpAt + 1] == 0xE1 && Array(jpeg[(xmpAt + 4)..<(xmpAt + 8)]) == Array("http".utf8))
    }

    @Test func frameHeadersOfEveryKindAreRead() {
        for marker: UInt8 in [0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF] {
            let segments = JPEGSegments.parse(MetadataFixtures.segments([(marker, MetadataFixtures.sof(width: 640, height: 480))]))
            #expect(segments.width == 640 && segments.height == 480, "marker \(marker)")
            #expect(segments.isProgressive == [0xC2, 0xC6, 0xCA, 0xCE].contains(marker))
        }
        // DHT, JPG and DAC share the range and are not frames.
        for marker: UInt8 in [0xC4, 0xC8, 0xCC] {
            #expect(JPEGSegments.parse(MetadataFixtures.segments([(marker, MetadataFixtures.sof(width: 640, height: 480))])).width == nil)
        }
        // Only the first frame counts; a height of 0 (given later by DNL) is unknown.
        let two = MetadataFixtures.segments([(0xC0, MetadataFixtures.sof(width: 10, height: 20)), (0xC2, MetadataFixtures.sof(width: 30, height: 40))])
        #expect(JPEGSegments.parse(two).width == 10 && !JPEGSegments.parse(two).isProgressive)
        let dnl = JPEGSegments.parse(MetadataFixtures.segments([(0xC0, MetadataFixtures.sof(width: 10, height: 0))]))
        #expect(dnl.width == 10 && dnl.height == nil)
        // Fill bytes before a marker, and standalone markers, are stepped over.
        let filled: [UInt8] = [0xFF, 0xD8, 0xFF, 0xFF, 0xFF, 0x01, 0xFF, 0xD3, 0xFF, 0xC0, 0, 17] + MetadataFixtures.sof(width: 7, height: 9)
        #expect(JPEGSegments.parse(filled).width == 7)
    }

    @Test func hostileLengthsEndTheWalkKeepingWhatCameBefore() {
        let sof = (UInt8(0xC0), MetadataFixtures.sof(width: 64, height: 48))
        let exif = (UInt8(0xE1), Array("Exif".utf8) + [0, 0] + ExifBuilder.tiff(ExifFields(make: "Maker")))
        let good = MetadataFixtures.segments([exif, sof])
        #expect(JPEGSegments.parse(good).width == 64)
        // Lengths past the end, and the impossible lengths 0 and 1, after the Exif segment.
        for length: [UInt8] in [[0xFF, 0xFF], [0x00, 0x00], [0x00, 0x01], [0x10, 0x00]] {
            var bytes = Array(good.dropLast(2 + 4 + sof.1.count))
            bytes += [0xFF, 0xE1] + length + Array("Exif".utf8) + [0, 0, 0x4D, 0x4D]
            let segments = JPEGSegments.parse(bytes)
            #expect(segments.exif == ExifBuilder.tiff(ExifFields(make: "Maker")) && segments.width == nil)
        }
        // A length that ends exactly at the end of the data is whole.
        #expect(JPEGSegments.parse(Array(good.dropLast(2))).width == 64)
        // A length field itself cut in half.
        #expect(JPEGSegments.parse([0xFF, 0xD8, 0xFF, 0xE1, 0x00]) == JPEGSegments())
        // Not a marker where one must be, a stuffed zero, a second SOI: the walk ends there.
        #expect(JPEGSegments.parse([0xFF, 0xD8, 0x12, 0xFF, 0xC0] + MetadataFixtures.sof(width: 1, height: 1)).width == nil)
        #expect(JPEGSegments.parse([0xFF, 0xD8, 0xFF, 0x00, 0xFF, 0xC0, 0, 17] + MetadataFixtures.sof(width: 1, height: 1)).width == nil)
        #expect(JPEGSegments.parse([0xFF, 0xD8, 0xFF, 0xD8, 0xFF, 0xC0, 0, 17] + MetadataFixtures.sof(width: 1, height: 1)).width == nil)
        #expect(JPEGSegments.parse([0x89, 0x50, 0x4E, 0x47]) == JPEGSegments())
    }

    @Test func theWalkStopsAfterAThousandMarkers() {
        // 5,000 standalone markers and as many empty segments: bounded work, and what lies beyond is not read.
        let restarts = [UInt8]((0..<5000).flatMap { _ in [UInt8(0xFF), 0xD0] })
        let empties = [UInt8]((0..<5000).flatMap { _ in [UInt8(0xFF), 0xE5, 0, 2] })
        let frame: [UInt8] = [0xFF, 0xC0, 0, 17] + MetadataFixtures.sof(width: 5, height: 5)
        #expect(JPEGSegments.parse([0xFF, 0xD8] + restarts + frame).width == nil)
        #expect(JPEGSegments.parse([0xFF, 0xD8] + empties + frame).width == nil)
        #expect(JPEGSegments.parse([0xFF, 0xD8] + restarts.prefix(1000) + frame).width == 5)
        // A long run of fill bytes is one step.
        #expect(JPEGSegments.parse([0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 100_000) + frame.dropFirst()).width == 5)
        #expect(JPEGSegments.parse([0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 100_000)) == JPEGSegments())
    }

    @Test func photoshopResourcesAreWalkedCarefully() {
        let iim = IPTCBuilder.iim(caption: "Found")
        // Resources before the IPTC one, with odd and even names and odd data sizes, and another type.
        let before = IPTCBuilder.resource(id: 0x03ED, name: "ab", data: [1, 2, 3])
            + IPTCBuilder.resource(id: 0x0404 + 1, name: "abc", data: [9])
            + Array("PHUT".utf8) + [0x04, 0x04, 0, 0, 0, 0, 0, 2, 0x1C, 0x1C]
        #expect(JPEGSegments.iptcResource(before + IPTCBuilder.resource(id: 0x0404, name: "IPTC", data: iim)) == iim)
        #expect(JPEGSegments.iptcResource(IPTCBuilder.resource(id: 0x0404, data: iim)) == iim)
        // The last resource's pad byte missing: the data is whole, so it is found.
        let oddData = iim.count % 2 == 1 ? iim : iim + [0]
        #expect(JPEGSegments.iptcResource(Array(IPTCBuilder.resource(id: 0x0404, data: oddData).dropLast())) == oddData)

        // A size of 0xFFFFFFFF, a size one past the end, an unknown type, a name past the end, cut-off headers.
        let header = Array("8BIM".utf8) + [0x04, 0x04, 0, 0]
        #expect(JPEGSegments.iptcResource(header + [0xFF, 0xFF, 0xFF, 0xFF] + iim) == nil)
        #expect(JPEGSegments.iptcResource(header + bigEndian32(UInt32(iim.count + 1)) + iim) == nil)
        #expect(JPEGSegments.iptcResource(Array("8BIN".utf8) + [0x04, 0x04, 0, 0] + bigEndian32(UInt32(iim.count)) + iim) == nil)
        #expect(JPEGSegments.iptcResource(Array("8BIM".utf8) + [0x04, 0x04, 0xFF, 0x41, 0, 0, 0, 0, 0, 0]) == nil)
        let whole = IPTCBuilder.resource(id: 0x0404, data: iim)
        for length in 0..<whole.count - (iim.count % 2) {
            #expect(JPEGSegments.iptcResource(Array(whole.prefix(length))) == nil, "cut at \(length)")
        }
        // Through a whole file: the APP13 segment with a hostile resource yields no IPTC, and no trap.
        let app13 = IPTCBuilder.identifier + header + [0xFF, 0xFF, 0xFF, 0xFF] + iim
        #expect(JPEGSegments.parse(MetadataFixtures.segments([(0xED, app13)])).iptc == nil)
    }

    @Test func randomBytesAndDamagedFilesNeverTrap() throws {
        var random = SeededGenerator(seed: 0x5EED)
        for _ in 0..<2000 {
            var bytes: [UInt8] = [0xFF, 0xD8]
            // Mostly plausible markers, with random lengths and bodies.
            for _ in 0..<Int.random(in: 0...8, using: &random) {
                bytes += [0xFF, [0xE1, 0xED, 0xC0, 0xC2, 0xDB, 0x01, 0xFF, 0x00][Int.random(in: 0...7, using: &random)]]
                bytes += (0..<Int.random(in: 0...40, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            }
            _ = JPEGSegments.parse(bytes)
            _ = PhotoInfo.read(bytes)
        }
        // Every byte of a real file's metadata overwritten in turn with 0x00, 0xFF and 0x80.
        let jpeg = try MetadataFixtures.jpeg(exif: MetadataFixtures.allFields(), xmp: "x", iptc: "y")
        let sos = try #require(MetadataFixtures.startOfScan(jpeg))
        for at in 2..<sos {
            for value: UInt8 in [0x00, 0xFF, 0x80] {
                var damaged = jpeg
                damaged[at] = value
                _ = PhotoInfo.read(damaged)
            }
        }
    }
}

private func bigEndian32(_ value: UInt32) -> [UInt8] {
    [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
}
