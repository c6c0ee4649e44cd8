import Foundation
import Glibc
import Testing
@testable import GalleryFormats
@testable import PhotoGridDecoding
@testable import PhotoGridServe
import PhotoGridTestFixtures

/// `photogrid export`: the served gallery as files, made again only where a photo changed, and
/// never written where it must not be. (Served by nginx and browsed: `RemoteGalleryTests`.)
@Suite struct ExportTests {
    static let base = "http://gallery.test/"

    func export(_ folder: String, to output: String, force: Bool = false) throws -> GalleryExport.Summary {
        var configuration = GalleryExport.Configuration(folder: folder, output: output)
        configuration.force = force
        return try GalleryExport(configuration).run()
    }

    /// Every file below `folder`, by path below it, with its bytes and mtime.
    func files(_ folder: String) throws -> [String: (bytes: Data, modified: Date)] {
        var found: [String: (Data, Date)] = [:]
        let enumerator = FileManager.default.enumerator(atPath: folder)
        while let name = enumerator?.nextObject() as? String {
            let path = folder + "/" + name
            var isFolder: ObjCBool = false
            guard FileManager.default.fileExists(atPath: path, isDirectory: &isFolder), !isFolder.boolValue else { continue }
            let attributes = try FileManager.default.attributesOfItem(atPath: path)
            found[name] = ((try? Data(contentsOf: URL(fileURLWithPath: path))) ?? Data(), attributes[.modificationDate] as? Date ?? .distantPast)
        }
        return found
    }

    /// The file an exported URL names, as a static server finds it.
    func file(_ url: RemoteURL, in output: String) throws -> String {
        let text = url.description
        #expect(text.hasPrefix(Self.base))
        let decoded = try #require(RemoteURL.strictlyPercentDecoded(text.dropFirst(Self.base.count).utf8))
        return output + "/" + String(decoding: decoded, as: UTF8.self)
    }

    @Test func anExportIsTheServedGalleryAsFilesAndOnlyWhatChangedIsMadeAgain() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let output = fixture.base + "/export"
        let before = try files(fixture.folder)

        let first = try export(fixture.folder, to: output)
        #expect(first == GalleryExport.Summary(photos: 5, made: 5, kept: 0, failed: [], removed: 0))
        // The manifest reads back as the gallery `serve` lists, in its order; every URL in it is a
        // file of the export (the awkward name's too), renditions of the right shape, originals
        // byte for byte.
        let manifestBytes = try [UInt8](Data(contentsOf: URL(fileURLWithPath: output + "/manifest.json")))
        let manifest = try GalleryManifest.parse(manifestBytes, url: try #require(RemoteURL(Self.base + "manifest.json")))
        #expect(manifest.photos.map(\.id) == GalleryFixture.servedIDs)
        for photo in manifest.photos {
            let original = try file(photo.original, in: output)
            #expect(FileManager.default.contents(atPath: original) == (try Data(contentsOf: URL(fileURLWithPath: fixture.path(photo.id)))))
            #expect(photo.renditions.map(\.size) == [256, 512, 1024, 2048])
            for rendition in photo.renditions {
                let bytes = try #require(FileManager.default.contents(atPath: try file(rendition.url, in: output)), "\(rendition.url)")
                let header = try JPEG.readHeader([UInt8](bytes))
                let (width, height) = (try #require(photo.width), try #require(photo.height))
                #expect(max(header.width, header.height) == min(rendition.size, max(width, height)), "\(photo.id) at \(rendition.size)")
                #expect((header.width > header.height) == (width > height), "\(photo.id): its shape")
            }
        }
        let rotated = try #require(manifest.photos.first { $0.id == GalleryFixture.rotated })
        #expect(rotated.width == 1200 && rotated.height == 1800)

        // Again: nothing made, nothing touched.
        let exported = try files(output)
        #expect(try export(fixture.folder, to: output) == GalleryExport.Summary(photos: 5, made: 0, kept: 5, failed: [], removed: 0))
        #expect(try files(output).mapValues(\.modified) == exported.mapValues(\.modified))

        // One photo changed (a new mtime), one deleted, a temporary file of an export cut short:
        // the changed one made again, the deleted one's five files and the stray removed.
        var times = [timespec(tv_sec: 1_700_000_000, tv_nsec: 0), timespec(tv_sec: 1_700_000_000, tv_nsec: 0)]
        #expect(utimensat(AT_FDCWD, fixture.path(GalleryFixture.night), &times, 0) == 0)
        try FileManager.default.removeItem(atPath: fixture.path(GalleryFixture.small))
        FileManager.default.createFile(atPath: output + "/renditions/.x.jpg.photogrid-99-0", contents: Data([1]))
        let third = try export(fixture.folder, to: output)
        #expect(third == GalleryExport.Summary(photos: 4, made: 1, kept: 3, failed: [], removed: 6))
        let after = try files(output)
        #expect(!after.keys.contains { $0.contains(GalleryFixture.small) || $0.contains(".photogrid-") })
        #expect(after["renditions/" + GalleryFixture.night + "/256.jpg"]?.modified == Date(timeIntervalSince1970: 1_700_000_000))
        #expect(after.count == 4 * 5 + 1)

        // The photos' folder: nothing written, nothing changed, but what the test did itself.
        var expected = before
        expected[GalleryFixture.small] = nil
        let now = try files(fixture.folder)
        #expect(Set(now.keys) == Set(expected.keys))
        #expect(now.allSatisfy { $0.value.bytes == expected[$0.key]?.bytes })
    }

    @Test func itWritesNowhereItMustNot() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        func refusal(_ output: String) -> GalleryExport.ExportError? {
            do throws(GalleryExport.ExportError) {
                _ = try GalleryExport(GalleryExport.Configuration(folder: fixture.folder, output: output))
                return nil
            } catch {
                return error
            }
        }
        // Inside the photos' folder, through `..` or not: refused before anything is made.
        for inside in [fixture.folder + "/export", fixture.folder + "/travel/../new/deeper", fixture.folder] {
            guard case .overlaps? = refusal(inside) else { Issue.record("\(inside) was taken"); continue }
        }
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/export"))
        #expect(!FileManager.default.fileExists(atPath: fixture.folder + "/new"))
        // Around it: the export would hold the photos.
        guard case .overlaps? = refusal(fixture.base) else { Issue.record("a folder holding the photos was taken"); return }
        // Someone's own folder, not empty and not an export: left alone.
        let own = fixture.base + "/own"
        try FileManager.default.createDirectory(atPath: own + "/originals", withIntermediateDirectories: true)
        FileManager.default.createFile(atPath: own + "/originals/mine.txt", contents: Data("mine".utf8))
        #expect(refusal(own) == .notAnExport(own))
        #expect(FileManager.default.contents(atPath: own + "/originals/mine.txt") == Data("mine".utf8))
        // A folder that is not there: said so, and no output made.
        var missing: GalleryExport.ExportError?
        do throws(GalleryExport.ExportError) {
            _ = try GalleryExport(GalleryExport.Configuration(folder: fixture.base + "/none", output: fixture.base + "/out"))
        } catch {
            missing = error
        }
        guard case .serve(.folderNotFound)? = missing else { Issue.record("a missing folder was taken: \(String(describing: missing))"); return }
        #expect(!FileManager.default.fileExists(atPath: fixture.base + "/out"))
    }
}
