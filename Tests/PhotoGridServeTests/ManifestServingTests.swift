import Foundation
import Testing
@testable import GalleryFormats
@testable import PhotoGridCore
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridLoading
@testable import PhotoGridMetadata
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// The manifest as a client gets it over HTTP, parsed with Foundation's JSON parser (not ours)
/// and checked against docs/remote-gallery.md and against the files themselves.
@Suite(.startsPrograms) struct ManifestServingTests {
    static func parse(_ body: [UInt8]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(body)) as? [String: Any])
    }

    @Test func manifestListsThePhotosWithTheirDetails() async throws {
        try await ServedGallery.with { served in
            let reply = try await served.request("/manifest.json")
            #expect(reply.status == 200)
            #expect(reply.header("Content-Type") == "application/json")
            // Revalidated on every visit, usable meanwhile (RFC 5861).
            #expect(reply.header("Cache-Control") == "max-age=0, stale-while-revalidate=604800")
            let json = try Self.parse(reply.body)

            #expect(json["photogrid"] as? Int == 1)
            #expect(json["title"] as? String == "gallery")
            let renditions = try #require(json["renditions"] as? [String: Any])
            #expect(renditions["template"] as? String == "renditions/{id}/{size}.jpg")
            #expect(renditions["sizes"] as? [Int] == [256, 512, 1024, 2048])
            let sections = try #require(json["sections"] as? [[String: Any]])
            #expect(sections.map { $0["id"] as? String } == ["night", "travel"])
            #expect(sections.map { $0["title"] as? String } == ["night", "travel"])

            // Hidden files, non-photos and links out of the folder are not there; the top
            // folder's photos come first, then each section's.
            let photos = try #require(json["photos"] as? [[String: Any]])
            #expect(photos.map { $0["id"] as? String } == GalleryFixture.servedIDs)

            for photo in photos {
                let id = try #require(photo["id"] as? String)
                let file = try served.fixture.bytes(id)
                let info = try #require(PhotoInfo.read(file))
                #expect(photo["name"] as? String == String(id.split(separator: "/").last!))
                #expect(photo["width"] as? Int == info.width)
                #expect(photo["height"] as? Int == info.height)
                #expect(photo["bytes"] as? Int == file.count)
                #expect(photo["section"] as? String == (id.contains("/") ? String(id.split(separator: "/")[0]) : nil))
                #expect(photo["original"] as? String == "originals/" + ServedGallery.encoded(id))
                #expect(photo["caption"] as? String == info.caption)
                #expect(photo["taken"] as? String == info.dateTaken.map {
                    String($0.prefix(10).replacingOccurrences(of: ":", with: "-")) + "T" + String($0.suffix(8))
                })
                if let latitude = info.latitude {
                    #expect(abs((photo["latitude"] as? Double ?? 999) - latitude) < 1e-6)
                }
                // No nulls anywhere: fields a photo lacks are left out.
                #expect(!photo.values.contains { $0 is NSNull })
            }

            let rotated = try #require(photos.first)
            #expect(rotated["width"] as? Int == 1200)
            #expect(rotated["height"] as? Int == 1800)
            let captions: [String] = photos.compactMap { $0["caption"] as? String }
            let originals: [String] = photos.compactMap { $0["original"] as? String }
            let caption: String = "Moonrise over the Atacama"
            let original: String = "originals/travel/Plage%20d%27%C3%A9t%C3%A9%20%232%20100%25.jpg"
            #expect(captions.contains(caption))
            #expect(originals.contains(original))
        }
    }

    @Test func everyURLInTheManifestResolvesAgainstIt() async throws {
        try await ServedGallery.with { served in
            let manifestURL = try #require(URL(string: served.base + "/manifest.json"))
            let json = try Self.parse(try await served.request("/manifest.json").body)
            let photos = try #require(json["photos"] as? [[String: Any]])
            for photo in photos {
                let id = try #require(photo["id"] as? String)
                let originalURL = try #require(photo["original"] as? String)
                let original = try #require(URL(string: originalURL, relativeTo: manifestURL))
                let reply = try await served.request(original.absoluteURL.path(percentEncoded: true))
                #expect(reply.status == 200, "\(id)")
                #expect(reply.body == (try served.fixture.bytes(id)), "\(id)")

                let template = "renditions/{id}/{size}.jpg"
                let rendition = template.replacingOccurrences(of: "{id}", with: ServedGallery.encoded(id))
                    .replacingOccurrences(of: "{size}", with: "256")
                let resolved = try #require(URL(string: rendition, relativeTo: manifestURL))
                #expect(try await served.request(resolved.absoluteURL.path(percentEncoded: true)).status == 200, "\(id)")
            }
        }
    }

    @Test func rootAndManifestPathServeTheSameDocument() async throws {
        try await ServedGallery.with { served in
            let root = try await served.request("/")
            let named = try await served.request("/manifest.json?page=1")
            #expect(root.status == 200)
            #expect(root.body == named.body)
            #expect(root.header("ETag") != nil)
            #expect(root.header("ETag") == named.header("ETag"))
        }
    }

    @Test func revalidationGetsNotModified() async throws {
        try await ServedGallery.with { served in
            let first = try await served.request("/manifest.json")
            let etag = try #require(first.header("ETag"))
            let again = try await served.request("/manifest.json", headers: [("If-None-Match", etag)])
            #expect(again.status == 304)
            #expect(again.body.isEmpty)
            #expect(again.header("ETag") == etag)
            let other = try await served.request("/manifest.json", headers: [("If-None-Match", "\"m-0000000000000000\"")])
            #expect(other.status == 200)
            #expect(other.body == first.body)
        }
    }

    @Test func headGivesTheHeadersWithoutTheBody() async throws {
        try await ServedGallery.with { served in
            let get = try await served.request("/manifest.json")
            let head = try await served.request("/manifest.json", method: .HEAD)
            #expect(head.status == 200)
            #expect(head.body.isEmpty)
            #expect(head.header("Content-Length") == String(get.body.count))
        }
    }

    /// The same photo, the same facts: what the details panel shows of a served photo (read from
    /// the manifest, no download) is what it shows of the file on disk, a sidecar's caption and
    /// the camera included.
    @Test func theDetailsOverTheNetworkAreTheLocalOnes() async throws {
        try await ServedGallery.with({ configuration in
            // A caption in a sidecar, which locally goes before the photo's own.
            let sidecar = configuration.folder + "/" + GalleryFixture.night + ".xmp"
            FileManager.default.createFile(atPath: sidecar, contents: Data(XMPCaptionEdit.fresh("From the sidecar")))
        }) { served in
            let body = try await served.request("/manifest.json").body
            let base = try #require(RemoteURL("http://127.0.0.1:9/"))
            let manifest = try GalleryManifest.parse(body, url: try #require(base.resolving("manifest.json")))
            let http = Fetcher.forTests()
            defer { http.shutdown() }
            let reader = InfoReader(loader: RemoteLoader(fetcher: http), decoder: PhotoDecoder())
            var cameras = 0
            for remote in manifest.photos {
                let photo = RemoteLoader.photo(remote)
                let there = try #require(reader.info(of: photo))
                let local = try #require(try FolderScanner().scan(RawPath(served.fixture.folder)).first { $0.relativePath.description == remote.id })
                let here = try #require(PhotoDecoder().info(of: local))
                #expect(there.dateTaken == here.dateTaken, "\(remote.id)")
                #expect(there.caption == here.caption && there.positionText == here.positionText, "\(remote.id)")
                #expect([there.make, there.model, there.lens] == [here.make, here.model, here.lens], "\(remote.id)")
                #expect(there.iso == here.iso && there.exposureText == here.exposureText, "\(remote.id)")
                #expect(there.fNumberText == here.fNumberText && there.focalLengthText == here.focalLengthText, "\(remote.id)")
                #expect(there.width == here.width && there.height == here.height, "\(remote.id)")
                if here.make != nil { cameras += 1 }
                if remote.id == GalleryFixture.night { #expect(there.caption == "From the sidecar") }
            }
            #expect(cameras >= 2)
        }
    }

    /// A folder's videos are in the gallery as locally: listed, their originals served for a
    /// player, no renditions; the client shows them as video tiles without asking for any.
    @Test func videosAreListedAndPlayedFromTheirOriginals() async throws {
        let clip: [UInt8] = [0, 0, 0, 24] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("mp42isom".utf8) + [UInt8](repeating: 7, count: 1000)
        try await ServedGallery.with({ configuration in
            FileManager.default.createFile(atPath: configuration.folder + "/clip.mp4", contents: Data(clip))
        }) { (served: ServedGallery) async throws -> Void in
            let body = try await served.request("/manifest.json").body
            let base = try #require(RemoteURL("http://127.0.0.1:\(served.port)/"))
            let manifest = try GalleryManifest.parse(body, url: try #require(base.resolving("manifest.json")))
            let video = try #require(manifest.photos.first { $0.id == "clip.mp4" })
            #expect(video.width == nil && video.camera == nil)
            #expect(try await served.request("/renditions/clip.mp4/256.jpg").status == 404)
            #expect(try await served.request("/originals/clip.mp4").body == clip)
            let loaded = RemoteGalleryLoader.Loaded(title: "g", photos: manifest.photos, others: [])
            let http = Fetcher.forTests()
            defer { http.shutdown() }
            let source = RemoteCommand.source(loaded, fetcher: http)
            let tile = try #require(source.photos.first { $0.name == "clip.mp4" })
            #expect(tile.format.isVideo)
            let before = served.server.totalRequests
            #expect(throws: DecodeError.unsupportedFormat("MP4 video")) { try source.loader.waitForLoad(tile, .picture(covering: 64)).get() }
            #expect(source.infoReader.info(of: tile) == nil)
            #expect(throws: DecodeError.unsupportedFormat("MP4 video")) { try source.loader.waitForLoad(tile, .thumbnail).get() }
            #expect(served.server.totalRequests == before)
        }
    }
}
