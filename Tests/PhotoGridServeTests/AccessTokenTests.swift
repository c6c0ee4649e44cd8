import Foundation
import Testing
@testable import PhotoGridServe
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// A gallery served beyond loopback: every request's path carries the access token, wrong ones
/// get 401, later and later; `--url` needs nothing but the printed URL.
@Suite(.startsPrograms) struct AccessTokenTests {
    static let token = "k3y-for-the-tests_0123456789"

    @Test func onlyRequestsWithTheTokenAreAnswered() throws {
        try BlockingServedGallery.with({ $0.token = Self.token }) { _, server, port in
            #expect(server.url == "http://127.0.0.1:\(port)/t/\(Self.token)/")
            let prefix = "/t/\(Self.token)"
            for path in ["/", "/manifest.json", "/originals/" + GalleryFixture.rotated, "/renditions/" + GalleryFixture.rotated + "/256.jpg"] {
                let denied = try RawHTTP.get(port: port, path)
                #expect(denied.status == 401, "\(path)")
                // Nothing of the gallery in the refusal.
                #expect(!String(decoding: denied.body, as: UTF8.self).contains("hills"), "\(path)")
                #expect(try RawHTTP.get(port: port, prefix + path).status == 200, "\(prefix + path)")
            }
            #expect(try RawHTTP.get(port: port, prefix).status == 200)
            // Near misses: one character off, a prefix of it, the token longer, another segment.
            for wrong in [String(Self.token.dropLast()) + "1", String(Self.token.dropLast()), Self.token + "0", "x"] {
                #expect(try RawHTTP.get(port: port, "/t/\(wrong)/manifest.json").status == 401, "\(wrong)")
            }
        }
    }

    @Test func wrongTokensAreAnsweredLaterAndLater() throws {
        try BlockingServedGallery.with({ $0.token = Self.token }) { (_: GalleryFixture, _: GalleryServer, port: Int) throws -> Void in
            var times: [Double] = []
            for _ in 0..<3 {
                let start = SystemClock().seconds()
                #expect(try RawHTTP.get(port: port, "/t/wrong-token-0000000/").status == 401)
                times.append(SystemClock().seconds() - start)
            }
            #expect(times[0] >= 0.24 && times[1] >= 0.49 && times[2] >= 0.74, "\(times)")
            // The right token is not slowed by them: well under the 1 s a fourth failure would wait
            // (not a tighter bound, which a busy machine would break).
            let start = SystemClock().seconds()
            #expect(try RawHTTP.get(port: port, "/t/\(Self.token)/").status == 200)
            #expect(SystemClock().seconds() - start < 0.9)
        }
    }

    /// The client needs nothing but the URL serve prints: relative URLs keep the token.
    @Test func urlBrowsesAGalleryWithAToken() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        var configuration = GalleryServer.Configuration(folder: fixture.folder, port: 0)
        configuration.token = Self.token
        let server = try GalleryServer(configuration)
        try server.start()
        defer { server.stop() }
        let home = RemotePaths.scratch("token-client")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let result = try RemotePaths.print(RemotePaths.frame + ["--url", server.url], cacheHome: home)
        #expect(result.status == 0, "\(result.errorText)")
        // The same frame as from the same folder served without a token.
        #expect(RemotePaths.samePictures(TerminalOutput.sixels(result.output),
                                         try RemotePaths.openlyServedSixels(fixture.folder, frame: RemotePaths.frame)))
        #expect(server.requestsByPath.keys.allSatisfy { $0.hasPrefix("/t/\(Self.token)") }, "\(server.requestsByPath.keys)")
    }

    /// `photogrid serve --host 0.0.0.0` makes a token up and prints it inside the URL; a bad
    /// `--token` is refused with the rule.
    @Test func serveMakesATokenForAnyAddressButLoopback() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let port = Subprocess.freePort()
        let serve = try Subprocess.start([RemotePaths.binary, "serve", fixture.folder, "--host", "0.0.0.0", "--port", "\(port)"])
        defer { Subprocess.stop(serve) }
        #expect(Subprocess.waitForPort(port))
        #expect(try RawHTTP.get(port: port, "/manifest.json").status == 401)
        let bad = try Subprocess.run([RemotePaths.binary, "serve", fixture.folder, "--token", "short"])
        #expect(bad.status != 0 && bad.errorText.contains("16 to 128 letters"), "\(bad.errorText)")
        #expect(GalleryServer.newToken().count == 32 && GalleryServer.newToken() != GalleryServer.newToken())
        #expect(AccessToken.isAcceptable(GalleryServer.newToken()))
        #expect(!AccessToken.isAcceptable("with/slash-0123456789") && !AccessToken.isAcceptable("x"))
        // --log writes no token, nor a guess at one.
        #expect(ServedConnection.logged("/t/\(Self.token)/renditions/a.jpg/256.jpg") == "/t/***/renditions/a.jpg/256.jpg")
        #expect(ServedConnection.logged("/t/guess") == "/t/***" && ServedConnection.logged("/a\u{1B}b") == "/a?b")
        #expect(AccessToken.equalInConstantTime(Array("abc".utf8), Array("abc".utf8)))
        #expect(!AccessToken.equalInConstantTime(Array("ab".utf8), Array("abc".utf8)))
        #expect(!AccessToken.equalInConstantTime(Array("abcd".utf8), Array("abc".utf8)))
        #expect(!AccessToken.equalInConstantTime(Array("abd".utf8), Array("abc".utf8)))
    }
}
