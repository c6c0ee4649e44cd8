import Foundation
import Glibc
import Testing
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// A share that wants a login (nginx's auth_basic): refused with the server's words without
/// one, shown with one from ~/.netrc or the URL, and the password never written anywhere.
@Suite(.startsPrograms, .serialized) struct LoginTests {
    static let openssl = ["/usr/bin/openssl", "/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    @Test(.enabled(if: Nginx.path != nil && openssl != nil, "nginx or openssl is not installed (scripts/setup --test installs them)"))
    func aShareBehindALoginIsShownWithNetrcOrTheURLsLogin() throws {
        let root = RemotePaths.scratch("login-share")
        defer { try? FileManager.default.removeItem(atPath: root) }
        chmod(root, 0o755)
        for name in ["beach-01.jpg", "beach-02.jpg"] {
            try FileManager.default.copyItem(atPath: RemotePaths.gallery + "/travel/" + name, toPath: root + "/" + name)
            chmod(root + "/" + name, 0o644)
        }
        let secrets = RemotePaths.scratch("login-secrets")
        defer { try? FileManager.default.removeItem(atPath: secrets) }
        chmod(secrets, 0o755)
        let hash = String(decoding: try Subprocess.run([Self.openssl!, "passwd", "-apr1", "s3cret-Word"]).output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        try "anna:\(hash)\n".write(toFile: secrets + "/htpasswd", atomically: true, encoding: .utf8)
        chmod(secrets + "/htpasswd", 0o644)
        let extra = #"auth_basic "Family photos"; auth_basic_user_file \#(secrets)/htpasswd;"#
        try Nginx.serving(root, autoindex: "on", extra: extra) { port, _ in
            let url = "http://127.0.0.1:\(port)/"
            let home = RemotePaths.scratch("login-client")
            defer { try? FileManager.default.removeItem(atPath: home) }
            // No login: refused, with the realm the server named.
            let refused = try RemotePaths.print(RemotePaths.frame + ["--url", url], cacheHome: home,
                                                environment: ["NETRC": secrets + "/none"])
            #expect(refused.status != 0)
            #expect(refused.errorText.contains("401") && refused.errorText.contains("Family photos") && refused.errorText.contains("--user"),
                    "\(refused.errorText)")
            // ~/.netrc's login, as curl reads it.
            try "machine 127.0.0.1 login anna password s3cret-Word\n".write(toFile: secrets + "/netrc", atomically: true, encoding: .utf8)
            let netrc = try RemotePaths.print(RemotePaths.frame + ["--url", url], cacheHome: home, environment: ["NETRC": secrets + "/netrc"])
            #expect(netrc.status == 0, "\(netrc.errorText)")
            // The URL's own login; the URL said back without it.
            let typed = try RemotePaths.print(RemotePaths.frame + ["--url", "http://anna:s3cret-Word@127.0.0.1:\(port)/nowhere/"],
                                              cacheHome: home, environment: ["NETRC": secrets + "/none"])
            #expect(typed.status != 0 && typed.errorText.contains("127.0.0.1:\(port)/nowhere/") && !typed.errorText.contains("s3cret"),
                    "\(typed.errorText)")
            let shown = try RemotePaths.print(RemotePaths.frame + ["--url", "http://anna:s3cret-Word@127.0.0.1:\(port)/"],
                                              cacheHome: home, environment: ["NETRC": secrets + "/none"])
            #expect(shown.status == 0, "\(shown.errorText)")
            // Nothing the cache holds has the password in it.
            let cached = try FileManager.default.subpathsOfDirectory(atPath: home)
            #expect(!cached.isEmpty)
            for path in cached {
                guard let data = FileManager.default.contents(atPath: home + "/" + path) else { continue }
                #expect(data.range(of: Data("s3cret".utf8)) == nil, "\(path) holds the password")
            }
        }
    }
}
