import Testing
@testable import GalleryFormats

/// HTML indexes beyond the fixtures: the link syntax HTML allows, the links a listing must not
/// follow, and the pages that are not listings.
@Suite struct HTMLListingTests {
    private let base = remoteURL("https://example.com/photos/")

    private func listing(_ html: String, url: RemoteURL? = nil, contentType: String? = "text/html") -> DirectoryListing? {
        DirectoryListing.parse(Array(html.utf8), url: url ?? base, contentType: contentType)
    }

    private func names(_ html: String, url: RemoteURL? = nil) -> [String] {
        guard let listing = listing(html, url: url) else { return ["(not a listing)"] }
        return listing.files.map(\.name) + listing.folders.map { $0.name + "/" }
    }

    @Test func readsHrefsInEveryQuotingAndCase() {
        let html = """
        <a href="double.jpg">1</a> <a href='single.jpg'>2</a> <a href=bare.jpg>3</a> <A HREF = "upper.jpg">4</A>
        <a class="x" href="&#x41;&#66;&amp;&quot;.jpg" title='>'>5</a> <a\nhref="\n  spaced.jpg  ">6</a>
        <a href="sub%20dir/">7</a> <a href=a.jpg/>8</a> <a title="href=no.jpg">9</a> <a href="first.jpg" href="second.jpg">10</a>
        <a href="unknown&copy;.jpg">11</a> <a href="&#0;&#xD800;.jpg">12</a>
        """
        // An unquoted value runs to the space or ">", so `href=a.jpg/>` is the folder "a.jpg/", as in browsers.
        #expect(names(html) == ["double.jpg", "single.jpg", "bare.jpg", "upper.jpg", "AB&\".jpg", "spaced.jpg",
                                "first.jpg", "unknown&copy;.jpg", "\u{FFFD}\u{FFFD}.jpg", "sub dir/", "a.jpg/"])
    }

    /// A site's front page and a blog post link below their folder too, but are titled for their
    /// site: not listings. Every server's listing is titled for its folder (issue 36).
    @Test func aPageTitledForItsSiteIsNoListing() {
        let front = #"<html><head><title>Anna's photo blog</title></head><body><h1>Welcome</h1><a href="about/">About</a> <a href="2024/trip.jpg">Trip</a></body></html>"#
        #expect(names(front) == ["(not a listing)"])
        // Caddy's browse page (the folder's name), rclone's (its path), lighttpd's and Apache's.
        #expect(names(#"<title>photos</title><h1><a href="../">/</a><a href="">photos</a>/</h1><a href="a.jpg">a.jpg</a>"#) == ["a.jpg"])
        #expect(names(#"<title>/photos</title><a href="a.jpg">a.jpg</a>"#) == ["a.jpg"])
        #expect(names(#"<title>Index of /photos/</title><a href="a.jpg">a.jpg</a>"#) == ["a.jpg"])
        // A bare list of links, with neither title nor heading: a listing made by a script.
        #expect(names(#"<a href="a.jpg">a.jpg</a>"#) == ["a.jpg"])
    }

    @Test func keepsOnlyLinksBelowTheDirectory() {
        let html = """
        <a href="../">up</a> <a href="./">self</a> <a href="">self</a> <a href="/photos/">self</a> <a href="/">root</a>
        <a href="?C=N;O=D">sort</a> <a href="a.jpg?download">query</a> <a href="#top">fragment</a>
        <a href="https://other.example/photos/x.jpg">other host</a> <a href="http://example.com/photos/x.jpg">other scheme</a>
        <a href="https://example.com:8443/photos/x.jpg">other port</a> <a href="/photos2/x.jpg">sibling</a>
        <a href="javascript:alert(1)">js</a> <a href="mailto:a@example.com">mail</a> <a href="data:image/jpeg;base64,AA">data</a>
        <a href="../photos/kept.jpg">back in</a> <a href="/photos/abs.jpg">absolute</a> <a href="//example.com/photos/net.jpg">net</a>
        <a href="%2e%2e/escaped-up.jpg">escaped up</a> <a href="deeper/x.jpg">deeper</a> <a href="kept.jpg#frag">repeat</a>
        """
        #expect(names(html) == ["kept.jpg", "abs.jpg", "net.jpg", "deeper/x.jpg"])
        #expect(listing(html)?.files.map(\.url.description) == ["https://example.com/photos/kept.jpg", "https://example.com/photos/abs.jpg",
                                                                "https://example.com/photos/net.jpg", "https://example.com/photos/deeper/x.jpg"])
    }

    @Test func aURLWithoutTheSlashListsItsParent() {
        // Servers redirect /photos to /photos/; given the URL before that, links resolve as a browser would.
        #expect(names(#"<a href="a.jpg">a</a> <a href="photos/b.jpg">b</a>"#, url: remoteURL("https://example.com/photos")) == ["a.jpg", "photos/b.jpg"])
        #expect(listing(#"<a href="a.jpg">a</a>"#, url: remoteURL("https://example.com/photos"))?.files[0].url.description
            == "https://example.com/a.jpg")
    }

    @Test func commentsScriptsAndStylesHoldNoLinks() {
        let html = """
        <!-- <a href="commented.jpg"> --><script>var s = '<a href="script.jpg">';</script><STYLE>a[href="style.jpg"]{}</STYLE>
        <p>1 < 2 and <b>bold</b></p><a href="real.jpg">real</a><!-- unterminated <a href="never.jpg">
        """
        #expect(names(html) == ["real.jpg"])
    }

    @Test func tellsListingsFromOtherPages() {
        // Links nowhere below, and no index title: a page, not an empty folder.
        #expect(listing(#"<html><title>Welcome</title><a href="/about">About</a><a href="https://x.example/">x</a></html>"#) == nil)
        #expect(listing("<html><body><h1>404 Not Found</h1></body></html>") == nil)
        #expect(listing("<html><head><title>Index of /photos/</title></head><body><a href=\"../\">../</a></body></html>") != nil)
        #expect(listing("<h1>Index of /photos</h1>") != nil)
        // Content types that are not HTML are not read; without one, the body must look like HTML.
        #expect(listing(#"<a href="a.jpg">a</a>"#, contentType: "image/jpeg") == nil)
        #expect(listing(#"<a href="a.jpg">a</a>"#, contentType: "text/plain") == nil)
        #expect(listing(#"<a href="a.jpg">a</a>"#, contentType: "application/xhtml+xml") != nil)
        #expect(listing(#"<a href="a.jpg">a</a>"#, contentType: nil) != nil)
        #expect(listing(#"a.jpg <a href="a.jpg">a</a>"#, contentType: nil) == nil)
        #expect(listing("", contentType: nil) == nil)
        // JSON that is not nginx's listing.
        #expect(listing(#"[1, 2]"#, contentType: nil) == nil)
        #expect(listing(#"[{"name": "a.jpg"}]"#, contentType: nil) == nil)
        #expect(listing(#"{"name": "a.jpg", "type": "file"}"#, contentType: "application/json") == nil)
        #expect(listing(#"[{"name": "a.jpg", "type": "file"},"#, contentType: nil) == nil)
    }

    @Test func nginxJSONSkipsNamesNoFileCanHave() {
        let json = """
        [{"name": "ok.jpg", "type": "file"}, {"name": "..", "type": "directory"}, {"name": ".", "type": "directory"},
         {"name": "", "type": "file"}, {"name": "a/b.jpg", "type": "file"}, {"name": "sock", "type": "other"},
         {"name": "caf\\u00e9 #1?.jpg", "type": "file", "size": 3}, {"name": "d", "type": "directory", "mtime": "x"}]
        """
        let listing = DirectoryListing.parse(Array(json.utf8), url: base, contentType: "application/json")
        #expect(listing?.files.map(\.name) == ["ok.jpg", "café #1?.jpg"])
        #expect(listing?.files.map(\.url.description) == ["https://example.com/photos/ok.jpg", "https://example.com/photos/caf%C3%A9%20%231%3F.jpg"])
        #expect(listing?.folders.map(\.url.description) == ["https://example.com/photos/d/"])
    }

    @Test func aLargeListingIsLinear() {
        var html = "<html><title>Index of /photos/</title><pre>"
        for n in 0..<50_000 { html += "<a href=\"IMG_\(n).jpg\">IMG_\(n).jpg</a>   14-Jul-2024 19:42   3456789\n" }
        let clock = ContinuousClock()
        let start = clock.now
        let listing = listing(html + "</pre>")
        print("listing: 50,000 links, \(html.utf8.count / 1_000_000) MB of HTML in \(clock.now - start) (debug build)")
        #expect(listing?.files.count == 50_000)
        #expect(listing?.files.last?.name == "IMG_49999.jpg")
    }
}
