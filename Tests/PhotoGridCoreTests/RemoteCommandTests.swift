import Foundation
import Testing
@testable import GalleryFormats
@testable import PhotoGridCore
@testable import PhotoGridLoading
@testable import PhotoGridModel
@testable import PhotoGridServe
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `--url` with something that is not an http URL: the message says what is wrong with it.
@Suite struct RemoteCommandTests {
    @Test func aURLThatIsRefusedSaysWhy() {
        let cases = [
            ("ftp://example.com/", "not an http, https, sftp or s3 URL"),
            ("file:///etc/passwd", "not an http, https, sftp or s3 URL"),
            ("/home/me/Pictures", "not an http, https, sftp or s3 URL"),
            ("example.com/gallery", "not an http, https, sftp or s3 URL (did you mean http://example.com/gallery?)"),
            ("http://", "not a valid URL (no host, or a malformed one)"),
            ("HTTPS://[::1", "not a valid URL (no host, or a malformed one)"),
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

    /// A login typed in the URL is taken out before the URL is used: the name and password go to
    /// the transfers, the URL without them is what is asked, cached and said.
    @Test func aLoginInTheURLIsTakenOut() throws {
        let typed = RemoteURL.splittingLogin("https://anna:p%40ss:w@rd@nas.local:5006/photos/?x=1")
        #expect(typed == RemoteURL.TypedLogin(url: "https://nas.local:5006/photos/?x=1", user: "anna", password: "p@ss:w@rd"))
        #expect(RemoteURL.splittingLogin("sftp://anna@nas/home/anna/") == RemoteURL.TypedLogin(url: "sftp://nas/home/anna/", user: "anna"))
        #expect(RemoteURL.splittingLogin("http://nas/a@b/") == RemoteURL.TypedLogin(url: "http://nas/a@b/"))
        #expect(RemoteURL.splittingLogin("nas/photos") == RemoteURL.TypedLogin(url: "nas/photos"))
        let login = try RemoteCommand.login(RemoteURL.splittingLogin("http://me:secret@example.com/g/"), user: nil,
                                            for: try #require(RemoteURL("http://example.com/g/")))
        #expect(login?.user == "me" && login?.password == "secret" && "\(String(describing: login))".contains("secret") == false)
        // A name alone for SFTP: the keys log in.
        let ssh = try RemoteCommand.login(RemoteURL.splittingLogin("sftp://me@example.com/g/"), user: nil,
                                          for: try #require(RemoteURL("sftp://example.com/g/")))
        #expect(ssh?.user == "me" && ssh?.password == nil)
    }

    /// A reader that stops early (`| head`, a previewer that has enough) ends `--print` without a
    /// word on stderr, with the status a shell shows for a program SIGPIPE ended. Over `--url`,
    /// where NIO has SIGPIPE ignored, photogrid sees the broken pipe itself and used to say so.
    @Test(.startsPrograms) func aReaderThatStopsEarlyEndsItQuietly() throws {
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

    /// `--print` of a tree prints from its first photos as they settle, as the grid starts (issue
    /// 53: a tree of 491 folders was printed in the time of its whole crawl, 2.9 s). A folder
    /// after the first screen that answers late holds nothing back; what it leaves out is said on
    /// stderr once it has answered, and only then does photogrid exit.
    @Test(.startsPrograms) func printingATreeWaitsForItsFirstScreenOnly() throws {
        let photos = try FileManager.default.subpathsOfDirectory(atPath: RemotePaths.gallery).filter { $0.hasSuffix(".jpg") }.sorted()
        let names = photos.indices.map { String(format: "p%02d.jpg", $0) }
        let lateAsked = Locked<Date?>(nil)
        @Sendable func page(_ links: [String]) -> TestServer.Behavior {
            .respond(status: 200, headers: [("Content-Type", "text/html")],
                     body: Array(("<html><title>Index of /</title>" + links.map { "<a href=\"\($0)\">\($0)</a>" }.joined() + "</html>").utf8))
        }
        let server = try TestServer { request in
            switch request.path {
            case "/": return page(["a/", "z/"])
            case "/a/": return page(names)
            case "/z/":
                lateAsked.withLock { $0 = Date() }
                return .slow(milliseconds: 4000, .respond(status: 403, headers: [], body: []))
            default:
                guard let index = names.firstIndex(of: String(request.path.dropFirst(3))),
                      let bytes = FileManager.default.contents(atPath: RemotePaths.gallery + "/" + photos[index]) else {
                    return .respond(status: 404, headers: [], body: [])
                }
                return .respond(status: 200, headers: [("Content-Type", "image/jpeg")], body: Array(bytes))
            }
        }
        defer { server.stop() }
        let home = RemotePaths.scratch("print-tree")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let started = Date()
        // 4 columns of 100x30 half-blocks: 12 tiles on the first screen, 24 photos settled start it.
        let result = try RemotePaths.print(["--mode", "halfblock", "--size", "100x30", "--columns", "4", "--url", server.url], cacheHome: home)
        let asked = try #require(lateAsked.withLock { $0 }, "z/ was never asked for")
        let answered = asked.timeIntervalSince(started) + 4
        #expect(result.status == 0, "\(result.errorText)")
        #expect(result.outputSeconds < answered - 1, "the frame came \(result.outputSeconds) s after the start, z/ answered at \(answered) s")
        #expect(result.seconds >= answered - 0.1, "exited at \(result.seconds) s, before z/ answered (\(answered) s)")
        #expect(result.errorText.contains("left out") && result.errorText.contains("z"), "\(result.errorText)")
        #expect(String(decoding: result.output, as: UTF8.self).contains("▀"), "no picture in the frame")
    }

    /// A remote photo is an address, not a path: the core never opens it as a file, and what the
    /// user is handed for it (`-o`, `o`, `y`) is the original's URL.
    @Test func remotePhotosAreAddressesTheirLoaderResolves() throws {
        let base = try #require(RemoteURL("http://127.0.0.1:9/gallery/"))
        let original = try #require(RemoteURL("http://127.0.0.1:9/gallery/a%20b.jpg"))
        let loaded = RemoteGalleryLoader.Loaded(title: "G", photos: [RemotePhoto(id: "a b.jpg", original: original, width: 40, height: 30)],
                                                others: [(name: "c.mp4", url: try #require(base.resolving("c.mp4")), format: .video("MP4 video"))])
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
