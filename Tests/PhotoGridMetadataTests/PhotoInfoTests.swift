import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
import PhotoGridSamples
import PhotoGridTestFixtures

@Suite struct PhotoInfoTests {
    @Test(arguments: [false, true])
    func everyFieldWrittenReadsBack(bigEndian: Bool) throws {
        let fields = MetadataFixtures.allFields(bigEndian: bigEndian)
        let exif = ExifInfo.parse(ExifBuilder.tiff(fields))
        #expect(exif.exposureTime == 1.0 / 250 && exif.fNumber == 2.8 && exif.iso == 400 && exif.focalLength == 35)
        #expect(exif.lensMake == "Sigma" && exif.lensModel == "35mm F1.4 DG HSM | Art")

        let info = try #require(PhotoInfo.read(try MetadataFixtures.jpeg(exif: fields)))
        // Stored 48x32 and tagged 6: shown 32x48.
        #expect(info.width == 32 && info.height == 48 && info.orientation == .right)
        #expect(info.dateTaken == "2024:07:14 19:42:05")
        #expect(info.make == "Photogrid" && info.model == "Sample One")
        #expect(info.lens == "Sigma 35mm F1.4 DG HSM | Art")
        #expect(info.iso == 400 && info.fNumber == 2.8 && info.exposureTime == 0.004 && info.focalLength == 35)
        #expect(abs(info.latitude! - -33.8568) < 1e-5 && abs(info.longitude! - 151.2153) < 1e-5)
        #expect(info.caption == "Evening over the bay" && info.captionSource == .exif)
    }

    @Test func aFileWithoutMetadataHasOnlyItsSize() throws {
        let info = try #require(PhotoInfo.read(try MetadataFixtures.jpeg()))
        var expected = PhotoInfo()
        expected.width = 48
        expected.height = 32
        #expect(info == expected)
        #expect(PhotoInfo.read([]) == nil)
        #expect(PhotoInfo.read([0xFF]) == nil)
        #expect(PhotoInfo.read(Array("\u{89}PNG\r\n\u{1A}\n".utf8)) == nil)
        #expect(PhotoInfo.read([0xFF, 0xD8]) == PhotoInfo())
    }

    @Test func theLensIsLedByItsMakerUnlessItsNameAlreadyIs() {
        #expect(PhotoInfo.lensName(make: "Canon", model: "RF24-105mm F4 L IS USM") == "Canon RF24-105mm F4 L IS USM")
        #expect(PhotoInfo.lensName(make: "Apple", model: "iPhone 13 back camera") == "Apple iPhone 13 back camera")
        #expect(PhotoInfo.lensName(make: "FUJIFILM", model: "Fujifilm XF35mmF2 R WR") == "Fujifilm XF35mmF2 R WR")
        #expect(PhotoInfo.lensName(make: nil, model: "NIKKOR Z 24-70mm f/4 S") == "NIKKOR Z 24-70mm f/4 S")
        #expect(PhotoInfo.lensName(make: "Sony", model: nil) == nil)
    }

    @Test func zeroAndOutOfRangeValuesAreNone() throws {
        let fields = ExifFields(exposureTime: .init(1, 0), fNumber: .init(0, 1), iso: 0, focalLength: .init(35, 0))
        let exif = ExifInfo.parse(ExifBuilder.tiff(fields))
        #expect(exif.exposureTime == nil && exif.fNumber == nil && exif.iso == nil && exif.focalLength == nil)
        // ISO is a SHORT: beyond 65535 it is written as 65535, as cameras do.
        #expect(ExifInfo.parse(ExifBuilder.tiff(ExifFields(iso: 204_800))).iso == 65535)
        // Largest and smallest rationals: finite, positive, no trap.
        let extreme = ExifInfo.parse(ExifBuilder.tiff(ExifFields(exposureTime: .init(1, .max), fNumber: .init(.max, 1))))
        #expect(extreme.exposureTime == 1 / Double(UInt32.max) && extreme.fNumber == Double(UInt32.max))
    }

    /// The caption comes from EXIF, else XMP, else IPTC: every combination of the three.
    @Test(arguments: 0..<8)
    func captionsComeFromExifThenXMPThenIPTC(mask: Int) throws {
        let exif = mask & 1 != 0 ? "from EXIF" : nil
        let xmp = mask & 2 != 0 ? "from XMP" : nil
        let iptc = mask & 4 != 0 ? "from IPTC" : nil
        let jpeg = try MetadataFixtures.jpeg(exif: ExifFields(imageDescription: exif, make: "M"), xmp: xmp, iptc: iptc)
        let info = try #require(PhotoInfo.read(jpeg))
        let expected: (String, PhotoInfo.CaptionSource)? =
            exif.map { ($0, .exif) } ?? xmp.map { ($0, .xmp) } ?? iptc.map { ($0, .iptc) }
        #expect(info.caption == expected?.0 && info.captionSource == expected?.1)
    }

    @Test(arguments: ["OLYMPUS DIGITAL CAMERA", "SONY DSC", "DCIM", "", "      ", " \t\n "])
    func cameraWrittenAndBlankCaptionsCountAsNone(junk: String) throws {
        let exif = ExifFields(imageDescription: junk, make: "OLYMPUS IMAGING CORP.")
        let alone = try #require(PhotoInfo.read(try MetadataFixtures.jpeg(exif: exif)))
        #expect(alone.caption == nil && alone.captionSource == nil)
        let withXMP = try #require(PhotoInfo.read(try MetadataFixtures.jpeg(exif: exif, xmp: "Harbour at dusk")))
        #expect(withXMP.caption == "Harbour at dusk" && withXMP.captionSource == .xmp)
        // A blank XMP caption gives way to IPTC in the same way.
        let blankXMP = try #require(PhotoInfo.read(try MetadataFixtures.jpeg(exif: exif, xmp: "  \n ", iptc: "Quay")))
        #expect(blankXMP.caption == "Quay" && blankXMP.captionSource == .iptc)
        // Only the exact camera phrases are junk: a caption that contains one is kept.
        let real = try #require(PhotoInfo.read(try MetadataFixtures.jpeg(exif: ExifFields(imageDescription: "DCIM folder, 2003"))))
        #expect(real.caption == "DCIM folder, 2003")
    }

    /// Seen in real Olympus photos exported by Capture One 8: the EXIF description is the
    /// camera's phrase padded with spaces, and XMP's dc:description holds its own language tag.
    @Test func anXMPDescriptionThatIsItsLanguageTagCountsAsNone() throws {
        let exif = ExifFields(imageDescription: "OLYMPUS DIGITAL CAMERA         ", make: "OLYMPUS IMAGING CORP.")
        let info = try #require(PhotoInfo.read(try MetadataFixtures.jpeg(exif: exif, xmp: "x-default")))
        #expect(info.caption == nil && info.captionSource == nil)
        let withIPTC = try #require(PhotoInfo.read(try MetadataFixtures.jpeg(exif: exif, xmp: "x-default", iptc: "Pier")))
        #expect(withIPTC.caption == "Pier" && withIPTC.captionSource == .iptc)
    }

    /// A file cut off at any byte: never a trap, and every field is either what the whole file
    /// says or absent. Once the cut is past the first scan's marker, everything is there.
    @Test(arguments: [false, true])
    func truncatedFilesYieldCorrectOrAbsentFields(exifCaption: Bool) throws {
        let thumbnail = try JPEG.encode(TestImages.gradient(width: 16, height: 12), quality: 70)
        let fields = MetadataFixtures.allFields(bigEndian: exifCaption, caption: exifCaption ? "EXIF words" : nil,
                                                thumbnail: thumbnail)
        let jpeg = try MetadataFixtures.jpeg(exif: fields, xmp: "XMP words", iptc: "IPTC wörds")
        let full = try #require(PhotoInfo.read(jpeg))
        #expect(full.captionSource == (exifCaption ? .exif : .xmp))
        let sources: [PhotoInfo.CaptionSource: String] = [.exif: "EXIF words", .xmp: "XMP words", .iptc: "IPTC wörds"]
        let sos = try #require(MetadataFixtures.startOfScan(jpeg))

        let fullSegments = JPEGSegments.parse(jpeg)
        func agrees<T: Equatable>(_ part: T?, _ whole: T?) -> Bool { part == nil || part == whole }
        for length in 0...jpeg.count {
            // A segment cut off is left out, not half-read.
            let segments = JPEGSegments.parse(Array(jpeg.prefix(length)))
            #expect(agrees(segments.exif, fullSegments.exif) && agrees(segments.xmp, fullSegments.xmp), "cut at \(length)")
            #expect(agrees(segments.iptc, fullSegments.iptc) && agrees(segments.width, fullSegments.width), "cut at \(length)")
            guard let info = PhotoInfo.read(Array(jpeg.prefix(length))) else {
                #expect(length < 2)
                continue
            }
            if length > sos + 1 {
                #expect(info == full, "cut at \(length)")
                continue
            }
            #expect(info.orientation == .up || info.orientation == full.orientation)
            #expect(agrees(info.width, full.width) && agrees(info.height, full.height), "cut at \(length)")
            #expect(agrees(info.dateTaken, full.dateTaken) && agrees(info.make, full.make) && agrees(info.model, full.model))
            #expect(agrees(info.lens, full.lens) && agrees(info.iso, full.iso) && agrees(info.fNumber, full.fNumber))
            #expect(agrees(info.exposureTime, full.exposureTime) && agrees(info.focalLength, full.focalLength))
            #expect(agrees(info.latitude, full.latitude) && agrees(info.longitude, full.longitude))
            // A caption is the whole text of the place it says it came from.
            #expect((info.caption == nil) == (info.captionSource == nil))
            if let source = info.captionSource { #expect(info.caption == sources[source], "cut at \(length)") }
        }
    }
}
