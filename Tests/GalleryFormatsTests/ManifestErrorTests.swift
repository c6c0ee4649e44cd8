import Testing
@testable import GalleryFormats

/// Each rule of docs/remote-gallery.md, broken once, is reported at the offending value. The
/// cases mark that value with "⟦"; the test counts its line and column itself.
@Suite struct ManifestErrorTests {
    private let base = remoteURL("https://photos.example/summer/manifest.json")

    private func error(_ text: String, url: RemoteURL? = nil) -> String? {
        do {
            _ = try GalleryManifest.parse(Array(text.utf8), url: url ?? base)
            return nil
        } catch {
            return error.description
        }
    }

    /// `marked` without its "⟦", and the "manifest.json:LINE:COLUMN" of where it was.
    private func unmark(_ marked: String) -> (text: String, place: String) {
        guard let marker = marked.firstIndex(of: "⟦") else { return (marked, "manifest.json") }
        let before = marked[..<marker]
        let line = before.filter { $0 == "\n" }.count + 1
        let column = (before.lastIndex(of: "\n").map { before[before.index(after: $0)...] } ?? before).unicodeScalars.count + 1
        return (marked.replacingOccurrences(of: "⟦", with: ""), "manifest.json:\(line):\(column)")
    }

    /// A manifest with `photo` as its only photo, and `top` before its photos.
    private static func with(photo: String, top: String = "") -> String {
        "{\"photogrid\": 1, \(top)\n \"photos\": [\n  {\"id\": \"ok\", \"original\": \"ok.jpg\"},\n  \(photo)\n ]}"
    }

    @Test(arguments: [
        ("⟦[1]", "a manifest is a JSON object, and this is an array"),
        ("⟦{\"photos\": []}", "not a photogrid manifest: there is no \"photogrid\" member"),
        ("{\"photogrid\": ⟦2, \"photos\": []}", "photogrid: version 2 is not supported (this photogrid reads version 1)"),
        ("{\"photogrid\": ⟦1.5, \"photos\": []}", "photogrid: version 1.5 is not supported (this photogrid reads version 1)"),
        ("{\"photogrid\": ⟦\"1\", \"photos\": []}", "photogrid: expected the number 1, found a string"),
        ("⟦{\"photogrid\": 1}", "there is no \"photos\" member"),
        ("{\"photogrid\": 1, \"title\": ⟦5, \"photos\": []}", "title: expected a string, found 5"),
        ("{\"photogrid\": 1, \"photos\": ⟦{}}", "photos: expected an array, found an object"),
        ("{\"photogrid\": 1, \"photos\": [], \"next\": ⟦\"mailto:x@example.com\"}", "next: not an http or https URL"),
        ("{\"photogrid\": 1, \"photos\": [], \"next\": ⟦\"manifest.json#more\"}", "next: is this same page, which would never end"),
        // The renditions template.
        ("{\"photogrid\": 1, \"renditions\": ⟦[], \"photos\": []}", "renditions: expected an object, found an array"),
        ("{\"photogrid\": 1, \"renditions\": ⟦{\"sizes\": [1]}, \"photos\": []}", "renditions: there is no \"template\""),
        ("{\"photogrid\": 1, \"renditions\": ⟦{\"template\": \"{id}/{size}\"}, \"photos\": []}", "renditions: there are no \"sizes\""),
        ("{\"photogrid\": 1, \"renditions\": {\"template\": \"{id}/{size}\", \"sizes\": ⟦[]}, \"photos\": []}",
         "renditions.sizes: expected at least one size"),
        ("{\"photogrid\": 1, \"renditions\": {\"template\": \"{id}/{size}\", \"sizes\": [256, ⟦0]}, \"photos\": []}",
         "renditions.sizes[1]: expected a whole number of at least 1, found 0"),
        ("{\"photogrid\": 1, \"renditions\": {\"template\": \"{id}/{size}\", \"sizes\": [⟦1.5]}, \"photos\": []}",
         "renditions.sizes[0]: expected a whole number, found 1.5"),
        ("{\"photogrid\": 1, \"renditions\": {\"template\": ⟦\"r/{size}.jpg\", \"sizes\": [1]}, \"photos\": []}",
         "renditions.template: has no {id}, so every photo would share its renditions"),
        ("{\"photogrid\": 1, \"renditions\": {\"sizes\": [1, 2], \"template\": ⟦\"r/{id}.jpg\"}, \"photos\": []}",
         "renditions.template: has no {size}, so its 2 sizes would share one URL"),
        ("{\"photogrid\": 1, \"renditions\": {\"template\": ⟦\"ftp://x/{id}/{size}\", \"sizes\": [1]}, \"photos\": []}",
         "renditions.template: does not make http or https URLs"),
        ("{\"photogrid\": 1, \"renditions\": {\"template\": ⟦7, \"sizes\": [1]}, \"photos\": []}",
         "renditions.template: expected a string, found 7"),
        // Sections.
        ("{\"photogrid\": 1, \"sections\": ⟦{}, \"photos\": []}", "sections: expected an array, found an object"),
        ("{\"photogrid\": 1, \"sections\": [⟦{\"title\": \"x\"}], \"photos\": []}", "sections[0]: there is no \"id\""),
        ("{\"photogrid\": 1, \"sections\": [⟦\"a\"], \"photos\": []}", "sections[0]: expected an object, found a string"),
        ("{\"photogrid\": 1, \"sections\": [{\"id\": \"a\"}, {\"id\": ⟦\"a\"}], \"photos\": []}",
         "sections[1].id: \"a\" is the id of an earlier section too"),
        ("{\"photogrid\": 1, \"sections\": [{\"id\": \"a\", \"title\": ⟦false}], \"photos\": []}",
         "sections[0].title: expected a string, found false"),
        // Photos.
        (with(photo: "⟦\"x.jpg\""), "photos[1]: expected an object, found a string"),
        (with(photo: "⟦{\"original\": \"a.jpg\"}"), "photos[1]: there is no \"id\""),
        (with(photo: "⟦{\"id\": \"a\"}"), "photos[1]: there is no \"original\""),
        (with(photo: "{\"id\": ⟦\"\", \"original\": \"a.jpg\"}"), "photos[1].id: must not be empty"),
        (with(photo: "{\"id\": ⟦7, \"original\": \"a.jpg\"}"), "photos[1].id: expected a string, found 7"),
        (with(photo: "{\"id\": ⟦\"ok\", \"original\": \"a.jpg\"}"), "photos[1].id: \"ok\" is also the id of photos[0]"),
        (with(photo: "{\"id\": ⟦\"o\\u006b\", \"original\": \"a.jpg\"}"), "photos[1].id: \"ok\" is also the id of photos[0]"),
        (with(photo: "{\"id\": \"a\", \"original\": ⟦\"file:///etc/passwd\"}"), "photos[1].original: not an http or https URL"),
        (with(photo: "{\"id\": \"a\", \"original\": ⟦\"javascript:alert(1)\"}"), "photos[1].original: not an http or https URL"),
        (with(photo: "{\"id\": \"a\", \"original\": ⟦\"https://user:pw@photos.example/a.jpg\"}"),
         "photos[1].original: not an http or https URL"),
        (with(photo: "{\"id\": \"a\", \"original\": ⟦42}"), "photos[1].original: expected a string, found 42"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"name\": ⟦[]}"), "photos[1].name: expected a string, found an array"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"width\": ⟦4000.5}"), "photos[1].width: expected a whole number, found 4000.5"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"width\": ⟦0}"),
         "photos[1].width: expected a whole number of at least 1, found 0"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"height\": ⟦\"3000\"}"), "photos[1].height: expected a whole number, found a string"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"bytes\": ⟦-1}"),
         "photos[1].bytes: expected a whole number of at least 0, found -1"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"taken\": ⟦true}"), "photos[1].taken: expected a string, found true"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"caption\": ⟦null}"), "photos[1].caption: expected a string, found null"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"latitude\": ⟦91}"), "photos[1].latitude: 91 is out of range (-90 to 90)"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"longitude\": ⟦-180.5}"),
         "photos[1].longitude: -180.5 is out of range (-180 to 180)"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"latitude\": ⟦\"46\"}"), "photos[1].latitude: expected a number, found a string"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"section\": ⟦\"nowhere\"}"),
         "photos[1].section: no section of this page has the id \"nowhere\""),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"renditions\": ⟦{}}"), "photos[1].renditions: expected an array, found an object"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"renditions\": [⟦{\"url\": \"s.jpg\"}]}"),
         "photos[1].renditions[0]: there is no \"size\""),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"renditions\": [{\"size\": 1, \"url\": \"s.jpg\"}, ⟦{\"size\": 2}]}"),
         "photos[1].renditions[1]: there is no \"url\""),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"renditions\": [{\"size\": ⟦0, \"url\": \"s.jpg\"}]}"),
         "photos[1].renditions[0].size: expected a whole number of at least 1, found 0"),
        (with(photo: "{\"id\": \"a\", \"original\": \"a.jpg\", \"renditions\": [{\"size\": 9, \"url\": ⟦\"ftp://x/s.jpg\"}]}"),
         "photos[1].renditions[0].url: not an http or https URL"),
        // Syntax errors have no path.
        ("{\"photogrid\": 1, \"photos\": [⟦}", "expected a value, found '}'"),
    ])
    func reportsTheOffendingValue(marked: String, expected: String) {
        let (text, place) = unmark(marked)
        #expect(error(text) == "\(place): \(expected)")
    }

    @Test func theMessageHasTheShapeCompilersUse() {
        let text = """
        {
          "photogrid": 1,
          "photos": [
            {"id": "a", "original": "a.jpg"},
            {"id": "b", "original": "b.jpg"},
            {"id": "c",
             "original": "file:///etc/passwd"}
          ]
        }
        """
        #expect(error(text) == "manifest.json:7:18: photos[2].original: not an http or https URL")
        #expect(throws: ManifestError(document: "manifest.json", line: 7, column: 18, path: "photos[2].original",
                                      message: "not an http or https URL")) {
            _ = try GalleryManifest.parse(Array(text.utf8), url: base)
        }
    }

    @Test func theDocsSyntaxErrorExampleIsWhatTheParserSays() throws {
        // The doc's example manifest without the comma at the end of its line 13.
        let example = String(decoding: try RemoteFixtures.docExample(), as: UTF8.self)
        var lines = example.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[12].hasSuffix("\"taken\": \"2024-07-14T19:42:05\","))
        lines[12].removeLast()
        #expect(error(lines.joined(separator: "\n")) == "manifest.json:14:7: expected ',' or '}' after an object member")
    }

    @Test func documentsAreNamedByTheirURL() {
        let page = remoteURL("https://photos.example/summer/manifest.json?page=2")
        #expect(error("[]", url: page) == "manifest.json?page=2:1:1: a manifest is a JSON object, and this is an array")
        #expect(error("[]", url: remoteURL("http://photos.example/")) == "http://photos.example/:1:1: a manifest is a JSON object, and this is an array")
        #expect(error("[]", url: remoteURL("http://photos.example/g%20h/")) == "g h:1:1: a manifest is a JSON object, and this is an array")
    }

    @Test func textFromTheDocumentCannotReachTheTerminalRaw() {
        let text = ManifestErrorTests.with(photo: #"{"id": "ok", "original": "a.jpg"}"#).replacingOccurrences(of: "\"ok\"", with: #""\u001b[2J\u009b""#)
        #expect(error(text) == #"manifest.json:4:10: photos[1].id: "\u001B[2J\u009B" is also the id of photos[0]"#)
        #expect(ManifestError.quoted(String(repeating: "x", count: 100)) == "\"" + String(repeating: "x", count: 57) + "...\"")
    }

    @Test func aPageMayHoldAMillionPhotos() {
        // Counted before any photo is read: 1,000,001 zeros are refused as too many, not as non-objects.
        let text = "{\"photogrid\": 1, \"photos\": [" + String(repeating: "0,", count: 1_000_000) + "0]}"
        #expect(error(text) == "manifest.json:1:28: photos: 1000001 photos in one page, more than the 1000000 allowed (continue in \"next\")")
    }
}
