import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridModel
import PhotoGridSamples
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Raw files through LibRaw (Tests/Fixtures/raw: real cameras' files from ExifTool's test images,
/// their image data cut out): known by their names, the preview shown where there is one, and a
/// file without one saying what it is, at once.
struct RawTests {
    static let folder = Paths.root + "/Tests/Fixtures/raw"

    func photo(_ name: String) -> Photo { Photo(path: RawPath(Self.folder + "/" + name), relativePath: RawPath(name)) }

    @Test func rawFilesAreKnownByTheirNames() {
        for (name, kind) in [("CanonRaw.cr2", "CR2"), ("CanonRaw.cr3", "CR3"), ("DNG.dng", "DNG"), ("FujiFilm.raf", "RAF"),
                             ("Nikon.nef", "NEF"), ("Panasonic.rw2", "RW2"), ("X.ARW", "ARW"), ("x.orf", "ORF")] {
            #expect(photo(name).format == .raw(kind), "\(name)")
        }
        #expect(ImageFormat.raw("NEF").isDecoded && ImageFormat.raw("NEF").name == "NEF")
    }

    @Test func previewsAreShownAndFilesWithoutOneSayWhatTheyAre() throws {
        let started = Date()
        // The two with a preview: a 160x120 picture in the RAF, an 8x8 JPEG in the RW2, which is
        // all a tile gets (said to be complete, or the pipeline would keep asking for more).
        let raf = try PhotoDecoder().image(of: photo("FujiFilm.raf"), covering: 120, atMost: 240)
        #expect(raf.image.width == 160 && raf.image.height == 120)
        let rw2 = try PhotoDecoder().image(of: photo("Panasonic.rw2"), covering: 120, atMost: 240)
        #expect(rw2.image.width == 8 && rw2.isComplete)
        for (name, said) in [("CanonRaw.cr3", "Canon CR3: no preview"), ("DNG.dng", "Canon DNG: no preview"),
                             ("Nikon.nef", "Nikon NEF: no preview")] {
            #expect(throws: DecodeError.noPreview(String(said.dropLast(": no preview".count)))) {
                try PhotoDecoder().image(of: photo(name), covering: 120, atMost: 240)
            }
            #expect(DecodeError.noPreview(String(said.dropLast(": no preview".count))).reason == said)
        }
        do {
            _ = try PhotoDecoder().image(of: photo("CanonRaw.cr2"), covering: 120, atMost: 240)
            Issue.record("a CR2 without its data decoded")
        } catch {
            #expect(error.reason == "corrupt CR2", "\(error.reason)")
        }
        #expect(Date().timeIntervalSince(started) < 5, "the raw files took \(Date().timeIntervalSince(started)) s to say what they are")
    }

    /// Canon's CR3 is ISO media, as an MP4 video is: by its brand (`crx `) it is a raw file, by
    /// name or by content (a copy without its extension), never "corrupt MP4 video".
    @Test(.startsPrograms) func aCR3IsACanonRawFileNotAVideo() throws {
        let data = try #require(TestImages.read(Self.folder + "/CanonRaw.cr3"))
        #expect(ImageFormat(content: Array(data.prefix(16))) == .raw("CR3"))
        let folder = TestImages.scratchFolder("cr3")
        defer { TestImages.remove(folder) }
        TestImages.write(data, to: folder + "/IMG_0001")
        let found = try FolderScanner().scan(RawPath(folder))
        #expect(found.map(\.format) == [.raw("CR3")])
        for path in [Self.folder + "/CanonRaw.cr3", folder + "/IMG_0001"] {
            let (status, _, error) = try Paths.photogrid(["--print", "--mode", "halfblock", "--size", "40x10", path])
            #expect(status == 1 && error.contains("Canon CR3: no preview") && !error.contains("video"), "\(path): \(error)")
        }
    }

    @Test func theDetailsNameTheCamera() throws {
        // A TIFF inside: its EXIF, from the head.
        let nef = try #require(PhotoDecoder().info(of: photo("Nikon.nef")))
        #expect(nef.make == "NIKON CORPORATION" && nef.model == "NIKON D70", "\(nef.make ?? "") \(nef.model ?? "")")
        // Not a TIFF: LibRaw's reading.
        let raf = try #require(PhotoDecoder().info(of: photo("FujiFilm.raf")))
        #expect(raf.make == "Fujifilm" && (raf.width ?? 0) > 1000, "\(raf.make ?? "") \(raf.width ?? 0)")
    }

    @Test func damagedRawFilesNeverCrash() throws {
        for name in ["CanonRaw.cr3", "FujiFilm.raf", "Panasonic.rw2", "Nikon.nef"] {
            let data = try #require(TestImages.read(Self.folder + "/" + name))
            for cut in [0, 8, 64, data.count / 2] {
                _ = try? PhotoDecoder.decodeRAW("X", Array(data.prefix(cut)), covering: 64, atMost: 128)
                _ = try? PhotoDecoder.decodeRAW("X", Array(data.prefix(cut)), covering: 1000, atMost: 1200)
            }
        }
    }
}

/// A full-size raw file, made here from a sample photo as a camera lays out a DNG (`DNGWriter`:
/// 6 MP of 14-bit RGGB photosites in linear light, a 750x500 JPEG preview): tiles get the
/// preview, a view larger than the preview gets the raw data developed by LibRaw, and what it
/// develops is the photo the sensor data was made of.
struct RawDevelopmentTests {
    static let source = Paths.root + "/sample-gallery/landscapes/autumn-01.jpg"

    func picture(_ width: Int, _ height: Int) throws -> RGBImage {
        let data = try #require(TestImages.read(Self.source))
        let decoded = try PhotoDecoder().decode(data, covering: max(width, height), atMost: 8000).image
        return Resampler.resample(decoded, region: Resampler.Region(x: 0, y: 0, width: Double(decoded.width), height: Double(decoded.height)),
                                  width: width, height: height)
    }

    @Test func aDNGIsDevelopedIntoThePictureItWasMadeOf() throws {
        let sensor = try picture(3000, 2000), preview = try picture(750, 500)
        let dng = try DNGWriter.encode(sensor, preview: preview)
        // A tile: the preview, at once.
        let tile = try PhotoDecoder.decodeRAW("DNG", dng, covering: 300, atMost: 600)
        #expect(min(tile.image.width, tile.image.height) >= 300 && tile.image.width <= 750)
        let started = Date()
        // A view of 1,200 rows: more than the preview has, so the raw data is developed.
        let view = try PhotoDecoder.decodeRAW("DNG", dng, covering: 1200, atMost: 1200)
        let seconds = Date().timeIntervalSince(started)
        #expect(view.image.width == 1800 && view.image.height == 1200, "\(view.image.width)x\(view.image.height)")
        let expected = Resampler.resample(sensor, region: Resampler.Region(x: 0, y: 0, width: 3000, height: 2000), width: view.image.width,
                                          height: view.image.height)
        let error = TestImages.meanAbsoluteError(view.image, expected)
        #expect(error < 10, "mean difference \(error) from the photo, developed in \(seconds) s")
        // Half size where half covers the view: 1000 rows for a view of 900.
        let half = try PhotoDecoder.decodeRAW("DNG", dng, covering: 900, atMost: 900)
        #expect(min(half.image.width, half.image.height) == 900)
        #expect(TestImages.meanAbsoluteError(half.image, Resampler.resample(sensor, region: Resampler.Region(x: 0, y: 0, width: 3000, height: 2000),
                                                                              width: half.image.width, height: half.image.height)) < 10)
    }

    /// As a user sees it, in tmux: the photo view of a RAW+JPEG pair shows the JPEG; `v` shows the
    /// raw file in its place (named on the status line, another picture on screen), `v` again the
    /// JPEG as it was.
    @Test(.startsPrograms) func vShowsAPairsRawFileInThePhotoView() throws {
        let folder = TestImages.scratchFolder("raw-switch")
        defer { TestImages.remove(folder) }
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        try Subprocess.run(["cp", Paths.root + "/sample-gallery/night/night-01.jpg", folder + "/photos/IMG_0001.JPG"])
        TestImages.write(try DNGWriter.encode(try picture(1500, 1000), preview: try picture(750, 500)), to: folder + "/photos/IMG_0001.DNG")
        let tmux = try Tmux(columns: 100, rows: 30, command: "\(Paths.binary) --mode halfblock \(folder)/photos",
                            environment: ["COLORTERM": "truecolor", "XDG_CACHE_HOME": folder + "/cache"])
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of 1") }
        #expect(ok, "the pair is one photo: \(screen)")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor(escapes: true) { $0.contains("IMG_0001.JPG") && $0.contains("fit") && !$0.contains("loading") }
        #expect(ok, "\(screen)")
        // The status line is drawn before the picture: the JPEG's picture is taken once two
        // looks a tenth of a second apart agree.
        var last = ""
        let (settled, jpeg) = try tmux.waitFor(escapes: true) { screen in defer { last = screen }; return screen == last }
        #expect(settled)
        try tmux.send("v")
        (ok, screen) = try tmux.waitFor(escapes: true) { $0.contains("IMG_0001.DNG") && !$0.contains("loading") && Self.pictureRows($0) != Self.pictureRows(jpeg) }
        #expect(ok, "the raw file named, another picture: \(screen)")
        try tmux.send("v")
        (ok, screen) = try tmux.waitFor(escapes: true) { $0.contains("showing IMG_0001.JPG") && Self.pictureRows($0) == Self.pictureRows(jpeg) }
        #expect(ok, "the JPEG again: \(screen)")
        try tmux.send("q", "q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }

    /// The screen without its status line.
    static func pictureRows(_ screen: String) -> [Substring] { Array(screen.split(separator: "\n").dropLast()) }
}
