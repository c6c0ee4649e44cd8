import Testing
@testable import GalleryFormats

/// RFC 3986 section 5.4's examples against its base, and what photogrid adds: fragments are
/// dropped, an empty path is "/", and only http and https come out.
@Suite struct RemoteURLResolvingTests {
    let base = remoteURL("http://a/b/c/d;p?q")

    @Test(arguments: [
        // 5.4.1 Normal examples ("g:h" is refused: another scheme).
        ("g", "http://a/b/c/g"), ("./g", "http://a/b/c/g"), ("g/", "http://a/b/c/g/"), ("/g", "http://a/g"),
        ("//g", "http://g/"), ("?y", "http://a/b/c/d;p?y"), ("g?y", "http://a/b/c/g?y"), ("#s", "http://a/b/c/d;p?q"),
        ("g#s", "http://a/b/c/g"), ("g?y#s", "http://a/b/c/g?y"), (";x", "http://a/b/c/;x"), ("g;x", "http://a/b/c/g;x"),
        ("g;x?y#s", "http://a/b/c/g;x?y"), ("", "http://a/b/c/d;p?q"), (".", "http://a/b/c/"), ("./", "http://a/b/c/"),
        ("..", "http://a/b/"), ("../", "http://a/b/"), ("../g", "http://a/b/g"), ("../..", "http://a/"),
        ("../../", "http://a/"), ("../../g", "http://a/g"),
        // 5.4.2 Abnormal examples.
        ("../../../g", "http://a/g"), ("../../../../g", "http://a/g"), ("/./g", "http://a/g"), ("/../g", "http://a/g"),
        ("g.", "http://a/b/c/g."), (".g", "http://a/b/c/.g"), ("g..", "http://a/b/c/g.."), ("..g", "http://a/b/c/..g"),
        ("./../g", "http://a/b/g"), ("./g/.", "http://a/b/c/g/"), ("g/./h", "http://a/b/c/g/h"), ("g/../h", "http://a/b/c/h"),
        ("g;x=1/./y", "http://a/b/c/g;x=1/y"), ("g;x=1/../y", "http://a/b/c/y"), ("g?y/./x", "http://a/b/c/g?y/./x"),
        ("g?y/../x", "http://a/b/c/g?y/../x"), ("g#s/./x", "http://a/b/c/g"), ("g#s/../x", "http://a/b/c/g"),
        // "http:g": the backward-compatible reading (the strict one has no host to fetch from).
        ("http:g", "http://a/b/c/g"),
    ] as [(String, String)])
    func resolvesRFC3986Examples(reference: String, expected: String) {
        #expect(base.resolving(reference)?.description == expected)
    }

    @Test(arguments: [
        "g:h", "file:///etc/passwd", "FILE:/etc/passwd", "javascript:alert(1)", " javascript:alert(1)", "JavaScript:void(0)",
        "data:image/jpeg;base64,/9j/", "ftp://a/b", "mailto:x@a", "about:blank", "blob:http://a/x",
        "https:g", "https:/g", "//user@g/", "//g:99999/", "http://user:pw@g/", "//[::1/",
        "g\u{0}", "g\nh", "\tg", "g\u{7F}",
    ])
    func refusesWhatCannotBeFetched(reference: String) {
        #expect(base.resolving(reference) == nil)
    }

    @Test func absoluteAndSchemeRelativeReferences() throws {
        let secure = remoteURL("https://photos.example/summer/manifest.json")
        #expect(secure.resolving("//cdn.example/x.jpg")?.description == "https://cdn.example/x.jpg")
        #expect(secure.resolving("HTTP://Other.Example:8080/a/../b")?.description == "http://other.example:8080/b")
        #expect(secure.resolving("https:x.jpg")?.description == "https://photos.example/summer/x.jpg")
        #expect(secure.resolving("/originals/a.jpg")?.description == "https://photos.example/originals/a.jpg")
        #expect(secure.resolving("manifest.json?page=2")?.description == "https://photos.example/summer/manifest.json?page=2")
        #expect(secure.resolving("?page=2")?.description == "https://photos.example/summer/manifest.json?page=2")
        #expect(secure.resolving("#photos")?.description == "https://photos.example/summer/manifest.json")
        let ported = remoteURL("http://[::1]:8080/g/")
        #expect(ported.resolving("a.jpg")?.description == "http://[::1]:8080/g/a.jpg")
        #expect(ported.resolving("//[::2]/a.jpg")?.description == "http://[::2]/a.jpg")
    }

    @Test func referencesFromDocumentsAreEncodedAsBrowsersDo() {
        let gallery = remoteURL("http://example.com/gallery/")
        #expect(gallery.resolving("Blick über.jpg")?.description == "http://example.com/gallery/Blick%20%C3%BCber.jpg")
        #expect(gallery.resolving("Blick%20%c3%bcber.jpg")?.description == "http://example.com/gallery/Blick%20%C3%BCber.jpg")
        #expect(gallery.resolving("./10:30%20sunset.jpg")?.description == "http://example.com/gallery/10:30%20sunset.jpg")
        #expect(gallery.resolving("  a.jpg ")?.description == "http://example.com/gallery/a.jpg")
        #expect(gallery.resolving("100%.jpg")?.description == "http://example.com/gallery/100%25.jpg")
        #expect(gallery.resolving("a b/c?x y")?.description == "http://example.com/gallery/a%20b/c?x%20y")
        // Encoded dots are dots: a listing cannot hide a way up behind them.
        #expect(gallery.resolving("%2e%2E/secret")?.description == "http://example.com/secret")
        #expect(gallery.resolving(".%2e/.%2E/x")?.description == "http://example.com/x")
        // An escaped slash is not a separator.
        #expect(gallery.resolving("..%2Fsecret")?.description == "http://example.com/gallery/..%2Fsecret")
    }

    /// The shortcut for plain relative paths gives what the general way gives, for references
    /// made of every kind of character that matters to it, against bases of every shape; and
    /// it takes the common case (else it would be dead code).
    @Test func thePlainPathShortcutAgreesWithTheGeneralWay() {
        let bases = ["http://a/b/c/d;p?q", "https://example.com/", "http://example.com:8080/gallery/manifest.json",
                     "http://[::1]:9000/x/y/", "https://h/g/index.html?page=2", "http://h"].map(remoteURL)
        let pieces = ["a", "B9", "-", "_", "~", ".", "..", "/", "//", ":", "@", "!", "$", "&", "'", "(", "*", "+", ",",
                      ";", "=", "%", "%2e", "%2E", "%41", "%20", "%2f", "%2F", "%C3%A9", "%c3", "%7E", "%G0", "%2", "?", "#", " ", "é", "\u{7}", "x.jpg", "g:h", "[", "\\", "\""]
        var generator = SystemRandomNumberGenerator()
        var shortcuts = 0
        for _ in 0..<20_000 {
            let reference = (0..<Int.random(in: 1...6, using: &generator))
                .map { _ in pieces.randomElement(using: &generator)! }.joined()
            for base in bases {
                let quick = base.resolvingPlainRelative(reference)
                if quick != nil { shortcuts += 1 }
                #expect(base.resolving(reference) == base.resolvingAnyReference(reference), "\(base) + \(reference)")
                if let quick, let slow = base.resolvingAnyReference(reference) {
                    #expect([quick.description, quick.host, quick.path, quick.origin, quick.pathAndQuery]
                            == [slow.description, slow.host, slow.path, slow.origin, slow.pathAndQuery], "\(base) + \(reference)")
                    #expect(quick.query == slow.query && quick.port == slow.port && quick.isSecure == slow.isSecure)
                }
            }
        }
        #expect(shortcuts > 1000)
        #expect(remoteURL("http://example.com/g/manifest.json").resolvingPlainRelative("originals/IMG%200001.jpg")?.description
                == "http://example.com/g/originals/IMG%200001.jpg")
    }

    @Test func containsOnlyWhatLiesBelowTheDirectory() {
        let gallery = remoteURL("http://example.com/gallery/index.html")
        #expect(gallery.contains(remoteURL("http://example.com/gallery/a.jpg")))
        #expect(gallery.contains(remoteURL("http://example.com/gallery/sub/")))
        #expect(!gallery.contains(remoteURL("http://example.com/gallery/")))
        #expect(!gallery.contains(remoteURL("http://example.com/")))
        #expect(!gallery.contains(remoteURL("http://example.com/gallery2/a.jpg")))
        #expect(!gallery.contains(remoteURL("https://example.com/gallery/a.jpg")))
        #expect(!gallery.contains(remoteURL("http://example.com:8080/gallery/a.jpg")))
        #expect(!gallery.contains(remoteURL("http://other.example/gallery/a.jpg")))
    }
}
