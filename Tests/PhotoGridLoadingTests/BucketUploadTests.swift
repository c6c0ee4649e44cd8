import Foundation
import Testing
@testable import GalleryFormats
@testable import PhotoGridLoading
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Uploads to a real S3 implementation: a file larger than a part goes up in parts and comes
/// back whole; deletions; a listing of every key under a prefix.
@Suite(.startsPrograms, .serialized) struct BucketUploadTests {
    func client(_ server: S3Server, bucket: String) throws -> (BucketClient, TransferLoop) {
        let base = try #require(RemoteURL("\(server.endpoint)/\(bucket)/"))
        let location = try #require(BucketLocation(base: base, prefix: "g/"))
        var settings = TransferSettings()
        settings.buckets.add(BucketSigner(credentials: BucketCredentials(accessKey: server.admin.key, secretKey: server.admin.secret),
                                          region: "us-east-1"), for: base.origin)
        let loop = TransferLoop(settings: settings)
        return (BucketClient(location: location, loop: loop), loop)
    }

    @Test func aLargeFileGoesUpInPartsAndComesBackWhole() throws {
        try S3Server.serving(authenticated: true) { server in
            try server.run("bucket", "big")
            let (client, loop) = try client(server, bucket: "big")
            defer { loop.shutdown() }
            let folder = RemotePaths.scratch("big")
            var generator = SeededGenerator(seed: 7)
            let bytes = (0..<(BucketClient.partSize + 1_234_567)).map { _ in UInt8.random(in: 0...255, using: &generator) }
            try Data(bytes).write(to: URL(fileURLWithPath: folder + "/original.raw"))
            try client.upload(RawPath(folder + "/original.raw"), size: bytes.count, as: "g/originals/a", type: "application/octet-stream",
                              cacheControl: "public, max-age=3600")
            // Create, two parts, complete.
            #expect(client.requests == 4)
            try server.run("get", "big", "g/originals/a", folder + "/back")
            #expect(FileManager.default.contents(atPath: folder + "/back") == Data(bytes))
            let objects = try client.objects(under: "g/")
            #expect(objects["g/originals/a"]?.size == bytes.count)
            // A multipart upload's ETag is the MD5 of its parts' MD5s and their count: made here
            // too, so that an export of an unchanged original uploads nothing.
            #expect(objects["g/originals/a"]?.etag.hasSuffix("-2") == true)
            #expect(objects["g/originals/a"]?.etag == Digest.etag(ofFile: RawPath(folder + "/original.raw"), partSize: BucketClient.partSize))
            #expect(Digest.etag(ofFile: RawPath(folder + "/back"), partSize: 1 << 30) == Digest.hex(Digest.md5(bytes)))
            try client.delete("g/originals/a")
            #expect(try client.objects(under: "g/").isEmpty)
        }
    }

    @Test func aRefusedUploadSaysWhy() throws {
        try S3Server.serving(authenticated: true) { server in
            try server.run("bucket", "shared")
            let reader = try server.reader(of: "shared")
            let base = try #require(RemoteURL("\(server.endpoint)/shared/"))
            var settings = TransferSettings()
            settings.buckets.add(BucketSigner(credentials: BucketCredentials(accessKey: reader.key, secretKey: reader.secret), region: "us-east-1"),
                                 for: base.origin)
            let loop = TransferLoop(settings: settings)
            defer { loop.shutdown() }
            let client = BucketClient(location: try #require(BucketLocation(base: base, prefix: "")), loop: loop)
            let folder = RemotePaths.scratch("refused")
            try Data("x".utf8).write(to: URL(fileURLWithPath: folder + "/a.jpg"))
            #expect {
                try client.upload(RawPath(folder + "/a.jpg"), size: 1, as: "a.jpg", type: "image/jpeg", cacheControl: "no-cache")
            } throws: { error in
                guard case .bucket(403, let code, _) = error as? FetchError else { return false }
                return code == "AccessDenied" && (error as! FetchError).description.contains("access denied")
            }
        }
    }
}
