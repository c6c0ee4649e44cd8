import Foundation
import PhotoGridCore
import PhotoGridLoading
import PhotoGridDiskCache
import PhotoGridModel
import PhotoGridSystem

/// A scratch gallery made from sample-gallery, with the cases a server must get right: a photo
/// with EXIF orientation 6, one in a subfolder, one whose name has spaces, non-ASCII letters and
/// URL syntax, one smaller than every rendition, files that are not photos, a hidden photo, and
/// links that lead out of the folder. Deleted by `remove()`.
package struct GalleryFixture {
    /// The repository's sample-gallery.
    package static let samples = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("sample-gallery").path

    /// The scratch folder: `folder` is served, `outside` lies beside it.
    package let base: String
    package var folder: String { base + "/gallery" }
    package var outside: String { base + "/outside" }

    /// Stored 1800 x 1200 with orientation 6: 1200 x 1800 upright.
    package static let rotated = "hills-03.jpg"
    package static let inSubfolder = "travel/beach-01.jpg"
    package static let awkward = "travel/Plage d'été #2 100%.jpg"
    package static let night = "night/night-01.jpg"
    /// 120 x 80, smaller than every rendition size.
    package static let small = "small.jpg"
    /// Links that lead out: `outside.jpg`, `linked-out/away.jpg`, `secret.jpg`.
    package static let linkedOut = 3
    /// The ids the manifest must list, in its order: the top folder's photos, then each section's.
    /// In natural order: `inSubfolder` ("beach-01") before `awkward` ("Plage d'été").
    package static let servedIDs = [rotated, small, night, inSubfolder, awkward]

    package init() throws {
        base = NSTemporaryDirectory() + "photogrid-serve-" + UUID().uuidString
        let files = FileManager.default
        for dir in ["/gallery/travel", "/gallery/night", "/outside/deep"] {
            try files.createDirectory(atPath: base + dir, withIntermediateDirectories: true)
        }
        try copy("landscapes/hills-03.jpg", to: GalleryFixture.rotated)
        try copy("travel/beach-01.jpg", to: GalleryFixture.inSubfolder)
        try copy("travel/beach-02.jpg", to: GalleryFixture.awkward)
        try copy("night/night-01.jpg", to: GalleryFixture.night)
        try copy("night/night-02.jpg", to: ".hidden.jpg")
        try Data("not a photo".utf8).write(to: URL(fileURLWithPath: folder + "/notes.txt"))
        try Data(GalleryFixture.smallJPEG()).write(to: URL(fileURLWithPath: folder + "/" + GalleryFixture.small))

        // Outside the served folder: a secret, a photo, and links to both from inside.
        try Data("secret".utf8).write(to: URL(fileURLWithPath: outside + "/secret.txt"))
        try files.copyItem(atPath: GalleryFixture.samples + "/travel/desert-01.jpg", toPath: outside + "/deep/away.jpg")
        try files.createSymbolicLink(atPath: folder + "/outside.jpg", withDestinationPath: outside + "/deep/away.jpg")
        try files.createSymbolicLink(atPath: folder + "/linked-out", withDestinationPath: outside + "/deep")
        try files.createSymbolicLink(atPath: folder + "/secret.jpg", withDestinationPath: "../outside/secret.txt")
    }

    package func path(_ id: String) -> String { folder + "/" + id }

    package func bytes(_ id: String) throws -> [UInt8] { Array(try Data(contentsOf: URL(fileURLWithPath: path(id)))) }

    package func remove() { try? FileManager.default.removeItem(atPath: base) }

    private func copy(_ sample: String, to id: String) throws {
        try FileManager.default.copyItem(atPath: GalleryFixture.samples + "/" + sample, toPath: path(id))
    }

    /// Left half red, right half blue: a shape and colours a rendition must keep.
    package static func smallJPEG() throws -> [UInt8] {
        var image = RGBImage(width: 120, height: 80, fill: RGB(200, 30, 30))
        image.draw(RGBImage(width: 60, height: 80, fill: RGB(30, 30, 200)), atX: 60, y: 0)
        return try JPEG.encode(image, quality: 95)
    }
}
