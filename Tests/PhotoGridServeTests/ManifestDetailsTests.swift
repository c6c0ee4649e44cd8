import Foundation
import Glibc
import Testing
@testable import GalleryFormats
@testable import PhotoGridDecoding
@testable import PhotoGridLoading
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// What serve's and export's manifests say of photos that are not whole JPEGs (issue 36): the
/// pixel size of every format photogrid decodes, and the damage of a file cut short, which the
/// client's tiles then show as a local one's do.
@Suite(.startsPrograms) struct ManifestDetailsTests {
    @Test func everyFormatHasItsSizeAndACutFileIsMarked() async throws {
        let others = RemotePaths.gallery + "/other-formats"
        let names = try FileManager.default.contentsOfDirectory(atPath: others).sorted()
        try await ServedGallery.with({ configuration in
            for name in names { try? FileManager.default.copyItem(atPath: others + "/" + name, toPath: configuration.folder + "/" + name) }
            // Half a JPEG: a photo still being copied.
            let whole = FileManager.default.contents(atPath: RemotePaths.gallery + "/travel/beach-01.jpg")!
            FileManager.default.createFile(atPath: configuration.folder + "/cut.jpg", contents: whole.prefix(whole.count / 2))
        }) { (served: ServedGallery) async throws -> Void in
            let body = try await served.request("/manifest.json").body
            let base = try #require(RemoteURL("http://127.0.0.1:\(served.port)/"))
            let manifest = try GalleryManifest.parse(body, url: try #require(base.resolving("manifest.json")))
            for name in names {
                let photo = try #require(manifest.photos.first { $0.id == name }, "\(name) is not in the manifest")
                let local = try #require(PhotoDecoder.readInfo(Photo(path: RawPath(others + "/" + name), relativePath: RawPath(name))))
                #expect(photo.width == local.width && photo.height == local.height && photo.width != nil, "\(name)")
                #expect(!photo.partial, "\(name)")
            }
            let cut = try #require(manifest.photos.first { $0.id == "cut.jpg" })
            #expect(cut.partial && cut.width != nil)
            #expect(manifest.photos.filter(\.partial).count == 1)
            // The client's loader says so to the pipeline, which marks the tiles.
            let http = Fetcher.forTests()
            defer { http.shutdown() }
            let loader = RemoteLoader(fetcher: http)
            #expect(loader.isPartial(RemoteLoader.photo(cut)))
            #expect(!loader.isPartial(RemoteLoader.photo(manifest.photos.first { $0.id == names[0] }!)))
        }
    }
}
