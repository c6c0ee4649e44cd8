import Foundation
import Testing
@testable import PhotoGridCore
@testable import PhotoGridModel
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Buckets end to end: photogrid against a real S3 implementation (moto's server, with its
/// signature and IAM checks on for private buckets), as a user runs it: `--print --url s3://`
/// with a profile in ~/.aws, an export to a bucket and a second one, a wrong secret, a missing
/// and a forbidden prefix.
@Suite(.startsPrograms, .serialized) struct BucketTests: PhotogridInTmux {
    /// `--print` of an 80x24 screen at 4 columns in 24-bit half-blocks, read back as pixels.
    func printed(_ arguments: [String], home: String, cache: String, environment: [String: String] = [:]) throws -> (RGBImage?, Subprocess.Result) {
        let result = try RemotePaths.print(["--mode", "halfblock", "--size", "80x24", "--columns", "4"] + arguments, cacheHome: cache,
                                           environment: ["HOME": home, "COLORTERM": "truecolor"].merging(environment) { $1 })
        // The tiles' lines; the blank line between rows of tiles holds only a reset.
        let lines = result.output.split(separator: UInt8(ascii: "\n")).map(Array.init).filter { $0.contains(0xE2) || $0.contains(0x20) }
        return (HalfBlockReader.pixels(lines, colors: .trueColor), result)
    }

    /// The mean difference of two pictures' channels, 0-255.
    func meanDifference(_ a: RGBImage, _ b: RGBImage) -> Double {
        guard a.width == b.width, a.height == b.height else { return 255 }
        let total = zip(a.pixels, b.pixels).reduce(0) { $0 + abs(Int($1.0) - Int($1.1)) }
        return Double(total) / Double(max(1, a.pixels.count))
    }

    /// What the folder itself prints: what the bucket's copy must look like.
    func local() throws -> RGBImage {
        let (image, result) = try printed([RemotePaths.gallery], home: RemotePaths.scratch("home"), cache: RemotePaths.scratch("cache"))
        #expect(result.status == 0, "\(result.errorText)")
        return try #require(image)
    }

    @Test func aPrivateBucketWithAProfileLooksLikeItsFolder() throws {
        try S3Server.serving(authenticated: true) { server in
            try server.run("bucket", "family")
            try server.run("upload", "family", "photos/", RemotePaths.gallery)
            let reader = try server.reader(of: "family")
            let home = try server.home(profile: "nas", key: reader.key, secret: reader.secret)
            let cache = RemotePaths.scratch("cache")
            let (image, result) = try printed(["--url", "s3://family/photos/"], home: home, cache: cache, environment: ["AWS_PROFILE": "nas"])
            #expect(result.status == 0, "\(result.errorText)")
            let difference = meanDifference(try #require(image), try local())
            #expect(difference < 8, "mean difference \(difference)")
            // Nothing of the secret in the cache, on screen or in messages.
            let cached = try FileManager.default.subpathsOfDirectory(atPath: cache).compactMap { FileManager.default.contents(atPath: cache + "/" + $0) }
            #expect(!cached.isEmpty)
            #expect(!cached.contains { $0.range(of: Data(reader.secret.utf8)) != nil }, "the secret is in the cache")
            #expect(!String(decoding: result.output + result.error, as: UTF8.self).contains(reader.secret))

            // Without the profile, the same bucket is refused by name.
            let (_, anonymous) = try printed(["--url", "s3://family/photos/"], home: RemotePaths.scratch("home"), cache: RemotePaths.scratch("cache"),
                                             environment: ["AWS_ENDPOINT_URL": server.endpoint, "AWS_ACCESS_KEY_ID": reader.key,
                                                           "AWS_SECRET_ACCESS_KEY": "not" + reader.secret])
            #expect(anonymous.status != 0)
            #expect(anonymous.errorText.contains("signature does not match"), "\(anonymous.errorText)")
            #expect(!anonymous.errorText.contains(reader.secret))
        }
    }

    @Test func aPublicBucketNeedsNoKeys() throws {
        try S3Server.serving(authenticated: false) { server in
            try server.run("bucket", "open")
            try server.run("public", "open")
            try server.run("upload", "open", "", RemotePaths.gallery)
            // No ~/.aws at all: the endpoint alone, and no signature.
            let (image, result) = try printed(["--url", "s3://open/"], home: RemotePaths.scratch("home"), cache: RemotePaths.scratch("cache"),
                                              environment: ["AWS_ENDPOINT_URL": server.endpoint])
            #expect(result.status == 0, "\(result.errorText)")
            let difference = meanDifference(try #require(image), try local())
            #expect(difference < 8, "mean difference \(difference)")
            // The https form of the same folder, path-style: found to be a bucket by its answer.
            let (byURL, plain) = try printed(["--url", server.endpoint + "/open/"], home: RemotePaths.scratch("home"), cache: RemotePaths.scratch("cache"))
            #expect(plain.status == 0, "\(plain.errorText)")
            #expect(byURL == image)
        }
    }

    @Test func anExportToABucketBrowsesLikeTheFolderAndASecondUploadsNothing() throws {
        try S3Server.serving(authenticated: true) { server in
            try server.run("bucket", "site")
            let home = try server.home(profile: "default", key: server.admin.key, secret: server.admin.secret)
            let cache = RemotePaths.scratch("cache")
            let environment = ["HOME": home, "XDG_CACHE_HOME": cache, "PATH": "/usr/bin:/bin"]
            let first = try Subprocess.run([RemotePaths.binary, "export", RemotePaths.gallery, "s3://site/gallery"], environment: environment)
            #expect(first.status == 0, "\(first.errorText)")
            #expect(first.errorText.contains("0 unchanged"), "\(first.errorText)")
            let second = try Subprocess.run([RemotePaths.binary, "export", RemotePaths.gallery, "s3://site/gallery"], environment: environment)
            #expect(second.status == 0, "\(second.errorText)")
            // One listing request, no upload.
            #expect(second.errorText.contains("(0 files uploaded,") && second.errorText.contains(", 1 request)"), "\(second.errorText)")
            let (image, result) = try printed(["--url", "s3://site/gallery/"], home: home, cache: RemotePaths.scratch("cache"))
            #expect(result.status == 0, "\(result.errorText)")
            let difference = meanDifference(try #require(image), try local())
            #expect(difference < 8, "mean difference \(difference)")
        }
    }

    @Test func aMissingBucketAndAnEmptyPrefixAreNamed() throws {
        try S3Server.serving(authenticated: true) { server in
            try server.run("bucket", "here")
            let home = try server.home(profile: "default", key: server.admin.key, secret: server.admin.secret)
            let (_, missing) = try printed(["--url", "s3://nowhere/photos/"], home: home, cache: RemotePaths.scratch("cache"))
            #expect(missing.status != 0)
            #expect(missing.errorText.contains("NoSuchBucket") && missing.errorText.contains("no such bucket"), "\(missing.errorText)")
            let (_, empty) = try printed(["--url", "s3://here/nothing/"], home: home, cache: RemotePaths.scratch("cache"))
            #expect(empty.status != 0)
            #expect(empty.errorText.contains("no photos at"), "\(empty.errorText)")
        }
    }

    @Test func anExportToAPlaceOfAnotherSchemeIsRefused() throws {
        let folder = RemotePaths.scratch("cwd")
        let result = try Subprocess.run(["/bin/sh", "-c", "cd \(folder) && exec \(RemotePaths.binary) export \(RemotePaths.gallery) gs://bucket/gallery"])
        #expect(result.status != 0)
        #expect(result.errorText.contains("gs is not a place photogrid exports to"), "\(result.errorText)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: folder).isEmpty)
    }

    /// nginx in front of the server, refusing the listing of one prefix with S3's AccessDenied,
    /// as a gateway's policy does (moto's IAM ignores the `s3:prefix` condition that would):
    /// everything else passes with its Host, so signatures still hold.
    func throughGateway<T>(_ server: S3Server, forbidding prefix: String, _ body: (_ endpoint: String) throws -> T) throws -> T {
        let encoded = prefix.replacingOccurrences(of: "/", with: "%2F")
        let refusal = "<?xml version=\\\"1.0\\\" encoding=\\\"UTF-8\\\"?><Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>"
        let extra = """
            location / {
                default_type application/xml;
                if ($arg_prefix ~ "^\(encoded)") { return 403 "\(refusal)"; }
                proxy_pass http://127.0.0.1:\(server.port);
                proxy_set_header Host $http_host;
                proxy_http_version 1.1;
                proxy_set_header Connection "";
            }
            """
        return try Nginx.serving(RemotePaths.scratch("gateway-root"), extra: extra) { port, _ in try body("http://127.0.0.1:\(port)") }
    }

    @Test func twoThousandFiveHundredKeysAreAllCountedAndAForbiddenPrefixIsNamed() throws {
        try S3Server.serving(authenticated: true) { server in
            try server.run("bucket", "library")
            let photo = RemotePaths.gallery + "/landscapes/autumn-01.jpg"
            try server.run("many", "library", "photos/2024/", "2500", photo)
            try server.run("many", "library", "photos/private/", "3", photo)
            let reader = try server.reader(of: "library")
            try throughGateway(server, forbidding: "photos/private/") { endpoint in
                let home = try server.home(profile: "default", key: reader.key, secret: reader.secret, endpoint: endpoint)
                let environment = ["HOME": home, "XDG_CACHE_HOME": RemotePaths.scratch("cache")]
                // --print says what it left out.
                let printed = try RemotePaths.print(["--mode", "halfblock", "--size", "80x24", "--url", "s3://library/photos/"],
                                                    cacheHome: RemotePaths.scratch("cache"), environment: ["HOME": home])
                #expect(printed.status == 0, "\(printed.errorText)")
                #expect(printed.errorText.contains("left out: 1 folder photogrid cannot read (private: access denied)"), "\(printed.errorText)")
                // The grid: all 2,500 counted (three listing pages), the forbidden prefix on the status line.
                let tmux = try start("--url s3://library/photos/", environment: environment)
                let (ok, screen) = try tmux.waitFor(seconds: 60) { $0.contains("of 2500") && $0.contains("left out") }
                #expect(ok && screen.contains("left out: 1 folder photogrid cannot read (private: access denied)"), "\(screen)")
                #expect(!screen.contains(reader.secret))
            }
        }
    }
}
