import Foundation
import Testing
@testable import GalleryFormats
@testable import PhotoGridLoading

/// Credentials, region and endpoint found as the AWS tools find them.
@Suite struct BucketAccessTests {
    func home(credentials: String, config: String) throws -> String {
        let home = FileManager.default.temporaryDirectory.appendingPathComponent("pg-aws-\(UUID().uuidString.prefix(8))").path
        try FileManager.default.createDirectory(atPath: home + "/.aws", withIntermediateDirectories: true)
        try credentials.write(toFile: home + "/.aws/credentials", atomically: true, encoding: .utf8)
        try config.write(toFile: home + "/.aws/config", atomically: true, encoding: .utf8)
        return home
    }

    static let credentials = """
        [default]
        aws_access_key_id = AKIADEFAULT
        aws_secret_access_key = defaultsecret
        # a comment
        [nas]
        aws_access_key_id=AKIANAS
        aws_secret_access_key = nas/secret+1
        aws_session_token = tok
        """
    static let config = """
        [default]
        region = eu-west-1
        [profile nas]
        region = auto
        s3 =
          endpoint_url = http://nas.local:9000
        [profile r2]
        endpoint_url = https://account.r2.cloudflarestorage.com
        aws_access_key_id = AKIAR2
        aws_secret_access_key = r2secret
        """

    @Test func theProfileGivesKeysRegionAndEndpoint() throws {
        let home = try home(credentials: Self.credentials, config: Self.config)
        let nas = try BucketAccess.fromEnvironment { ["HOME": home, "AWS_PROFILE": "nas"][$0] }
        #expect(nas.credentials == BucketCredentials(accessKey: "AKIANAS", secretKey: "nas/secret+1", sessionToken: "tok"))
        #expect(nas.region == "auto" && nas.endpoint?.description == "http://nas.local:9000/")
        #expect(try nas.location(of: "s3://family/photos").base.description == "http://nas.local:9000/family/")
        #expect(try nas.location(of: "s3://family/photos").prefix == "photos/")
        // Keys in the config file, as R2's instructions put them.
        let r2 = try BucketAccess.fromEnvironment { ["HOME": home, "AWS_PROFILE": "r2"][$0] }
        #expect(r2.credentials?.accessKey == "AKIAR2" && r2.endpoint?.host == "account.r2.cloudflarestorage.com")
        // The default profile; AWS's own address for the region, virtual-hosted.
        let plain = try BucketAccess.fromEnvironment { ["HOME": home][$0] }
        #expect(plain.credentials?.accessKey == "AKIADEFAULT" && plain.region == "eu-west-1" && plain.endpoint == nil)
        #expect(try plain.location(of: "s3://photos").base.description == "https://photos.s3.eu-west-1.amazonaws.com/")
        #expect(try plain.location(of: "s3://my.photos/a/b/").base.description == "https://s3.eu-west-1.amazonaws.com/my.photos/")
    }

    @Test func theEnvironmentComesFirst() throws {
        let home = try home(credentials: Self.credentials, config: Self.config)
        let access = try BucketAccess.fromEnvironment {
            ["HOME": home, "AWS_ACCESS_KEY_ID": "AKIAENV", "AWS_SECRET_ACCESS_KEY": "envsecret", "AWS_REGION": "us-west-2",
             "AWS_ENDPOINT_URL": "http://127.0.0.1:9000"][$0]
        }
        #expect(access.credentials == BucketCredentials(accessKey: "AKIAENV", secretKey: "envsecret"))
        #expect(access.region == "us-west-2" && access.endpoint?.port == 9000)
        // No keys anywhere: anonymous.
        #expect(try BucketAccess.fromEnvironment { ["HOME": "/nonexistent"][$0] }.credentials == nil)
        #expect("\(access.credentials!)" == "bucket credentials")
    }

    @Test func mistakesAreNamed() throws {
        let home = try home(credentials: Self.credentials, config: Self.config)
        #expect(throws: BucketAccess.Problem.self) { try BucketAccess.fromEnvironment { ["HOME": home, "AWS_PROFILE": "typo"][$0] } }
        #expect(throws: BucketAccess.Problem.self) { try BucketAccess.fromEnvironment { ["HOME": home, "AWS_ENDPOINT_URL": "ftp://x"][$0] } }
        let access = BucketAccess()
        for bad in ["s3://", "s3://UPPER/x", "s3://a_b/x", "s3://ab/x"] {
            #expect(throws: BucketAccess.Problem.self, "\(bad)") { try access.location(of: bad) }
        }
    }
}
