import Foundation
import Glibc
import Testing
@testable import GalleryFormats
@testable import PhotoGridLoading
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// WebDAV shares (issue 36): a folder whose GET gives no listing is asked with PROPFIND, and its
/// tree is read the same way, with the same byte ranges and logins.
@Suite(.serialized) struct WebDAVTests {
    /// Nextcloud's way: `d:` prefixes, full URLs, an escaped name and an entity.
    @Test func aMultistatusIsReadWhateverItsPrefixes() throws {
        let base = try #require(RemoteURL("https://cloud.example/remote.php/dav/files/anna/Photos/"))
        let body = Array("""
            <?xml version="1.0"?>
            <d:multistatus xmlns:d="DAV:" xmlns:oc="http://owncloud.org/ns">
             <d:response><d:href>/remote.php/dav/files/anna/Photos/</d:href>
              <d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop></d:propstat></d:response>
             <d:response><d:href>https://cloud.example/remote.php/dav/files/anna/Photos/2024%20Trip/</d:href>
              <d:propstat><d:prop><d:resourcetype><d:collection/></d:resourcetype></d:prop></d:propstat></d:response>
             <d:response><d:href>/remote.php/dav/files/anna/Photos/caf%C3%A9%20%26%20co.jpg</d:href>
              <d:propstat><d:prop><d:resourcetype/></d:prop></d:propstat></d:response>
             <d:response><d:href>/remote.php/dav/files/anna/Photos/a&amp;b.jpg</d:href>
              <d:propstat><d:prop><d:resourcetype/></d:prop></d:propstat></d:response>
             <d:response><d:href>/elsewhere/x.jpg</d:href><d:propstat><d:prop><d:resourcetype/></d:prop></d:propstat></d:response>
            </d:multistatus>
            """.utf8)
        let listing = try #require(DirectoryListing.webDAV(body, url: base))
        #expect(listing.folders.map(\.name) == ["2024 Trip"])
        #expect(listing.folders.first?.url.description == "https://cloud.example/remote.php/dav/files/anna/Photos/2024%20Trip/")
        #expect(listing.files.map(\.name) == ["café & co.jpg", "a&b.jpg"])
        #expect(DirectoryListing.webDAV(Array("<html><body>no</body></html>".utf8), url: base) == nil)
    }

    static func makeShare() throws -> String {
        let root = RemotePaths.scratch("dav-share")
        let files = FileManager.default
        try files.createDirectory(atPath: root + "/2024/trip", withIntermediateDirectories: true)
        try files.copyItem(atPath: RemotePaths.gallery + "/travel/beach-01.jpg", toPath: root + "/beach-01.jpg")
        try files.copyItem(atPath: RemotePaths.gallery + "/travel/beach-02.jpg", toPath: root + "/2024/trip/café & #1.jpg")
        try files.copyItem(atPath: RemotePaths.gallery + "/travel/sunset-04.jpg", toPath: root + "/2024/trip/sunset.jpg")
        _ = try Subprocess.run(["chmod", "-R", "a+rX", root])
        return root
    }

    static let expected = "beach-01.jpg", deep = "café & #1.jpg"

    /// Apache's mod_dav with no listing on GET (404 for the folder): every photo, through PROPFIND.
    @Test(.startsPrograms, .enabled(if: Apache.path != nil, "apache2 is not installed (scripts/setup --test installs it)"))
    func apacheModDav() throws {
        let root = try Self.makeShare()
        defer { try? FileManager.default.removeItem(atPath: root) }
        try Apache.sharing(root, extra: "Require all granted") { port in
            let http = Fetcher.forTests()
            defer { http.shutdown() }
            let loaded = try RemoteGalleryLoader(fetcher: http).load(try #require(RemoteURL("http://127.0.0.1:\(port)/")))
            #expect(loaded.photos.map(\.id) == ["beach-01.jpg", "2024/trip/café & #1.jpg", "2024/trip/sunset.jpg"])
            let home = RemotePaths.scratch("dav-client")
            defer { try? FileManager.default.removeItem(atPath: home) }
            let printed = try RemotePaths.print(RemotePaths.frame + ["--url", "http://127.0.0.1:\(port)/"], cacheHome: home)
            #expect(printed.status == 0 && String(decoding: printed.output, as: UTF8.self).contains("sunset.jpg"), "\(printed.errorText)")
        }
    }

    /// The same share behind a digest login (mod_auth_digest), from ~/.netrc.
    @Test(.startsPrograms, .enabled(if: Apache.path != nil, "apache2 is not installed (scripts/setup --test installs it)"))
    func apacheWithADigestLogin() throws {
        let root = try Self.makeShare()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let secrets = RemotePaths.scratch("dav-secrets")
        defer { try? FileManager.default.removeItem(atPath: secrets) }
        // htdigest's line: user:realm:md5(user:realm:password).
        let digest = try Subprocess.run(["/bin/sh", "-c", "printf 'anna:Photos:pw-9' | md5sum | cut -d' ' -f1"]).output
        try "anna:Photos:\(String(decoding: digest, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))\n"
            .write(toFile: secrets + "/htdigest", atomically: true, encoding: .utf8)
        try "machine 127.0.0.1 login anna password pw-9\n".write(toFile: secrets + "/netrc", atomically: true, encoding: .utf8)
        _ = try Subprocess.run(["chmod", "-R", "a+rX", secrets])
        let login = "AuthType Digest\nAuthName \"Photos\"\nAuthDigestProvider file\nAuthUserFile \(secrets)/htdigest\nRequire valid-user"
        try Apache.sharing(root, extra: login, loading: ["auth_digest", "authn_core", "authn_file", "authz_user"]) { port in
            let home = RemotePaths.scratch("dav-digest-client")
            defer { try? FileManager.default.removeItem(atPath: home) }
            let refused = try RemotePaths.print(RemotePaths.frame + ["--url", "http://127.0.0.1:\(port)/"], cacheHome: home,
                                                environment: ["NETRC": secrets + "/none"])
            #expect(refused.status != 0 && refused.errorText.contains("Photos"), "\(refused.errorText)")
            let printed = try RemotePaths.print(RemotePaths.frame + ["--url", "http://127.0.0.1:\(port)/"], cacheHome: home,
                                                environment: ["NETRC": secrets + "/netrc"])
            #expect(printed.status == 0 && String(decoding: printed.output, as: UTF8.self).contains("sunset.jpg"), "\(printed.errorText)")
        }
    }

    static let rclone: String? = ["/usr/bin/rclone", "/usr/local/bin/rclone"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// `rclone serve webdav`: every photo of the tree.
    @Test(.startsPrograms, .enabled(if: rclone != nil, "rclone is not installed (scripts/setup --test installs it)"))
    func rcloneServeWebDAV() throws {
        let root = try Self.makeShare()
        defer { try? FileManager.default.removeItem(atPath: root) }
        let port = Subprocess.freePort()
        let server = try Subprocess.start([Self.rclone!, "serve", "webdav", root, "--addr", "127.0.0.1:\(port)", "--config", "/dev/null"])
        defer { Subprocess.stop(server) }
        #expect(Subprocess.waitForPort(port))
        let http = Fetcher.forTests()
        defer { http.shutdown() }
        let loaded = try RemoteGalleryLoader(fetcher: http).load(try #require(RemoteURL("http://127.0.0.1:\(port)/")))
        #expect(loaded.photos.map(\.id) == ["beach-01.jpg", "2024/trip/café & #1.jpg", "2024/trip/sunset.jpg"])
    }
}
