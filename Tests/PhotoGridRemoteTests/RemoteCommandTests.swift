import Foundation
import Testing
import PhotoGridCore
import PhotoGridTestSupport
import GalleryFormats
@testable import PhotoGridRemote

/// `--url` with something that is not an http URL: the message says what is wrong with it.
@Suite struct RemoteCommandTests {
    @Test func aURLThatIsRefusedSaysWhy() {
        let cases = [
            ("ftp://example.com/", "not an http or https URL"),
            ("file:///etc/passwd", "not an http or https URL"),
            ("/home/me/Pictures", "not an http or https URL"),
            ("example.com/gallery", "not an http or https URL (did you mean http://example.com/gallery?)"),
            ("http://", "not a valid URL (no host, or a malformed one)"),
            ("HTTPS://[::1", "not a valid URL (no host, or a malformed one)"),
            ("http://me:secret@example.com/g/", "photogrid sends no user name or password: leave them out of the URL"),
            ("http://example.com/my gallery/", "a URL cannot hold spaces or control characters (write a space as %20)"),
            ("http://example.com:99999/", "the port must be a number from 1 to 65535"),
            ("http://example.com:http/", "the port must be a number from 1 to 65535"),
            ("http://exa mple.com:80/", "a URL cannot hold spaces or control characters (write a space as %20)"),
            ("http://[::1]:0/", "not a valid URL (no host, or a malformed one)"),
        ]
        for (text, message) in cases {
            #expect(RemoteURL(text) == nil, "\(text) was taken")
            #expect(RemoteCommand.problem(with: text) == message)
        }
    }

    /// A reader that stops early (`| head`, a previewer that has enough) ends `--print` without a
    /// word on stderr, with the status a shell shows for a program SIGPIPE ended. Over `--url`,
    /// where NIO has SIGPIPE ignored, photogrid sees the broken pipe itself and used to say so.
    @Test func aReaderThatStopsEarlyEndsItQuietly() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let server = try GalleryServer(GalleryServer.Configuration(folder: fixture.folder, port: 0))
        try server.start()
        defer { server.stop() }
        let home = RemotePaths.scratch("broken-pipe")
        defer { try? FileManager.default.removeItem(atPath: home) }
        // Some hundreds of KB of sixel: more than a pipe holds, so photogrid is still writing
        // when `true`, which reads nothing, has gone.
        let script = "XDG_CACHE_HOME='\(home)' '\(RemotePaths.binary)' --print --mode sixel --size 240x67 --url '\(server.url)' "
            + "2>'\(home)/err' | true; echo ${PIPESTATUS[0]}"
        let result = try Subprocess.run(["/bin/bash", "-c", script])
        let said = (try? String(contentsOfFile: home + "/err", encoding: .utf8)) ?? "(no stderr file)"
        #expect(String(decoding: result.output, as: UTF8.self) == "141\n", "\(said)")
        #expect(said.isEmpty, "\(said)")
    }

    /// A remote photo is an address, not a path: the core never opens it as a file, and what the
    /// user is handed for it (`-o`, `o`, `y`) is the original's URL.
    @Test func remotePhotosAreAddressesTheirLoaderResolves() throws {
        let base = try #require(RemoteURL("http://127.0.0.1:9/gallery/"))
        let original = try #require(RemoteURL("http://127.0.0.1:9/gallery/a%20b.jpg"))
        let loaded = RemoteGalleryLoader.Loaded(title: "G", photos: [RemotePhoto(id: "a b.jpg", original: original, width: 40, height: 30)],
                                                others: [(name: "c.mp4", url: try #require(base.resolving("c.mp4")), format: .other("MP4 video"))])
        let http = Fetcher.forTests()
        defer { http.shutdown() }
        let source = RemoteCommand.source(loaded, fetcher: http)
        #expect(source.photos.map(\.source.description) == [original.description, "http://127.0.0.1:9/gallery/c.mp4"])
        #expect(source.photos.allSatisfy { $0.file == nil && $0.stamp == nil })
        #expect(source.photos[1].format.isVideo && source.photos[0].name == "a b.jpg")
        // A listing's video says what it is, as locally (Enter plays it from its URL).
        #expect(throws: DecodeError.unsupportedFormat("MP4 video")) {
            try source.loader.waitForLoad(source.photos[1], .picture(covering: 64)).get()
        }
        // The gallery's loader knows the address; the file loader refuses it without opening anything.
        #expect(source.infoReader.info(of: source.photos[0])?.width == 40)
        #expect(throws: DecodeError.unreadable("not a file: " + original.description)) {
            try FileLoader().waitForLoad(source.photos[0], .picture(covering: 64)).get()
        }
    }
}
