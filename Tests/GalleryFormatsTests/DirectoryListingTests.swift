import Testing
@testable import GalleryFormats

/// The listings of real servers (Tests/Fixtures/listings, made as its README says) of one folder:
/// eight files with spaces, "&", ":", "%", "ü" and Japanese in their names, and two subfolders.
@Suite struct DirectoryListingTests {
    /// The folder's names in the fixtures, however each server sorts them.
    static let files = ["100% crop.jpg", "10:30 sunset.jpg", "Blick über.jpg", "Fish & Chips.jpg",
                        "a very long file name that nginx cuts short in its listing.jpg", "lake 01.jpg", "notes.txt", "夕焼け.jpg"]
    static let folders = ["alps", "sub folder"]

    private func listing(_ fixture: String, _ url: String, contentType: String?) throws -> DirectoryListing {
        try #require(DirectoryListing.parse(try RemoteFixtures.listing(fixture), url: remoteURL(url), contentType: contentType))
    }

    private func pairs(_ entries: [(name: String, url: RemoteURL)]) -> [String] {
        entries.map { "\($0.name) -> \($0.url)" }
    }

    /// A name in Latin-1 (`caf\xE9.jpg`), as nginx writes it into its JSON (raw) and HTML (%E9):
    /// asked for by its own bytes, shown with U+FFFD in place of the one that is not UTF-8.
    @Test func aNameThatIsNotUTF8KeepsItsBytes() throws {
        let base = remoteURL("http://127.0.0.1:18080/g/")
        let json: [UInt8] = Array(#"[{"name":"caf"#.utf8) + [0xE9] + Array(#".jpg","type":"file"},{"name":"ok","type":"directory"}]"#.utf8)
        let fromJSON = try #require(DirectoryListing.parse(json, url: base, contentType: "application/json"))
        #expect(pairs(fromJSON.files) == ["caf\u{FFFD}.jpg -> http://127.0.0.1:18080/g/caf%E9.jpg"])
        #expect(pairs(fromJSON.folders) == ["ok -> http://127.0.0.1:18080/g/ok/"])
        let html: [UInt8] = Array(#"<title>Index of /g/</title><a href="caf%E9.jpg">caf"#.utf8) + [0xE9] + Array(".jpg</a>".utf8)
        let fromHTML = try #require(DirectoryListing.parse(html, url: base, contentType: "text/html"))
        #expect(pairs(fromHTML.files) == ["caf\u{FFFD}.jpg -> http://127.0.0.1:18080/g/caf%E9.jpg"])
    }

    @Test func nginxHTML() throws {
        let listing = try listing("nginx.html", "http://127.0.0.1:18080/gallery/", contentType: "text/html")
        #expect(pairs(listing.folders) == [
            "alps -> http://127.0.0.1:18080/gallery/alps/",
            "sub folder -> http://127.0.0.1:18080/gallery/sub%20folder/",
        ])
        // Names from the links, not from the text nginx cut to "...cuts short in ..&gt;".
        #expect(pairs(listing.files) == [
            "100% crop.jpg -> http://127.0.0.1:18080/gallery/100%25%20crop.jpg",
            "10:30 sunset.jpg -> http://127.0.0.1:18080/gallery/10%3A30%20sunset.jpg",
            "Blick über.jpg -> http://127.0.0.1:18080/gallery/Blick%20%C3%BCber.jpg",
            "Fish & Chips.jpg -> http://127.0.0.1:18080/gallery/Fish%20%26%20Chips.jpg",
            "a very long file name that nginx cuts short in its listing.jpg -> "
                + "http://127.0.0.1:18080/gallery/a%20very%20long%20file%20name%20that%20nginx%20cuts%20short%20in%20its%20listing.jpg",
            "lake 01.jpg -> http://127.0.0.1:18080/gallery/lake%2001.jpg",
            "notes.txt -> http://127.0.0.1:18080/gallery/notes.txt",
            "夕焼け.jpg -> http://127.0.0.1:18080/gallery/%E5%A4%95%E7%84%BC%E3%81%91.jpg",
        ])
    }

    @Test func nginxJSON() throws {
        let listing = try listing("nginx.json", "http://127.0.0.1:18080/json/", contentType: "application/json")
        #expect(pairs(listing.folders) == [
            "alps -> http://127.0.0.1:18080/json/alps/",
            "sub folder -> http://127.0.0.1:18080/json/sub%20folder/",
        ])
        #expect(pairs(listing.files) == [
            "100% crop.jpg -> http://127.0.0.1:18080/json/100%25%20crop.jpg",
            "10:30 sunset.jpg -> http://127.0.0.1:18080/json/10%3A30%20sunset.jpg",
            "Blick über.jpg -> http://127.0.0.1:18080/json/Blick%20%C3%BCber.jpg",
            "Fish & Chips.jpg -> http://127.0.0.1:18080/json/Fish%20%26%20Chips.jpg",
            "a very long file name that nginx cuts short in its listing.jpg -> "
                + "http://127.0.0.1:18080/json/a%20very%20long%20file%20name%20that%20nginx%20cuts%20short%20in%20its%20listing.jpg",
            "lake 01.jpg -> http://127.0.0.1:18080/json/lake%2001.jpg",
            "notes.txt -> http://127.0.0.1:18080/json/notes.txt",
            "夕焼け.jpg -> http://127.0.0.1:18080/json/%E5%A4%95%E7%84%BC%E3%81%91.jpg",
        ])
        // The body alone says JSON too.
        #expect(DirectoryListing.parse(try RemoteFixtures.listing("nginx.json"), url: remoteURL("http://h/json/"), contentType: nil)?.files.count == 8)
    }

    @Test func apacheFancyIndex() throws {
        let listing = try listing("apache.html", "http://127.0.0.1/gallery/", contentType: "text/html;charset=UTF-8")
        // Not the sort links (?C=N;O=D), not "Parent Directory" (href="/"), not the icons.
        #expect(pairs(listing.folders) == [
            "alps -> http://127.0.0.1/gallery/alps/",
            "sub folder -> http://127.0.0.1/gallery/sub%20folder/",
        ])
        // Apache writes "&amp;" for "&", lower-case escapes, and "./" before a name with ":".
        #expect(pairs(listing.files) == [
            "夕焼け.jpg -> http://127.0.0.1/gallery/%E5%A4%95%E7%84%BC%E3%81%91.jpg",
            "10:30 sunset.jpg -> http://127.0.0.1/gallery/10:30%20sunset.jpg",
            "100% crop.jpg -> http://127.0.0.1/gallery/100%25%20crop.jpg",
            "Blick über.jpg -> http://127.0.0.1/gallery/Blick%20%C3%BCber.jpg",
            "Fish & Chips.jpg -> http://127.0.0.1/gallery/Fish%20&%20Chips.jpg",
            "a very long file name that nginx cuts short in its listing.jpg -> "
                + "http://127.0.0.1/gallery/a%20very%20long%20file%20name%20that%20nginx%20cuts%20short%20in%20its%20listing.jpg",
            "lake 01.jpg -> http://127.0.0.1/gallery/lake%2001.jpg",
            "notes.txt -> http://127.0.0.1/gallery/notes.txt",
        ])
        // In a subfolder "Parent Directory" is "/gallery/", still not below.
        let sub = try self.listing("apache-sub.html", "http://127.0.0.1/gallery/sub%20folder/", contentType: "text/html")
        #expect(pairs(sub.files) == ["inner.jpg -> http://127.0.0.1/gallery/sub%20folder/inner.jpg"])
        #expect(sub.folders.isEmpty)
    }

    @Test func pythonHTTPServer() throws {
        let listing = try listing("python.html", "http://127.0.0.1:18082/gallery/", contentType: "text/html; charset=utf-8")
        #expect(listing.folders.map(\.name) == ["alps", "sub folder"])
        #expect(listing.files.map(\.name) == ["100% crop.jpg", "10:30 sunset.jpg",
                                              "a very long file name that nginx cuts short in its listing.jpg",
                                              "Blick über.jpg", "Fish & Chips.jpg", "lake 01.jpg", "notes.txt", "夕焼け.jpg"])
        #expect(listing.files[1].url.description == "http://127.0.0.1:18082/gallery/10%3A30%20sunset.jpg")
        #expect(listing.folders[1].url.description == "http://127.0.0.1:18082/gallery/sub%20folder/")
    }

    @Test(arguments: [("nginx.html", "text/html"), ("nginx.json", "application/json"), ("apache.html", "text/html"), ("python.html", nil)])
    func everyServerListsTheSameFolder(fixture: String, contentType: String?) throws {
        let listing = try listing(fixture, "http://example.com/photos/", contentType: contentType)
        #expect(listing.files.map(\.name).sorted() == DirectoryListingTests.files.sorted())
        #expect(listing.folders.map(\.name).sorted() == DirectoryListingTests.folders)
        // Every URL lies in the folder and names the file: its last segment decodes to the name.
        for (name, url) in listing.files + listing.folders {
            #expect(url.description.hasPrefix("http://example.com/photos/"))
            #expect(url.lastPathSegment == name)
            #expect(url.pathSegments.count == 2)
        }
    }

    @Test func anEmptyFolderIsAnEmptyListingNotNothing() throws {
        for (fixture, type) in [("nginx-empty.html", "text/html"), ("nginx-empty.json", "application/json")] {
            let listing = try listing(fixture, "http://127.0.0.1:18080/empty/", contentType: type)
            #expect(listing.files.isEmpty && listing.folders.isEmpty)
        }
        let python = "<!DOCTYPE HTML><html><head><title>Directory listing for /e/</title></head><body><ul></ul></body></html>"
        #expect(DirectoryListing.parse(Array(python.utf8), url: remoteURL("http://h/e/"), contentType: nil)?.files.isEmpty == true)
    }
}
