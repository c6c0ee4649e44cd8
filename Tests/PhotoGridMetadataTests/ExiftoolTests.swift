import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridMetadata
@testable import PhotoGridModel
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// photogrid's metadata readers against exiftool on the same files: the whole sample gallery,
/// and files made here with what the gallery lacks (XMP in attribute form, a camera-written
/// caption, several XMP languages); and, when `PHOTOGRID_REAL_PHOTOS` names a folder of real
/// photographs (../shared/tools/real-photos), those. `scripts/setup --test` installs exiftool;
/// without it these are skipped.
@Suite struct ExiftoolTests {
    static let installed = (try? Subprocess.run(["exiftool", "-ver"]))?.status == 0
    static let realPhotos = ProcessInfo.processInfo.environment["PHOTOGRID_REAL_PHOTOS"]

    @Test(.enabled(if: ExiftoolTests.installed && ExiftoolTests.realPhotos != nil, "PHOTOGRID_REAL_PHOTOS is not set"))
    func realPhotosReadAsExiftoolReadsThem() throws {
        let photos = try FolderScanner().scan(RawPath(Self.realPhotos!)).filter { $0.format == .jpeg }
        let (differences, compared) = try ExiftoolComparison.compare(photos.map(\.source.description))
        #expect(differences == [])
        #expect(photos.count > 0 && compared.values > photos.count * 2, "\(compared.values) values from \(photos.count) photos")
    }

    @Test(.enabled(if: ExiftoolTests.installed, "exiftool is not installed"))
    func theSampleGalleryReadsAsExiftoolReadsIt() throws {
        let paths = SampleGallery.entries.map { Paths.gallery + "/" + $0.path }
        let (differences, compared) = try ExiftoolComparison.compare(paths)
        #expect(differences == [])
        // Not a vacuous pass: the gallery has hundreds of values to agree on, captions from all three places among them.
        #expect(compared.values > 400 && Set(compared.captionSources) == [.exif, .xmp, .iptc])
    }

    @Test(.enabled(if: ExiftoolTests.installed, "exiftool is not installed"))
    func filesMadeHereReadAsExiftoolReadsThem() throws {
        let folder = TestImages.scratchFolder("exiftool")
        defer { TestImages.remove(folder) }
        var jpegs: [(String, [UInt8])] = [
            ("all-le.jpg", try MetadataFixtures.jpeg(exif: MetadataFixtures.allFields())),
            ("all-be.jpg", try MetadataFixtures.jpeg(exif: MetadataFixtures.allFields(bigEndian: true, caption: nil),
                                                     xmp: "Fish & chips <3", iptc: "ignored")),
            ("camera-caption.jpg", try MetadataFixtures.jpeg(exif: ExifFields(imageDescription: "OLYMPUS DIGITAL CAMERA", make: "OLYMPUS"),
                                                             iptc: "Lindau, Bodensee: Blick über den Hafen", iptcEncoding: .latin1)),
        ]
        let plain = try MetadataFixtures.jpeg()
        jpegs.append(("attribute.jpg", JPEGSegmentsWriter.insert(
            segments: [(0xE1, XMPBuilder.app1(description: "Quotes \"and\" 'apostrophes'", form: .attribute))], into: plain)))
        jpegs.append(("languages.jpg", JPEGSegmentsWriter.insert(
            segments: [(0xE1, XMPBuilder.app1(descriptions: [("de", "Hafen"), ("x-default", "Harbour")]))], into: plain)))
        for (name, bytes) in jpegs { TestImages.write(bytes, to: folder + "/" + name) }
        let (differences, compared) = try ExiftoolComparison.compare(jpegs.map { folder + "/" + $0.0 })
        #expect(differences == [])
        #expect(compared.captionSources == [.exif, .xmp, .iptc, .xmp, .xmp])
    }

    /// Sidecars photogrid writes, new and merged into darktable's, read by exiftool: the caption
    /// as typed, and darktable's own properties still there.
    @Test(.enabled(if: ExiftoolTests.installed, "exiftool is not installed"))
    func sidecarsPhotogridWritesReadInExiftool() throws {
        let folder = TestImages.scratchFolder("exiftool-sidecar")
        defer { TestImages.remove(folder) }
        let caption = "Fish & chips <3> \"here\" — ☀"
        let fresh = Sidecar(photo: RawPath(folder + "/new.jpg"))
        #expect(fresh.save(caption: caption) == nil)
        let merged = Sidecar(photo: RawPath(folder + "/dt.jpg"))
        TestImages.write(Array(MetadataFixtures.darktable.utf8), to: merged.path.description)
        #expect(merged.save(caption: caption) == nil)
        for sidecar in [fresh, merged] {
            let result = try Subprocess.run(["exiftool", "-s3", "-XMP-dc:Description", "-XMP-xmp:Rating", sidecar.path.description])
            let lines = String(decoding: result.output, as: UTF8.self).split(separator: "\n").map(String.init)
            #expect(lines.first == caption, "\(sidecar.name): \(lines)")
            if sidecar.path == merged.path { #expect(lines.count == 2 && lines[1] == "3", "\(lines)") }
        }
    }
}

/// Runs exiftool over files and lists where `PhotoInfo.read` disagrees with it.
enum ExiftoolComparison {
    static let arguments = ["exiftool", "-j", "-n", "-charset", "iptc=Latin1",
                            "-DateTimeOriginal", "-Make", "-Model", "-ExifIFD:LensMake", "-ExifIFD:LensModel", "-ISO", "-FNumber",
                            "-ExposureTime", "-FocalLength", "-Composite:GPSLatitude", "-Composite:GPSLongitude",
                            "-IFD0:ImageDescription", "-XMP-dc:Description", "-IPTC:Caption-Abstract",
                            "-IFD0:Orientation", "-File:ImageWidth", "-File:ImageHeight"]

    struct Compared { var values = 0; var captionSources: [PhotoInfo.CaptionSource] = [] }

    static func compare(_ paths: [String]) throws -> (differences: [String], compared: Compared) {
        let result = try Subprocess.run(arguments + paths)
        guard result.status == 0,
              let records = try JSONSerialization.jsonObject(with: Data(result.output)) as? [[String: Any]],
              records.count == paths.count else {
            return (["exiftool failed with status \(result.status): \(result.errorText)"], Compared())
        }
        var differences: [String] = []
        var compared = Compared()
        for (path, record) in zip(paths, records) {
            let bytes = try FileReader.read(RawPath(path))
            guard let info = PhotoInfo.read(bytes) else { differences.append("\(path): not read"); continue }
            differences += compare(info, record, &compared).map { "\(path): \($0)" }
        }
        return (differences, compared)
    }

    private static func compare(_ info: PhotoInfo, _ record: [String: Any], _ compared: inout Compared) -> [String] {
        var differences: [String] = []
        func text(_ key: String) -> String? {
            if let string = record[key] as? String { return string }
            return (record[key] as? NSNumber)?.stringValue
        }
        func number(_ key: String) -> Double? { (record[key] as? NSNumber)?.doubleValue }
        // A zero exposure value is a camera's "unknown" (an old Canon writes FNumber 0 with a
        // manual lens); photogrid shows none.
        func measured(_ key: String) -> Double? { number(key).flatMap { $0 > 0 ? $0 : nil } }
        func same<T: Equatable>(_ name: String, _ ours: T?, _ theirs: T?) {
            if ours != theirs { differences.append("\(name): ours \(String(describing: ours)), exiftool's \(String(describing: theirs))") }
            if theirs != nil { compared.values += 1 }
        }
        func close(_ name: String, _ ours: Double?, _ theirs: Double?) {
            let agree = switch (ours, theirs) {
            case (nil, nil): true
            case let (a?, b?): abs(a - b) <= 1e-9 * max(1, abs(b))
            default: false
            }
            if !agree { differences.append("\(name): ours \(String(describing: ours)), exiftool's \(String(describing: theirs))") }
            if theirs != nil { compared.values += 1 }
        }

        let orientation = Int(number("Orientation") ?? 1)
        let stored = (number("ImageWidth").map(Int.init), number("ImageHeight").map(Int.init))
        let shown = orientation >= 5 ? (stored.1, stored.0) : stored
        same("orientation", info.orientation.rawValue, orientation)
        same("width", info.width, shown.0)
        same("height", info.height, shown.1)
        same("date", info.dateTaken, text("DateTimeOriginal"))
        same("make", info.make, text("Make"))
        same("model", info.model, text("Model"))
        same("lens", info.lens, PhotoInfo.lensName(make: text("LensMake"), model: text("LensModel")))
        same("ISO", info.iso, number("ISO").map(Int.init))
        close("f-number", info.fNumber, measured("FNumber"))
        close("exposure", info.exposureTime, measured("ExposureTime"))
        close("focal length", info.focalLength, measured("FocalLength"))
        close("latitude", info.latitude, number("GPSLatitude"))
        close("longitude", info.longitude, number("GPSLongitude"))

        // The same choice as PhotoInfo's, made from exiftool's values.
        let candidates: [(PhotoInfo.CaptionSource, String?)] = [
            (.exif, text("ImageDescription")), (.xmp, text("Description")), (.iptc, text("Caption-Abstract")),
        ]
        let expected = candidates.lazy.compactMap { source, text in
            text.flatMap { PhotoInfo.saysNothing($0) ? nil : (source, $0) }
        }.first
        same("caption", info.caption, expected?.1)
        same("caption source", info.captionSource, expected?.0)
        if let source = info.captionSource { compared.captionSources.append(source) }
        return differences
    }
}

/// Labels and keywords as exiftool writes them, into a sidecar and into the photo itself, read
/// back by photogrid's details reader (what the catalog stores): the sidecar's first.
@Suite struct ExiftoolTagsTests {
    @Test(.enabled(if: ExiftoolTests.installed, "exiftool is not installed"))
    func labelsAndKeywordsExiftoolWroteAreRead() throws {
        let folder = TestImages.scratchFolder("exiftool-tags")
        defer { TestImages.remove(folder) }
        for name in ["own.jpg", "sidecar.jpg", "both.jpg"] { TestImages.write(try MetadataFixtures.jpeg(), to: folder + "/" + name) }
        func exiftool(_ arguments: [String]) throws {
            let result = try Subprocess.run(["exiftool", "-q", "-overwrite_original"] + arguments)
            #expect(result.status == 0, "\(result.errorText)")
        }
        try exiftool(["-XMP-dc:Subject=iceland", "-XMP-dc:Subject=glacier", "-XMP-xmp:Label=Red", folder + "/own.jpg"])
        try exiftool(["-XMP-dc:Subject=harbour", "-XMP-xmp:Label=Blue", "-o", folder + "/sidecar.jpg.xmp", folder + "/sidecar.jpg"])
        try exiftool(["-XMP-dc:Subject=old", "-XMP-xmp:Label=Yellow", folder + "/both.jpg"])
        try exiftool(["-XMP-dc:Subject=new", "-XMP-dc:Subject=newer", "-o", folder + "/both.jpg.xmp", folder + "/both.jpg"])
        // The sidecar of both.jpg was made from the photo: it has the photo's label and its own keywords added.
        try exiftool(["-XMP-dc:Subject=", "-XMP-dc:Subject=new", "-XMP-dc:Subject=newer", "-XMP-xmp:Label=Green", folder + "/both.jpg.xmp"])
        let expected: [String: (String, [String])] = ["own.jpg": ("Red", ["iceland", "glacier"]), "sidecar.jpg": ("Blue", ["harbour"]),
                                                     "both.jpg": ("Green", ["new", "newer"])]
        for (name, (label, keywords)) in expected {
            let photo = Photo(path: RawPath(folder + "/" + name), relativePath: RawPath(name))
            let info = try #require(PhotoDecoder().info(of: photo), "\(name)")
            #expect(info.label == label && info.keywords == keywords, "\(name): \(info.label ?? "-") \(info.keywords)")
        }
    }
}
