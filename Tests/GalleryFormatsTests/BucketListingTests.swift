import Testing
@testable import GalleryFormats

/// S3's ListObjectsV2 answers and error documents read as listings and refusals.
@Suite struct BucketListingTests {
    static let listingURL = RemoteURL("http://127.0.0.1:9000/photos/?list-type=2&delimiter=%2F&prefix=2024%2F")!

    static let page = Array("""
        <?xml version="1.0" encoding="UTF-8"?>
        <ListBucketResult xmlns="http://s3.amazonaws.com/doc/2006-03-01/">
          <Name>photos</Name><Prefix>2024/</Prefix><KeyCount>5</KeyCount><MaxKeys>1000</MaxKeys><Delimiter>/</Delimiter>
          <IsTruncated>true</IsTruncated><NextContinuationToken>1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=</NextContinuationToken>
          <Contents><Key>2024/</Key><Size>0</Size><ETag>&quot;d41d8cd98f00b204e9800998ecf8427e&quot;</ETag></Contents>
          <Contents><Key>2024/Beach &amp; sun.jpg</Key><LastModified>2026-11-28T08:00:00.000Z</LastModified>
            <ETag>"9b2cf535f27731c974343645a3985328"</ETag><Size>48213</Size><StorageClass>STANDARD</StorageClass></Contents>
          <Contents><Key>2024/..</Key><Size>1</Size><ETag>"x"</ETag></Contents>
          <Contents><Key>elsewhere.jpg</Key><Size>1</Size><ETag>"x"</ETag></Contents>
          <CommonPrefixes><Prefix>2024/Été/</Prefix></CommonPrefixes>
          <CommonPrefixes><Prefix>2024/private/</Prefix></CommonPrefixes>
        </ListBucketResult>
        """.utf8)

    @Test func aPageIsFilesFoldersAndTheNextPage() throws {
        let listing = try #require(DirectoryListing.bucket(Self.page, url: Self.listingURL))
        #expect(listing.isBucket)
        // The folder's own marker, a key with ".." for a name and one outside the prefix are left out.
        #expect(listing.files.map(\.name) == ["Beach & sun.jpg"])
        #expect(listing.files.first?.url.description == "http://127.0.0.1:9000/photos/2024/Beach%20%26%20sun.jpg")
        #expect(listing.folders.map(\.name) == ["Été", "private"])
        #expect(listing.folders.last?.url.description == "http://127.0.0.1:9000/photos/?list-type=2&delimiter=%2F&prefix=2024%2Fprivate%2F")
        let more = try #require(listing.more)
        #expect(BucketLocation.parameter("continuation-token", of: more) == "1ueGcxLPRx1Tr/XYExHnhbYLgveDs2J/wm36Hy4vbOwM=")
        #expect(BucketLocation.parameter("prefix", of: more) == "2024/")
        let answer = try #require(BucketAnswer.listing(Self.page))
        #expect(answer.objects[1] == BucketAnswer.Object(key: "2024/Beach & sun.jpg", size: 48213, etag: "9b2cf535f27731c974343645a3985328"))
    }

    @Test func aBucketListingIsTakenForOneByTheGenericParser() throws {
        let listing = try #require(DirectoryListing.parse(Self.page, url: Self.listingURL, contentType: "application/xml"))
        #expect(listing.isBucket && listing.files.count == 1)
        // The last page has no token; an HTML page is no bucket's.
        let last = Array("<ListBucketResult><IsTruncated>false</IsTruncated><Contents><Key>2024/a.jpg</Key></Contents></ListBucketResult>".utf8)
        #expect(try #require(DirectoryListing.bucket(last, url: Self.listingURL)).more == nil)
        #expect(DirectoryListing.bucket(Array("<html><a href=\"a.jpg\">a</a></html>".utf8), url: Self.listingURL) == nil)
    }

    @Test func errorsAreReadByTheirCodes() {
        let denied = Array("""
            <?xml version="1.0" encoding="UTF-8"?>
            <Error><Code>AccessDenied</Code><Message>Access Denied</Message><RequestId>X</RequestId></Error>
            """.utf8)
        #expect(BucketAnswer.error(denied)?.code == "AccessDenied")
        #expect(BucketAnswer.error(denied)?.message == "Access Denied")
        #expect(BucketAnswer.error(Array("{\"error\": 1}".utf8)) == nil)
        #expect(BucketAnswer.error([]) == nil)
    }

    /// No entity is expanded beyond XML's own five: a "billion laughs" stays its few bytes.
    @Test func entitiesAreNotExpanded() throws {
        let bomb = Array("""
            <?xml version="1.0"?><!DOCTYPE l [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;&a;&a;&a;&a;">]>
            <ListBucketResult><Contents><Key>2024/&b;.jpg</Key></Contents></ListBucketResult>
            """.utf8)
        let listing = try #require(DirectoryListing.bucket(bomb, url: Self.listingURL))
        #expect(listing.files.map(\.name) == ["&b;.jpg"])
    }

    @Test func keysAreEncodedOnceInObjectURLs() throws {
        let base = try #require(RemoteURL("https://b.s3.eu-west-1.amazonaws.com"))
        let location = try #require(BucketLocation(base: base, prefix: ""))
        #expect(location.base.description == "https://b.s3.eu-west-1.amazonaws.com/")
        #expect(location.object("a b/c+d%e/日.jpg")?.description == "https://b.s3.eu-west-1.amazonaws.com/a%20b/c%2Bd%25e/%E6%97%A5.jpg")
        #expect(location.listing(prefix: "a b/")?.description == "https://b.s3.eu-west-1.amazonaws.com/?list-type=2&delimiter=%2F&prefix=a%20b%2F")
        #expect(BucketLocation.isFolderListing(try #require(location.listing(prefix: ""))))
        #expect(!BucketLocation.isFolderListing(try #require(location.allKeys(prefix: ""))))
    }
}
