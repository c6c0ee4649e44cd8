import Foundation
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
@testable import PhotoGridSystem

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
