import Foundation
import Testing
@testable import GalleryFormats
@testable import PhotoGridLoading
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// photogrid's Signature Version 4 against a second implementation, botocore's own S3 signer,
/// on fixed inputs (a time, keys, URLs with spaces, non-ASCII keys, queries to sort, a token).
@Suite(.startsPrograms) struct BucketSignerTests {
    static let seconds: Int64 = 1_795_852_800       // 2026-11-28 08:00:00 UTC

    /// botocore's payload hash and Authorization header for the request.
    func botocore(_ method: String, _ url: RemoteURL, _ credentials: BucketCredentials, payload: String) throws -> (String, String) {
        let lines = try S3Server.helper(["sign", method, url.description, "\(Self.seconds)", credentials.accessKey, credentials.secretKey,
                                         credentials.sessionToken ?? "", payload]).split(separator: "\n").map(String.init)
        return (lines.first ?? "", lines.last ?? "")
    }

    func ours(_ method: String, _ url: RemoteURL, _ credentials: BucketCredentials, payload: String) -> String {
        let signer = BucketSigner(credentials: credentials, region: "us-east-1")
        let lines = signer.headers(method: method, url: url, payloadHash: payload, seconds: Self.seconds)
        return lines.first { $0.hasPrefix("Authorization: ") }.map { String($0.dropFirst("Authorization: ".count)) } ?? ""
    }

    @Test(arguments: [
        ("GET", "http://127.0.0.1:9000/photos/?list-type=2&delimiter=%2F&prefix=2024%2Fsummer%20trip%2F"),
        ("GET", "http://127.0.0.1:9000/photos/2024/%C3%89t%C3%A9%20%26%20sea/a%2Bb%20%281%29.jpg"),
        ("GET", "https://photos.s3.eu-west-1.amazonaws.com/?prefix=a%2F&list-type=2&delimiter=%2F&continuation-token=1%2Fab%3D%3D"),
        ("HEAD", "https://s3.us-east-1.amazonaws.com/my.photos/IMG_0001.JPG"),
        ("PUT", "http://localhost:9000/site/gallery/renditions/x/256.jpg"),
        ("DELETE", "http://localhost:9000/site/gallery/originals/x?uploadId=2~abc_DEF-1"),
    ])
    func signaturesAgreeWithBotocore(_ method: String, _ text: String) throws {
        let url = try #require(RemoteURL(text))
        let payload = method == "PUT" ? BucketSigner.unsignedPayload : BucketSigner.emptyPayload
        for credentials in [BucketCredentials(accessKey: "AKIAEXAMPLE", secretKey: "wJalrXUtnFEMI/K7MDENG+bPxRfiCYEXAMPLEKEY"),
                            BucketCredentials(accessKey: "ASIAEXAMPLE", secretKey: "s3cr3t", sessionToken: "FwoGZXIvYXdzE/token+x==")] {
            let (signed, expected) = try botocore(method, url, credentials, payload: payload)
            #expect(expected.hasPrefix("AWS4-HMAC-SHA256 Credential="))
            #expect(ours(method, url, credentials, payload: signed) == expected, "\(method) \(text)")
        }
    }

    /// A key as photogrid writes its URL (every byte but the unreserved ones encoded) is signed
    /// as botocore signs it.
    @Test func anObjectURLWithAnyKeyIsSignedAsBotocoreSignsIt() throws {
        let base = try #require(RemoteURL("http://127.0.0.1:9000/photos/"))
        let location = try #require(BucketLocation(base: base, prefix: ""))
        let credentials = BucketCredentials(accessKey: "AKIAEXAMPLE", secretKey: "secret")
        for key in ["2024/Été & sea/a+b (1).jpg", "weird/!'()*;:@=$,~.jpg", "日本/写真.JPG", "a%20b/%2F.jpg"] {
            let url = try #require(location.object(key))
            let (signed, expected) = try botocore("GET", url, credentials, payload: BucketSigner.emptyPayload)
            #expect(ours("GET", url, credentials, payload: signed) == expected, "\(key) as \(url)")
        }
    }

    /// The AWS documentation's worked example ("Example: GET Object", the Signature Version 4
    /// page for S3): a range GET of test.txt in examplebucket on 2013-05-24, whose signature the
    /// page prints. Range is a signed header there, so it is passed as one.
    @Test func theDocumentationsExampleSignatureIsMade() throws {
        let url = try #require(RemoteURL("https://examplebucket.s3.amazonaws.com/test.txt"))
        let signer = BucketSigner(credentials: BucketCredentials(accessKey: "AKIAIOSFODNN7EXAMPLE",
                                                                 secretKey: "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"), region: "us-east-1")
        let lines = signer.headers(method: "GET", url: url, payloadHash: BucketSigner.emptyPayload, seconds: 1_369_353_600,
                                   extra: [("range", "bytes=0-9")])
        #expect(lines.contains { $0.hasSuffix("Signature=f0e8bdb87c964420e857bd35b5d6ed310bd44f0170aba48dd91039c6036bdb41") }, "\(lines)")
    }
}
