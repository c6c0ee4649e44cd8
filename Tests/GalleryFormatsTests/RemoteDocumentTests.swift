import Testing
@testable import GalleryFormats

/// docs/remote-gallery.md's rule for telling a manifest from a listing, and the errors for what is neither.
@Suite struct RemoteDocumentTests {
    private let manifestURL = remoteURL("https://photos.example/summer/manifest.json")
    private let folderURL = remoteURL("https://photos.example/summer/")

    private func classify(_ body: [UInt8], _ contentType: String?, url: RemoteURL? = nil) throws -> RemoteDocument {
        try RemoteDocument.classify(body: body, contentType: contentType, url: url ?? manifestURL)
    }

    private func error(_ body: String, _ contentType: String?, url: RemoteURL? = nil) -> String? {
        do {
            _ = try RemoteDocument.classify(body: Array(body.utf8), contentType: contentType, url: url ?? manifestURL)
            return nil
        } catch {
            return error.description
        }
    }

    @Test func aJSONObjectWithPhotogridIsAManifest() throws {
        let body = #"{"photogrid": 1, "photos": [{"id": "a", "original": "a.jpg"}]}"#
        for (bytes, type) in [(Array(body.utf8), "application/json"), (Array(body.utf8), "text/html"),
                              ([0xEF, 0xBB, 0xBF] + Array(("\n  " + body).utf8), nil)] {
            guard case let .manifest(manifest) = try classify(bytes, type) else { Issue.record("not a manifest: \(type ?? "-")"); continue }
            #expect(manifest.photos.map(\.original.description) == ["https://photos.example/summer/a.jpg"])
        }
        guard case .manifest = try classify(try RemoteFixtures.docExample(), "application/json; charset=utf-8") else {
            Issue.record("the doc's example is not a manifest")
            return
        }
    }

    @Test func listingsOfEachKind() throws {
        for (fixture, type) in [("nginx.json", "application/json"), ("nginx.json", nil), ("nginx.html", "text/html"),
                                ("apache.html", "text/html;charset=UTF-8"), ("python.html", nil), ("nginx-empty.json", nil)] {
            guard case let .listing(listing) = try classify(try RemoteFixtures.listing(fixture), type, url: folderURL) else {
                Issue.record("\(fixture) is not a listing")
                continue
            }
            #expect(listing.files.count == (fixture.contains("empty") ? 0 : 8), "\(fixture)")
        }
    }

    @Test func whatIsNeitherIsSaidPlainly() {
        #expect(error(#"{"title": "x", "photos": []}"#, "application/json")
            == "manifest.json:1:1: a JSON object without a \"photogrid\" member, so not a photogrid manifest")
        // A broken manifest is reported where it breaks.
        #expect(error("{\"photogrid\": 1,\n \"photos\": [}", nil) == "manifest.json:2:13: expected a value, found '}'")
        #expect(error("<html>oops</html>", "application/json") == "manifest.json:1:1: expected a value, found '<'")
        #expect(error("[1, 2]", nil) == "manifest.json: a JSON array, but not nginx's directory listing (objects with \"name\" and \"type\")")
        #expect(error("42", "application/json") == "manifest.json: a lone JSON value, neither a photogrid manifest nor a directory listing")
        #expect(error("\u{FF}\u{D8}\u{FF}", "image/jpeg", url: folderURL)
            == "summer: neither a photogrid manifest nor a directory listing: the response is image/jpeg")
        #expect(error("<html><head><title>Welcome home</title></head><a href=\"/about\">x</a></html>", "text/html", url: folderURL)
            == "summer: neither a photogrid manifest nor a directory listing: an HTML page \"Welcome home\" with no links below /summer/")
        #expect(error(" \n", nil) == "manifest.json: neither a photogrid manifest nor a directory listing: the response is empty")
        #expect(error("hello\u{1B}[2J world", nil)
            == #"manifest.json: neither a photogrid manifest nor a directory listing: a document that is neither JSON nor HTML, starting "hello\u001B[2J world""#)
    }
}
