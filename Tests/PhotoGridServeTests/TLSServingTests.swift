import Foundation
import Testing
@testable import PhotoGridServe
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// `photogrid serve --tls-cert --tls-key`: HTTPS over loopback with a certificate made for the
/// test, fetched by curl and browsed with `--url --ca-cert`; the wrong way round said in words.
@Suite(.startsPrograms) struct TLSServingTests {
    static let openssl = ["/usr/bin/openssl", "/bin/openssl"].first { FileManager.default.isExecutableFile(atPath: $0) }
    static let curl = ["/usr/bin/curl", "/bin/curl"].first { FileManager.default.isExecutableFile(atPath: $0) }

    /// A self-signed certificate for 127.0.0.1 and its key, in `folder`.
    static func certificate(in folder: String) throws -> (certificate: String, key: String) {
        let made = try Subprocess.run([openssl!, "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "2",
                                       "-keyout", folder + "/key.pem", "-out", folder + "/cert.pem", "-subj", "/CN=localhost",
                                       "-addext", "subjectAltName=IP:127.0.0.1,DNS:localhost"])
        #expect(made.status == 0, "\(made.errorText)")
        return (folder + "/cert.pem", folder + "/key.pem")
    }

    @Test(.enabled(if: openssl != nil && curl != nil, "openssl and curl are not installed (scripts/setup --test installs them)"))
    func httpsIsServedAndBrowsed() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let (certificate, key) = try Self.certificate(in: fixture.base)
        // A photo of several of the chunks an original goes in over TLS (its bytes after the
        // picture's end are the file's, to be sent as they are).
        let big = Array(try Data(contentsOf: URL(fileURLWithPath: fixture.folder + "/" + GalleryFixture.rotated)))
            + (0..<400_000).map { UInt8(truncatingIfNeeded: $0 &* 7) }
        try Data(big).write(to: URL(fileURLWithPath: fixture.folder + "/big.jpg"))
        var configuration = GalleryServer.Configuration(folder: fixture.folder, port: 0)
        (configuration.tlsCertificate, configuration.tlsKey) = (certificate, key)
        configuration.token = AccessTokenTests.token
        let server = try GalleryServer(configuration)
        let port = try server.start()
        defer { server.stop() }
        #expect(server.url == "https://127.0.0.1:\(port)/t/\(AccessTokenTests.token)/")

        // curl, trusting the certificate: the manifest, and 401 without the token.
        let fetched = try Subprocess.run([Self.curl!, "-s", "--cacert", certificate, "-o", "/dev/null", "-w", "%{http_code}",
                                          server.url + "manifest.json"])
        #expect(String(decoding: fetched.output, as: UTF8.self) == "200")
        let refused = try Subprocess.run([Self.curl!, "-s", "--cacert", certificate, "-o", "/dev/null", "-w", "%{http_code}",
                                          "https://127.0.0.1:\(port)/manifest.json"])
        #expect(String(decoding: refused.output, as: UTF8.self) == "401")
        // An original, whole (several chunks: TLS cannot take sendfile's file regions, so the
        // file is read and encrypted a chunk at a time) and a range of it; the server goes on.
        let whole = try Subprocess.run([Self.curl!, "-s", "--cacert", certificate, server.url + "originals/big.jpg"])
        #expect(whole.status == 0 && whole.output == big)
        let part = try Subprocess.run([Self.curl!, "-s", "--cacert", certificate, "-r", "1000-1999", "-w", "%{http_code}",
                                       server.url + "originals/big.jpg"])
        #expect(part.output == Array(big[1000..<2000]) + Array("206".utf8))
        let after = try Subprocess.run([Self.curl!, "-s", "--cacert", certificate, "-o", "/dev/null", "-w", "%{http_code}",
                                        server.url + "manifest.json"])
        #expect(String(decoding: after.output, as: UTF8.self) == "200")
        // Plain HTTP to it gets no gallery.
        let plain = try Subprocess.run([Self.curl!, "-s", "-o", "/dev/null", "-w", "%{http_code}", "http://127.0.0.1:\(port)/t/\(AccessTokenTests.token)/"])
        #expect(String(decoding: plain.output, as: UTF8.self) != "200")

        // --url with --ca-cert: the frame as served over plain HTTP.
        let home = RemotePaths.scratch("tls-client")
        defer { try? FileManager.default.removeItem(atPath: home) }
        let browsed = try RemotePaths.print(RemotePaths.frame + ["--ca-cert", certificate, "--url", server.url], cacheHome: home)
        #expect(browsed.status == 0, "\(browsed.errorText)")
        let reference = try RemotePaths.openlyServedSixels(fixture.folder, frame: RemotePaths.frame)
        #expect(RemotePaths.samePictures(TerminalOutput.sixels(browsed.output), reference))

        // Without --ca-cert, and with http:// to it: refused in words, no library internals.
        // (From a client without the gallery in its cache: one that has it shows it, as the
        // server allows, while it fails to check it in the background.)
        let fresh = RemotePaths.scratch("tls-client-new")
        defer { try? FileManager.default.removeItem(atPath: fresh) }
        let untrusted = try RemotePaths.print(RemotePaths.frame + ["--url", server.url], cacheHome: fresh)
        #expect(untrusted.status != 0 && untrusted.errorText.contains("does not trust"), "\(untrusted.errorText)")
        let http = try RemotePaths.print(RemotePaths.frame + ["--url", "http://127.0.0.1:\(port)/t/\(AccessTokenTests.token)/"], cacheHome: fresh)
        #expect(http.status != 0 && http.errorText.contains("https://"), "\(http.errorText)")
        #expect(![untrusted.errorText, http.errorText].contains { $0.contains("/.build/") || $0.contains("BoringSSL") })
    }

    /// nginx offering HTTP/2 over TLS, listing a folder: the grid's photos are asked for over
    /// HTTP/2, all on one connection (docs/remote-gallery.md, "Batches", last paragraph).
    @Test(.enabled(if: openssl != nil && Nginx.path != nil, "openssl or nginx is not installed (scripts/setup --test installs them)"))
    func http2IsSpokenWhereTheServerOffersIt() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let (certificate, key) = try Self.certificate(in: fixture.base)
        let root = RemotePaths.scratch("h2-root")
        defer { try? FileManager.default.removeItem(atPath: root) }
        _ = try Subprocess.run(["cp", "-R", fixture.folder + "/.", root])
        _ = try Subprocess.run(["chmod", "-R", "a+rX", root])
        try Nginx.serving(root, autoindex: "on", tls: (certificate, key)) { port, prefix in
            let home = RemotePaths.scratch("h2-client")
            defer { try? FileManager.default.removeItem(atPath: home) }
            let browsed = try RemotePaths.print(RemotePaths.frame + ["--ca-cert", certificate, "--url", "https://127.0.0.1:\(port)/"],
                                                cacheHome: home)
            #expect(browsed.status == 0, "\(browsed.errorText)")
            let log = (try? String(contentsOfFile: prefix + "/access.log", encoding: .utf8)) ?? ""
            let lines = log.split(separator: "\n").map { $0.split(separator: " ") }
            let photos = lines.filter { $0.count == 3 && $0[2].hasSuffix(".jpg") }
            #expect(photos.count >= 2, "\(log)")
            #expect(lines.allSatisfy { $0.count == 3 && $0[1] == "HTTP/2.0" }, "\(log)")
            #expect(Set(lines.map { $0.first ?? "" }).count == 1, "more than one connection: \(log)")
        }
    }

    @Test(.enabled(if: openssl != nil, "openssl is not installed"))
    func aCertificateAndKeyThatDoNotFitAreAClearError() throws {
        let fixture = try GalleryFixture()
        defer { fixture.remove() }
        let (certificate, key) = try Self.certificate(in: fixture.base)
        var swapped = GalleryServer.Configuration(folder: fixture.folder, port: 0)
        (swapped.tlsCertificate, swapped.tlsKey) = (key, certificate)
        #expect(throws: GalleryServer.ServeError.invalid("cannot use --tls-cert \(key) with --tls-key \(certificate): not PEM files of a certificate and its private key")) {
            _ = try GalleryServer(swapped)
        }
        var half = GalleryServer.Configuration(folder: fixture.folder, port: 0)
        half.tlsCertificate = certificate
        #expect(throws: GalleryServer.ServeError.invalid("--tls-cert and --tls-key go together: the certificate and its private key")) {
            _ = try GalleryServer(half)
        }
    }
}
