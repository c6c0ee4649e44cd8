import Testing
@testable import GalleryFormats

@Suite struct RemoteURLTests {
    @Test(arguments: [
        ("http://example.com", "http://example.com/"),
        ("HTTP://Example.COM/Path/To", "http://example.com/Path/To"),
        ("https://example.com:443/a", "https://example.com/a"),
        ("http://example.com:80/a", "http://example.com/a"),
        ("http://example.com:443/a", "http://example.com:443/a"),
        ("http://example.com:/a", "http://example.com/a"),
        ("http://example.com:8080/a?b=c&d#frag", "http://example.com:8080/a?b=c&d"),
        ("http://example.com?q", "http://example.com/?q"),
        ("http://example.com/?", "http://example.com/?"),
        ("http://example.com#top", "http://example.com/"),
        ("http://127.0.0.1:65535", "http://127.0.0.1:65535/"),
        ("http://localhost:1/", "http://localhost:1/"),
        ("http://my_host.example~x/", "http://my_host.example~x/"),
        ("https://[::1]:8443/x", "https://[::1]:8443/x"),
        ("http://[2001:DB8::1]/", "http://[2001:db8::1]/"),
        ("http://[::ffff:192.0.2.1]/", "http://[::ffff:192.0.2.1]/"),
        ("http://[1:2:3:4:5:6:7:8]/", "http://[1:2:3:4:5:6:7:8]/"),
        ("http://[::]/", "http://[::]/"),
        ("http://example.com/a/./b/../c", "http://example.com/a/c"),
        ("http://example.com/../../x", "http://example.com/x"),
        ("http://example.com/a/..", "http://example.com/"),
        ("http://example.com/a//b/", "http://example.com/a//b/"),
        // Escapes: upper case, unreserved ones decoded (then dot segments go), reserved ones kept.
        ("http://example.com/%7euser/%2e%2E/x%2fy%3a", "http://example.com/x%2Fy%3A"),
        ("http://example.com/caf%c3%a9?q=%41%2b", "http://example.com/caf%C3%A9?q=A%2B"),
        // What may not stand raw is encoded, as browsers do.
        ("http://example.com/夕焼け.jpg", "http://example.com/%E5%A4%95%E7%84%BC%E3%81%91.jpg"),
        ("http://example.com/100%/%zz/%4", "http://example.com/100%25/%25zz/%254"),
        ("http://example.com/a\"b<c>{d}|e\\f^g`h[i]", "http://example.com/a%22b%3Cc%3E%7Bd%7D%7Ce%5Cf%5Eg%60h%5Bi%5D"),
        ("http://example.com/;p=1,2!$&'()*+:@", "http://example.com/;p=1,2!$&'()*+:@"),
        ("http://example.com/?a/b?c", "http://example.com/?a/b?c"),
    ])
    func parsesToTheNormalForm(input: String, expected: String) throws {
        let url = try #require(RemoteURL(input))
        #expect(url.description == expected)
        // The normal form is a fixed point.
        #expect(RemoteURL(url.description) == url)
    }

    @Test(arguments: [
        "", "example.com", "//example.com/", "/a/b",
        "ftp://example.com/", "file:///etc/passwd", "javascript:alert(1)", "data:image/jpeg;base64,AAAA", "mailto:a@b.c",
        "http:/example.com", "http:example.com", "http://", "http:///x", "http://:80/",
        "http://user@example.com/", "http://user:password@example.com/", "http://@example.com/",
        "http://example.com:0/", "http://example.com:65536/", "http://example.com:123456/", "http://example.com:8o/",
        "http://example.com:-1/", "http://example.com:80:80/",
        "http://exa mple.com/", "http://example.com/a b.jpg", " http://example.com/", "http://example.com/ ",
        "http://example.com/\t", "http://example.com/\u{7F}", "http://example.com/a\nb",
        "http://bücher.example/", "http://exa%41mple.com/", "http://example.com!/",
        "http://[::1/", "http://[::1]x/", "http://[1:2:3:4:5:6:7:8:9]/", "http://[1:2:3:4:5:6:7]/", "http://[::1::2]/",
        "http://[:::1]/", "http://[12345::]/", "http://[fe80::1%25eth0]/", "http://[v1.x]/", "http://[::256.0.0.1]/",
        "http://[]/", "http://::1/",
    ])
    func refuses(input: String) {
        #expect(RemoteURL(input) == nil)
    }

    @Test func givesItsParts() throws {
        let url = try #require(RemoteURL("HTTPS://Photos.Example:8443/summer%202024/Alps/lake%2001.jpg?size=256"))
        #expect(url.scheme == .https)
        #expect(url.isSecure)
        #expect(url.host == "photos.example")
        #expect(url.port == 8443)
        #expect(url.effectivePort == 8443)
        #expect(url.path == "/summer%202024/Alps/lake%2001.jpg")
        #expect(url.query == "size=256")
        #expect(url.origin == "https://photos.example:8443")
        #expect(url.pathAndQuery == "/summer%202024/Alps/lake%2001.jpg?size=256")
        #expect(url.pathSegments == ["summer 2024", "Alps", "lake 01.jpg"])
        #expect(url.lastPathSegment == "lake 01.jpg")
        #expect(!url.hasDirectoryPath)

        let folder = try #require(RemoteURL("http://[::1]/a/b%2Fc/"))
        #expect(folder.scheme == .http && !folder.isSecure)
        #expect(folder.host == "[::1]")
        #expect(folder.port == nil)
        #expect(folder.effectivePort == 80)
        #expect(folder.query == nil)
        #expect(folder.pathSegments == ["a", "b/c"])
        #expect(folder.lastPathSegment == "b/c")
        #expect(folder.hasDirectoryPath)

        let root = try #require(RemoteURL("https://example.com"))
        #expect(root.effectivePort == 443)
        #expect(root.pathSegments == [])
        #expect(root.lastPathSegment == "")
        #expect(root.hasDirectoryPath)
        #expect(RemoteURL("http://example.com/a//b")?.pathSegments == ["a", "", "b"])
    }

    @Test func equalityAndHashingFollowTheNormalForm() throws {
        let a = try #require(RemoteURL("HTTP://EXAMPLE.com:80/%7Ex/./y#f"))
        let b = try #require(RemoteURL("http://example.com/~x/y"))
        #expect(a == b)
        #expect(Set([a, b]).count == 1)
        #expect(RemoteURL("http://example.com/a") != RemoteURL("https://example.com/a"))
        #expect(RemoteURL("http://example.com/a") != RemoteURL("http://example.com/A"))
        // Reserved characters are not equivalent to their escapes (RFC 3986 section 6.2.2.2).
        #expect(RemoteURL("http://example.com/a&b") != RemoteURL("http://example.com/a%26b"))
    }

    @Test func encodesPathSegments() {
        #expect(RemoteURL.percentEncode(pathSegment: "Blick über.jpg") == "Blick%20%C3%BCber.jpg")
        #expect(RemoteURL.percentEncode(pathSegment: "夕焼け.jpg") == "%E5%A4%95%E7%84%BC%E3%81%91.jpg")
        #expect(RemoteURL.percentEncode(pathSegment: "a/b?c#d%e&f:g") == "a%2Fb%3Fc%23d%25e%26f%3Ag")
        #expect(RemoteURL.percentEncode(pathSegment: "AZaz09-._~") == "AZaz09-._~")
        #expect(RemoteURL.percentEncode(path: "alps/lake 01") == "alps/lake%2001")
        #expect(RemoteURL.percentEncode(path: "/a//b/") == "/a//b/")
        #expect(RemoteURL.relativePath(segments: ["10:30 sunset.jpg"]) == "10%3A30%20sunset.jpg")
        #expect(RemoteURL.relativePath(segments: ["sub folder", "x"], directory: true) == "sub%20folder/x/")
        // A name with ":" stays a relative reference, not a scheme.
        let base = remoteURL("http://example.com/gallery/")
        #expect(base.resolving(RemoteURL.relativePath(segments: ["10:30 sunset.jpg"]))?.description
            == "http://example.com/gallery/10%3A30%20sunset.jpg")
    }

    @Test func decodingRoundTripsAndSurvivesBadEscapes() {
        let names = ["Blick über.jpg", "夕焼け.jpg", "Fish & Chips.jpg", "100% crop.jpg", "a+b", "😀 🇩🇪", "",
                     String((1...127).map { Character(Unicode.Scalar(UInt8($0))) })]
        for name in names {
            #expect(RemoteURL.percentDecoded(RemoteURL.percentEncode(pathSegment: name)) == name)
            // Through a URL too: encoded, normalised, split and decoded again.
            guard !name.isEmpty else { continue }
            let url = remoteURL("http://example.com/d/").resolving(RemoteURL.percentEncode(pathSegment: name) + "/x")
            #expect(url?.pathSegments == ["d", name, "x"])
        }
        #expect(RemoteURL.percentDecoded("a%20b%2fc") == "a b/c")
        #expect(RemoteURL.percentDecoded("100%") == "100%")
        #expect(RemoteURL.percentDecoded("%zz%4%") == "%zz%4%")
        #expect(RemoteURL.percentDecoded("%4G%41") == "%4GA")
        #expect(RemoteURL.percentDecoded("a+b") == "a+b")
        // Bytes that are not UTF-8 become U+FFFD rather than failing.
        #expect(RemoteURL.percentDecoded("%C3") == "\u{FFFD}")
        #expect(RemoteURL.percentDecoded("%FF%FEx") == "\u{FFFD}\u{FFFD}x")
        #expect(RemoteURL.percentDecoded("%E5%A4%95%E7%84%BC%E3%81%91") == "夕焼け")
    }
}
