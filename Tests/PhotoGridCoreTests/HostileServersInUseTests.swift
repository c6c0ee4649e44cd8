import Foundation
import Testing
@testable import PhotoGridCore
@testable import PhotoGridModel
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Servers that attack, met as a user meets them: `photogrid --print --url` run against each, from
/// a folder of its own with a home of its own. For every attack the test says what photogrid did,
/// and checks the same four things: it ends within its time, it writes nothing outside its cache
/// folder (the home and the working folder are compared before and after), no login reaches
/// another host (the other server records what it was sent), and no byte of the server's text
/// reaches the terminal as an escape sequence (every server's text carries "PWNED" inside ESC ]
/// and ESC [ sequences; none of it may come out after an ESC). docs/reliability.md has the table.
@Suite(.startsPrograms, .serialized) struct HostileServersInUseTests: PhotogridInTmux {
    static let photo = FileManager.default.contents(atPath: RemotePaths.gallery + "/landscapes/autumn-01.jpg").map { [UInt8]($0) } ?? []
    /// What a hostile server puts in every text it controls.
    static let osc = "\u{1B}]0;PWNED\u{7}", csi = "\u{1B}[2JPWNED"

    struct Run {
        var result: Subprocess.Result
        var seconds: Double
        /// Files made outside the cache folder, by their paths below the home or working folder.
        var strayFiles: [String]
        var said: String { result.errorText }
    }

    /// `photogrid --print --labels` with `arguments`, from a new working folder and home; the
    /// home's `.netrc` when given.
    func photogrid(_ arguments: [String], netrc: String? = nil, environment: [String: String] = [:], timeout: Int = 60) throws -> Run {
        let home = RemotePaths.scratch("hostile-home"), work = RemotePaths.scratch("hostile-work")
        if let netrc {
            try netrc.write(toFile: home + "/.netrc", atomically: true, encoding: .utf8)
            chmod(home + "/.netrc", 0o600)
        }
        let before = Set(files(home) + files(work).map { "work/" + $0 })
        let started = Date()
        let result = try Subprocess.run(["/usr/bin/timeout", "\(timeout)", "/usr/bin/env", "-C", work, RemotePaths.binary, "--print",
                                         "--mode", "halfblock", "--size", "100x30", "--columns", "4", "--labels"] + arguments,
                                        environment: ["HOME": home, "XDG_CACHE_HOME": home + "/cache", "PATH": "/usr/bin:/bin",
                                                      "COLORTERM": "truecolor"].merging(environment) { $1 })
        let seconds = Date().timeIntervalSince(started)
        let after = Set(files(home).filter { $0 != "cache" && !$0.hasPrefix("cache/") } + files(work).map { "work/" + $0 })
        return Run(result: result, seconds: seconds, strayFiles: after.subtracting(before).sorted())
    }

    func files(_ root: String) -> [String] { (try? FileManager.default.subpathsOfDirectory(atPath: root)) ?? [] }

    /// What every attack must leave true.
    func checkHarmless(_ run: Run, _ attack: String, within seconds: Double = 60) {
        // What photogrid did, for the table in docs/reliability.md.
        let said = TerminalText.sanitize(run.said.split(separator: "\n").prefix(2).joined(separator: " / "))
        print("hostile server: \(attack): exit \(run.result.status) in \(String(format: "%.2f", run.seconds)) s: \(said.prefix(300))")
        #expect(run.result.status != 124, "\(attack): photogrid still ran at the timeout")
        #expect(run.seconds < seconds, "\(attack): \(run.seconds) s")
        #expect(run.strayFiles.isEmpty, "\(attack): wrote \(run.strayFiles)")
        let bytes = run.result.output + run.result.error
        #expect(!bytes.starts(with: [0x1B, 0x5D]) && !contains(bytes, [0x1B, 0x5D]), "\(attack): an OSC sequence came out")
        var from = 0
        while let at = find(Array("PWNED".utf8), in: bytes, from: from) {
            #expect(!bytes[max(0, at - 8)..<at].contains(0x1B), "\(attack): the server's text came out inside an escape sequence")
            from = at + 1
        }
        #expect(run.result.status != 134 && run.result.status != 139, "\(attack): crashed (\(run.result.status))")
    }

    func contains(_ bytes: [UInt8], _ needle: [UInt8]) -> Bool { find(needle, in: bytes, from: 0) != nil }

    func find(_ needle: [UInt8], in bytes: [UInt8], from: Int) -> Int? {
        guard bytes.count >= needle.count, from <= bytes.count - needle.count else { return nil }
        return (from...(bytes.count - needle.count)).first { bytes[$0..<($0 + needle.count)].elementsEqual(needle) }
    }

    /// A server answering `.jpg` paths with a real photo and everything else with `listing`.
    func server(listing: @escaping @Sendable (TestServer.Request) -> TestServer.Behavior) throws -> TestServer {
        try TestServer { request in
            request.path.hasSuffix(".jpg") ? .respond(status: 200, headers: [("Content-Type", "image/jpeg")], body: Self.photo) : listing(request)
        }
    }

    /// Records the headers every request brought: the other host of the cross-host attacks.
    final class Witness: @unchecked Sendable {
        let seen = Locked<[[String: String]]>([])
        var server: TestServer!
        init() throws {
            server = try TestServer { [seen] request in
                seen.withLock { $0.append(request.headers) }
                return request.path.hasSuffix(".jpg") ? .respond(status: 200, headers: [("Content-Type", "image/jpeg")], body: HostileServersInUseTests.photo)
                    : .respond(status: 404, headers: [], body: [])
            }
        }
        var requests: Int { seen.withLock { $0.count } }
        /// Its address by another name than 127.0.0.1: another host to netrc, whose entries
        /// name machines, not ports.
        var otherHost: String { "http://localhost:\(server.port)/" }
        /// Whether any request carried a login or a signature.
        var sawCredentials: Bool {
            seen.withLock { $0.contains { $0.keys.contains { $0 == "authorization" || $0.hasPrefix("x-amz-") } } }
        }
    }

    // MARK: - HTTP listings

    @Test func aMegabyteOfHeadersIsRefused() throws {
        let server = try server { _ in .respond(status: 200, headers: [("X-Junk", String(repeating: "J", count: 1 << 20))], body: Array("<a href=a.jpg>".utf8)) }
        defer { server.stop() }
        let run = try photogrid(["--url", server.url])
        checkHarmless(run, "headers of a megabyte")
        #expect(run.result.status != 0 && run.said.contains("headers are larger than photogrid takes") && run.said.contains("127.0.0.1"), "\(run.said)")
    }

    @Test func namesWithEscapeSequencesAreShownWithout() throws {
        let names = ["%1B%5D0%3BPWNED%07.jpg", "%1B%5B2JPWNED.jpg", "%E2%80%AEgpj.exe.jpg", "%C2%9B2JPWNED.jpg"]
        let page = "<html><title>Index of /</title>" + names.map { "<a href=\"\($0)\">x</a>" }.joined() + "</html>"
        let server = try server { _ in .respond(status: 200, headers: [("Content-Type", "text/html")], body: Array(page.utf8)) }
        defer { server.stop() }
        let run = try photogrid(["--url", server.url])
        checkHarmless(run, "names with escape sequences")
        // All four are shown, their names without the control characters (C1's CSI included).
        #expect(run.result.status == 0, "\(run.said)")
        #expect(!run.result.output.contains(0x9B) && !contains(run.result.output, [0xC2, 0x9B]))
        #expect(String(decoding: run.result.output, as: UTF8.self).components(separatedBy: "PWNED").count - 1 == 3)
    }

    @Test func aLoginIsNotSentWhereARedirectLeads() throws {
        let witness = try Witness()
        defer { witness.server.stop() }
        let server = try TestServer { request in
            request.headers["authorization"] == nil ? .respond(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"x\"")], body: [])
                : .respond(status: 302, headers: [("Location", witness.otherHost + "photos/")], body: [])
        }
        defer { server.stop() }
        let netrc = "machine 127.0.0.1 login anna password s3cret\n"
        let run = try photogrid(["--url", server.url], netrc: netrc)
        checkHarmless(run, "a redirect to another host with a login")
        #expect(witness.requests > 0, "the redirect was not followed")
        #expect(!witness.sawCredentials, "the login went to the other host")
        #expect(!run.said.contains("s3cret"))
    }

    @Test func aRealmWithEscapeSequencesIsShownWithout() throws {
        let server = try TestServer { _ in
            .respond(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"\(Self.osc)\(Self.csi)\""), ("Content-Type", "text/plain")],
                     body: Array("\(Self.csi) go away".utf8))
        }
        defer { server.stop() }
        let run = try photogrid(["--url", server.url])
        checkHarmless(run, "a realm with escape sequences")
        #expect(run.result.status != 0 && run.said.contains("401"), "\(run.said)")
    }

    // MARK: - Manifests

    @Test func aManifestsPhotosElsewhereGetNoLogin() throws {
        let witness = try Witness()
        defer { witness.server.stop() }
        let manifest = #"{"photogrid": 1, "photos": [{"id": "a", "original": "\#(witness.server.url)a.jpg"}, {"id": "b", "original": "\#(witness.server.url)b.jpg"}]}"#
        let server = try TestServer { request in
            request.headers["authorization"] == nil ? .respond(status: 401, headers: [("WWW-Authenticate", "Basic realm=\"x\"")], body: [])
                : .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(manifest.utf8))
        }
        defer { server.stop() }
        let run = try photogrid(["--url", "http://anna:s3cret@127.0.0.1:\(server.port)/gallery.json"])
        checkHarmless(run, "a manifest's photos on another host with a login")
        #expect(run.result.status == 0, "\(run.said)")
        #expect(witness.requests >= 2 && !witness.sawCredentials)
        #expect(!String(decoding: run.result.output + run.result.error, as: UTF8.self).contains("s3cret"))
    }

    @Test func hostileIDsAndNamesInAManifestStayInTheCache() throws {
        let ids = ["../../../../../tmp/pwned-by-id", "\(Self.osc)", "/etc/passwd", String(repeating: "long", count: 25_000), "a\\u0000b"]
        let photos = ids.enumerated().map { #"{"id": "\#($1.replacingOccurrences(of: "\u{1B}", with: "\\u001b").replacingOccurrences(of: "\u{7}", with: "\\u0007"))", "name": "\#(Self.csi.replacingOccurrences(of: "\u{1B}", with: "\\u001b")).jpg", "original": "p\#($0).jpg"}"# }
        let manifest = #"{"photogrid": 1, "title": "\#(Self.osc.replacingOccurrences(of: "\u{1B}", with: "\\u001b").replacingOccurrences(of: "\u{7}", with: "\\u0007"))", "photos": [\#(photos.joined(separator: ","))]}"#
        let server = try server { _ in .respond(status: 200, headers: [("Content-Type", "application/json")], body: Array(manifest.utf8)) }
        defer { server.stop() }
        let run = try photogrid(["--url", server.url + "gallery.json"])
        checkHarmless(run, "hostile ids and names")
        #expect(!FileManager.default.fileExists(atPath: "/tmp/pwned-by-id"))
        #expect(run.result.status == 0, "\(run.said)")
    }

    @Test func aNestingBombIsRefusedByItsDepth() throws {
        let bomb = Array(#"{"photogrid": 1, "photos": "#.utf8) + [UInt8](repeating: UInt8(ascii: "["), count: 200_000)
        let server = try server { _ in .respond(status: 200, headers: [("Content-Type", "application/json")], body: bomb) }
        defer { server.stop() }
        let run = try photogrid(["--url", server.url + "gallery.json"])
        checkHarmless(run, "a nesting bomb")
        #expect(run.result.status != 0 && run.said.contains("deep"), "\(run.said)")
    }

    // MARK: - WebDAV

    func webDAV(_ body: [UInt8]) throws -> TestServer {
        try server { request in
            request.method == "PROPFIND" ? .respond(status: 207, headers: [("Content-Type", "application/xml")], body: body)
                : .respond(status: 405, headers: [], body: [])
        }
    }

    @Test func anEntityBombInAPropfindAnswerIsNotExpanded() throws {
        var entities = #"<!ENTITY l0 "PWNEDPWNED">"#
        for level in 1...9 { entities += "<!ENTITY l\(level) \"" + String(repeating: "&l\(level - 1);", count: 10) + "\">" }
        let body = Array("""
            <?xml version="1.0"?><!DOCTYPE m [\(entities)]>
            <D:multistatus xmlns:D="DAV:"><D:response><D:href>/&l9;.jpg</D:href></D:response>
            <D:response><D:href>/a.jpg</D:href></D:response></D:multistatus>
            """.utf8)
        let server = try webDAV(body)
        defer { server.stop() }
        let run = try photogrid(["--url", server.url])
        checkHarmless(run, "an XML entity bomb", within: 20)
        // The entity's name is a name like any other: two photos, nothing expanded.
        #expect(run.result.status == 0, "\(run.said)")
    }

    @Test func halfAMillionPropfindEntriesAreReadInBoundedTimeAndMemory() throws {
        var body = Array(#"<?xml version="1.0"?><D:multistatus xmlns:D="DAV:">"#.utf8)
        for i in 0..<500_000 { body += Array("<D:response><D:href>/p\(i).jpg</D:href></D:response>".utf8) }
        body += Array("</D:multistatus>".utf8)
        let server = try webDAV(body)
        defer { server.stop() }
        let home = RemotePaths.scratch("propfind")
        let measured = try Subprocess.runMeasuringMemory([RemotePaths.binary, "--print", "--mode", "halfblock", "--size", "100x30", "--url", server.url],
                                                         environment: ["HOME": home, "XDG_CACHE_HOME": home + "/cache", "PATH": "/usr/bin:/bin"])
        #expect(measured.status == 0, "\(measured.errorText)")
        #expect(measured.seconds < 60, "\(measured.seconds) s")
        // 500,000 photos' records and the 27 MB answer: well under a gigabyte.
        #expect(measured.maxResidentKilobytes < 1_000_000, "\(measured.maxResidentKilobytes) KB")
        print("500,000 PROPFIND entries: \(measured.seconds) s, \(measured.maxResidentKilobytes / 1024) MB")
    }

    @Test func propfindHrefsLeadingElsewhereAreIgnored() throws {
        let witness = try Witness()
        defer { witness.server.stop() }
        let body = Array("""
            <?xml version="1.0"?><D:multistatus xmlns:D="DAV:">
            <D:response><D:href>\(witness.server.url)stolen.jpg</D:href></D:response>
            <D:response><D:href>/../../etc/passwd</D:href></D:response>
            <D:response><D:href>/ok.jpg</D:href></D:response></D:multistatus>
            """.utf8)
        let server = try webDAV(body)
        defer { server.stop() }
        let run = try photogrid(["--url", "http://anna:s3cret@127.0.0.1:\(server.port)/"])
        checkHarmless(run, "hrefs elsewhere")
        #expect(run.result.status == 0, "\(run.said)")
        #expect(witness.requests == 0, "an href to another host was followed")
    }

    // MARK: - SFTP

    @Test func anSFTPFolderOfHostileNamesIsShownWithout() throws {
        try SSHServer.serving { ssh in
            let share = RemotePaths.scratch("sftp-hostile")
            for name in ["\(Self.osc).jpg", "\(Self.csi).jpg", "two\n-rw-r--r-- 1 u g 9 Jan  1 00:00 fake.jpg", "back\\slash.jpg", " lead.jpg"] {
                FileManager.default.createFile(atPath: share + "/" + name, contents: Data(Self.photo))
            }
            try FileManager.default.createSymbolicLink(atPath: share + "/outside.jpg", withDestinationPath: "/etc/passwd")
            let run = try photogrid(["--url", "sftp://\(SSHServer.user)@127.0.0.1:\(ssh.port)\(share)/"], environment: ["HOME": ssh.home])
            checkHarmless(run, "SFTP names")
            #expect(run.result.status == 0, "\(run.said)")
        }
    }

    // MARK: - Buckets

    /// A server of the test's own that answers as a bucket does, its listing made by `page`.
    func bucket(_ page: @escaping @Sendable (TestServer.Request) -> String) throws -> TestServer {
        try server { request in
            .respond(status: 200, headers: [("Content-Type", "application/xml")], body: Array(page(request).utf8))
        }
    }

    func listing(_ keys: [String], more: String? = nil) -> String {
        let contents = keys.map { "<Contents><Key>\($0)</Key><Size>1</Size><ETag>\"x\"</ETag></Contents>" }.joined()
        let tail = more.map { "<IsTruncated>true</IsTruncated><NextContinuationToken>\($0)</NextContinuationToken>" } ?? "<IsTruncated>false</IsTruncated>"
        return "<?xml version=\"1.0\"?><ListBucketResult><Name>b</Name>\(contents)\(tail)</ListBucketResult>"
    }

    @Test func bucketKeysThatClimbOrCarryEscapesAreLeftOutOrShownWithout() throws {
        let escaped = Self.osc.replacingOccurrences(of: "\u{7}", with: "&#7;").replacingOccurrences(of: "\u{1B}", with: "&#27;")
        let server = try bucket { _ in
            self.listing(["../up.jpg", "..", ".", "a/../../b.jpg", "\(escaped).jpg", "ok.jpg"]).replacingOccurrences(of: "<Name>", with: "<Name>")
        }
        defer { server.stop() }
        let run = try photogrid(["--url", "s3://bkt/"], environment: ["AWS_ENDPOINT_URL": server.url])
        checkHarmless(run, "bucket keys")
        #expect(run.result.status == 0, "\(run.said)")
        #expect(server.count("/up.jpg") == 0 && server.count("/b.jpg") == 0, "a key climbed out of its prefix")
    }

    @Test func aBucketThatHandsOutTokensForEverIsStopped() throws {
        let server = try bucket { request in self.listing(["p\(UUID().uuidString).jpg"], more: UUID().uuidString) }
        defer { server.stop() }
        let run = try photogrid(["--url", "s3://bkt/"], environment: ["AWS_ENDPOINT_URL": server.url])
        checkHarmless(run, "endless tokens")
        #expect(run.said.contains("more than 1000 pages of keys"), "\(run.said)")
    }

    @Test func aBucketsRedirectElsewhereIsNotSigned() throws {
        let witness = try Witness()
        defer { witness.server.stop() }
        let server = try TestServer { request in
            .respond(status: 307, headers: [("Location", witness.server.url + "bkt/?list-type=2&delimiter=%2F&prefix=")], body: [])
        }
        defer { server.stop() }
        let run = try photogrid(["--url", "s3://bkt/"], environment: ["AWS_ENDPOINT_URL": server.url, "AWS_ACCESS_KEY_ID": "AKIAEXAMPLE",
                                                                   "AWS_SECRET_ACCESS_KEY": "s3cret"])
        checkHarmless(run, "a bucket's redirect")
        #expect(witness.requests > 0 && !witness.sawCredentials, "the signature went to the other host")
        #expect(!run.said.contains("s3cret"))
    }

    @Test func aBucketErrorWithEscapesIsNamedWithout() throws {
        let server = try TestServer { _ in
            .respond(status: 403, headers: [("Content-Type", "application/xml")],
                     body: Array("<Error><Code>\(Self.osc)Access\(Self.csi)Denied</Code><Message>\(Self.csi)</Message></Error>".utf8))
        }
        defer { server.stop() }
        let run = try photogrid(["--url", "s3://bkt/photos/"], environment: ["AWS_ENDPOINT_URL": server.url])
        checkHarmless(run, "a bucket error with escapes")
        #expect(run.result.status != 0 && run.said.contains("403"), "\(run.said)")
    }

    @Test func anEndlessObjectIsCutAtTheLimit() throws {
        let server = try TestServer { request in
            request.path.hasSuffix(".jpg") ? .endless
                : .respond(status: 200, headers: [("Content-Type", "application/xml")], body: Array(self.listing(["big.jpg"]).utf8))
        }
        defer { server.stop() }
        let run = try photogrid(["--url", "s3://bkt/"], environment: ["AWS_ENDPOINT_URL": server.url])
        checkHarmless(run, "an endless object")
        #expect(run.result.status == 0, "\(run.said)")
    }

    // MARK: - In the grid

    /// The grid on a listing of hostile names whose photos never come: keys are answered while
    /// every request hangs, `q` ends it at once, and nothing the server wrote reached the terminal
    /// as a sequence (its raw output is read from the pane's log; its title is not the server's).
    @Test func theGridAnswersKeysWhileAHostileServerHangs() throws {
        let names = ["%1B%5D0%3BPWNED%07.jpg", "%1B%5B2JPWNED.jpg"] + (0..<30).map { "p\($0).jpg" }
        let page = "<html><title>Index of /</title>" + names.map { "<a href=\"\($0)\">x</a>" }.joined() + "</html>"
        let server = try TestServer { request in
            request.path.hasSuffix(".jpg") ? .slow(milliseconds: 30_000, .respond(status: 200, headers: [], body: Self.photo))
                : .respond(status: 200, headers: [("Content-Type", "text/html")], body: Array(page.utf8))
        }
        defer { server.stop() }
        let tmux = try start("--url \(server.url)", environment: ["HOME": RemotePaths.scratch("hostile-home")])
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of 32") }
        #expect(ok, "\(screen)")
        try tmux.send("l")
        (ok, screen) = try tmux.waitFor(seconds: 3) { $0.contains("2 of 32") }
        #expect(ok, "a key was not answered while the photos hung: \(screen)")
        try tmux.send("G")
        (ok, screen) = try tmux.waitFor(seconds: 3) { $0.contains("32 of 32") }
        #expect(ok, "\(screen)")
        let started = Date()
        try tmux.send("q")
        (ok, screen) = try tmux.waitFor(seconds: 5) { $0.contains("[exit 0]") }
        #expect(ok && Date().timeIntervalSince(started) < 3, "q took \(Date().timeIntervalSince(started)) s: \(screen)")
        #expect(try tmux.value("#{pane_title}") != "PWNED")
        let written = Array(FileManager.default.contents(atPath: tmux.paneLog ?? "") ?? Data())
        #expect(!written.isEmpty)
        var from = 0
        while let at = find(Array("PWNED".utf8), in: written, from: from) {
            #expect(!written[max(0, at - 8)..<at].contains(0x1B), "the server's text reached the terminal inside a sequence")
            from = at + 1
        }
    }
}
