import Testing
@testable import GalleryFormats

@Suite struct GalleryManifestTests {
    private let base = remoteURL("https://photos.example/summer/manifest.json")

    private func parse(_ text: String, url: RemoteURL? = nil) throws -> GalleryManifest {
        try GalleryManifest.parse(Array(text.utf8), url: url ?? base)
    }

    @Test func readsTheDocsExample() throws {
        let manifest = try GalleryManifest.parse(try RemoteFixtures.docExample(), url: base)
        #expect(manifest.title == "Summer 2024")
        #expect(manifest.sections.map(\.id) == ["alps"])
        #expect(manifest.sections.map(\.title) == ["The Alps"])
        #expect(manifest.next?.description == "https://photos.example/summer/manifest.json?page=2")
        #expect(manifest.photos.count == 1)
        let photo = try #require(manifest.photos.first)
        #expect(photo.id == "alps/lake-01")
        #expect(photo.name == "lake-01.jpg")
        #expect(photo.width == 4000 && photo.height == 3000)
        #expect(photo.bytes == 3_456_789)
        #expect(photo.taken == "2024-07-14T19:42:05")
        #expect(photo.caption == "Evening over the lake")
        #expect(photo.latitude == 46.4936 && photo.longitude == 9.8347)
        #expect(photo.section == "alps")
        #expect(photo.original.description == "https://photos.example/summer/originals/alps/lake-01.jpg")
        // The template's three and the photo's own, together, by size.
        #expect(photo.renditions.map(\.size) == [256, 512, 1024, 2048])
        #expect(photo.renditions.map(\.url.description) == [
            "https://photos.example/summer/renditions/alps/lake-01/256.jpg",
            "https://photos.example/summer/small/alps/lake-01.jpg",
            "https://photos.example/summer/renditions/alps/lake-01/1024.jpg",
            "https://photos.example/summer/renditions/alps/lake-01/2048.jpg",
        ])
        // A 300-pixel tile of this 4:3 photo needs a short side of 300: 512 gives 384.
        #expect(photo.source(coveringShortSide: 300).lastPathSegment == "lake-01.jpg")
        #expect(photo.source(coveringShortSide: 300).path == "/summer/small/alps/lake-01.jpg")
    }

    @Test func aMinimalManifestHasNothingButWhatItSays() throws {
        let manifest = try parse(#"{"photogrid": 1, "photos": [{"id": "a/b c", "original": "/o/b%20c.jpg"}]}"#)
        #expect(manifest.title == nil && manifest.sections.isEmpty && manifest.next == nil)
        let photo = try #require(manifest.photos.first)
        #expect(photo == RemotePhoto(id: "a/b c", name: "b c", original: remoteURL("https://photos.example/o/b%20c.jpg")))
        #expect(try parse(#"{"photogrid": 1.0, "photos": []}"#).photos.isEmpty)
    }

    @Test func templatesEncodeTheIDAndKeepItsSlashes() throws {
        let manifest = try parse(#"""
        {"photogrid": 1, "renditions": {"template": "r/{id}/{size}.jpg?v={size}", "sizes": [512, 256, 512]},
         "photos": [{"id": "2024/Blick über #1", "original": "o.jpg",
                     "renditions": [{"size": 512, "url": "mine.jpg"}, {"size": 100, "url": "//cdn.example/t.jpg"}]}]}
        """#)
        let photo = try #require(manifest.photos.first)
        #expect(photo.renditions.map(\.url.description) == [
            "https://cdn.example/t.jpg",
            "https://photos.example/summer/r/2024/Blick%20%C3%BCber%20%231/256.jpg?v=256",
            // The photo's own rendition wins over the template's of the same size.
            "https://photos.example/summer/mine.jpg",
        ])
        // One size needs no {size}; an unknown placeholder is just text.
        let single = try parse(#"{"photogrid": 1, "renditions": {"template": "/t/{id}{x}.jpg", "sizes": [320]}, "photos": [{"id": "a", "original": "a.jpg"}]}"#)
        #expect(single.photos[0].renditions.map(\.url.description) == ["https://photos.example/t/a%7Bx%7D.jpg"])
        #expect(single.photos[0].renditions.map(\.size) == [320])
    }

    @Test func templateRenditionsAreMadeWhenAskedForAndEqualWrittenOnes() throws {
        let manifest = try parse(#"""
        {"photogrid": 1, "renditions": {"template": "r/{id}/{size}.jpg", "sizes": [256, 1024, 2048]},
         "photos": [{"id": "a", "original": "o/a.jpg", "width": 4000, "height": 3000, "renditions": [{"size": 512, "url": "own/a.jpg"}]},
                    {"id": "b", "original": "o/b.jpg", "renditions": [{"size": 1024, "url": "own/b.jpg"}]}]}
        """#)
        let a = manifest.photos[0]
        // Short sides at 4:3: 192, 384 (its own), 768, 1536.
        #expect(a.source(coveringShortSide: 150).description == "https://photos.example/summer/r/a/256.jpg")
        #expect(a.source(coveringShortSide: 300).description == "https://photos.example/summer/own/a.jpg")
        #expect(a.source(coveringShortSide: 700).description == "https://photos.example/summer/r/a/1024.jpg")
        #expect(a.source(coveringShortSide: 1536).description == "https://photos.example/summer/r/a/2048.jpg")
        #expect(a.source(coveringShortSide: 1537).description == "https://photos.example/summer/o/a.jpg")
        // Of one size, the photo's own wins, in `source` as in `renditions`.
        let b = manifest.photos[1]
        #expect(b.source(coveringShortSide: 1000).description == "https://photos.example/summer/own/b.jpg")
        let written = RemotePhoto(id: "b", original: remoteURL("https://photos.example/summer/o/b.jpg"), renditions: [
            .init(size: 2048, url: remoteURL("https://photos.example/summer/r/b/2048.jpg")),
            .init(size: 1024, url: remoteURL("https://photos.example/summer/own/b.jpg")),
            .init(size: 256, url: remoteURL("https://photos.example/summer/r/b/256.jpg")),
        ])
        #expect(b == written)
        #expect(b != a)
    }

    @Test func idsThatWouldLeaveTheTemplateAreChecked() throws {
        let template = #"{"photogrid": 1, "renditions": {"template": "{id}/{size}.jpg", "sizes": [256]}, "photos": ["#
        // "//" at the start makes a host: allowed when it is one, like any absolute URL in a manifest...
        let other = try parse(template + #"{"id": "//cdn.example/x", "original": "o.jpg"}]}"#)
        #expect(other.photos[0].renditions.map(\.url.description) == ["https://cdn.example/x/256.jpg"])
        // ...and refused when it is not.
        #expect(throws: ManifestError(document: "manifest.json", line: 1, column: 99, path: "photos[0].id",
                                      message: "makes no http or https URL in the renditions template")) {
            _ = try parse(template + #"{"id": "//a%b/x", "original": "o.jpg"}]}"#)
        }
        // Dot segments in ids stay within what the URL allows.
        let dots = try parse(template + #"{"id": "../../x", "original": "o.jpg"}]}"#)
        #expect(dots.photos[0].renditions.map(\.url.description) == ["https://photos.example/x/256.jpg"])
    }

    @Test func pagesResolveNextAgainstTheirOwnURL() throws {
        let page2 = remoteURL("https://photos.example/summer/manifest.json?page=2")
        #expect(try parse(#"{"photogrid": 1, "photos": [], "next": "?page=3"}"#, url: page2).next?.description
            == "https://photos.example/summer/manifest.json?page=3")
        #expect(try parse(#"{"photogrid": 1, "photos": [], "next": "manifest.json?page=3#top"}"#, url: page2).next?.description
            == "https://photos.example/summer/manifest.json?page=3")
        #expect(try parse(#"{"photogrid": 1, "photos": [], "next": "//cdn.example/p/3.json"}"#, url: page2).next?.description
            == "https://cdn.example/p/3.json")
    }

    @Test func unknownMembersAreSkippedAndTheLastOfRepeatedOnesCounts() throws {
        let manifest = try parse(#"""
        {"photogrid": 1, "future": {"deep": [1, {"x": null}]}, "title": "first", "title": "second",
         "photos": [{"id": "a", "original": "a.jpg", "rating": 5, "width": 10, "width": 20, "exif": {"iso": 100}}]}
        """#)
        #expect(manifest.title == "second")
        #expect(manifest.photos[0].width == 20)
    }

    @Test func readsManyPhotos() throws {
        var text = #"{"photogrid": 1, "renditions": {"template": "r/{id}/{size}.jpg", "sizes": [256, 1024]}, "photos": ["#
        for n in 0..<20_000 {
            text += (n > 0 ? ",\n" : "") + #"{"id": "p\#(n)", "original": "o/p\#(n).jpg", "width": 4000, "height": 3000}"#
        }
        let clock = ContinuousClock()
        let start = clock.now
        let manifest = try parse(text + "]}")
        print("manifest: 20,000 photos with 2 template renditions each in \(clock.now - start) (debug build)")
        #expect(manifest.photos.count == 20_000)
        #expect(manifest.photos[19_999].renditions[1].url.description == "https://photos.example/summer/r/p19999/1024.jpg")
        #expect(Set(manifest.photos.map(\.id)).count == 20_000)
    }
}
