/// What an S3-compatible server says in XML: a ListObjectsV2 answer (`ListBucketResult`: each
/// object's `Key`, `Size` and `ETag`, each common prefix, whether there is more and the token
/// for it), or an error (`<Error><Code>AccessDenied</Code><Message>...`). Read with a plain tag
/// scanner that knows elements by their local names and expands only XML's five entities and
/// character references, so no document can grow as it is read.
package struct BucketAnswer: Sendable {
    package struct Object: Sendable, Equatable {
        package var key: String
        package var size: Int
        /// Without its quotes: a single upload's is the hex MD5 of its bytes.
        package var etag: String
    }

    package var name: String?
    package var prefix: String?
    package var objects: [Object] = []
    package var prefixes: [String] = []
    package var truncated = false
    package var nextToken: String?

    /// The listing in `bytes`; nil when it is no `ListBucketResult`.
    package static func listing(_ bytes: [UInt8]) -> BucketAnswer? {
        var answer = BucketAnswer(), sawResult = false
        var object = Object(key: "", size: 0, etag: "")
        var inContents = false, inPrefixes = false
        scan(bytes) { name, closing, text in
            switch (name, closing) {
            case ("ListBucketResult", false): sawResult = true
            case ("Contents", false): (inContents, object) = (true, Object(key: "", size: 0, etag: ""))
            case ("Contents", true):
                inContents = false
                answer.objects.append(object)
            case ("CommonPrefixes", false): inPrefixes = true
            case ("CommonPrefixes", true): inPrefixes = false
            case ("Key", true) where inContents: object.key = text()
            case ("Size", true) where inContents: object.size = Int(text()) ?? 0
            case ("ETag", true) where inContents: object.etag = text().filter { $0 != "\"" }
            case ("Prefix", true) where inPrefixes: answer.prefixes.append(text())
            case ("Prefix", true) where !inContents: answer.prefix = text()
            case ("Name", true): answer.name = text()
            case ("IsTruncated", true): answer.truncated = text() == "true"
            case ("NextContinuationToken", true): answer.nextToken = text()
            default: break
            }
        }
        return sawResult ? answer : nil
    }

    /// An S3 error document's code and message (`AccessDenied`, "Access Denied"); nil when the
    /// body is none.
    package static func error(_ bytes: [UInt8]) -> (code: String, message: String?)? {
        guard DirectoryListing.firstSignificantByte(bytes) == UInt8(ascii: "<") else { return nil }
        var code: String?, message: String?, inError = false
        scan(bytes.count > 65_536 ? Array(bytes.prefix(65_536)) : bytes) { name, closing, text in
            switch (name, closing) {
            case ("Error", false): inError = true
            case ("Code", true) where inError && code == nil: code = text()
            case ("Message", true) where inError && message == nil: message = text()
            default: break
            }
        }
        return code.map { ($0, message) }
    }

    /// The tags of `bytes` (`DirectoryListing.scanTags`), their text as strings.
    private static func scan(_ bytes: [UInt8], element: (String, Bool, () -> String) -> Void) {
        DirectoryListing.scanTags(bytes) { name, closing, text in
            withoutActuallyEscaping(text) { text in element(name, closing) { String(decoding: text(), as: UTF8.self) } }
        }
    }

    /// The text of the first element named `name` (a multipart upload's `UploadId`).
    package static func value(_ name: String, in bytes: [UInt8]) -> String? {
        var found: String?
        scan(bytes) { element, closing, text in
            if closing, element == name, found == nil { found = text() }
        }
        return found
    }

}

extension DirectoryListing {
    /// The files and folders of one page of a bucket's listing, asked for at `url` (see
    /// `BucketLocation`): keys below the prefix as files, common prefixes as folders (each its
    /// own listing's URL), and the next page's URL in `more`. Keys no file could be named after
    /// (empty below the prefix, "." or "..", a NUL) are left out, as in other listings; nil when
    /// the body is no listing.
    package static func bucket(_ bytes: [UInt8], url: RemoteURL) -> DirectoryListing? {
        guard let location = BucketLocation(listingURL: url), let answer = BucketAnswer.listing(bytes) else { return nil }
        let prefix = location.prefix
        var listing = DirectoryListing()
        listing.isBucket = true
        func below(_ key: String) -> String? {
            guard key.hasPrefix(prefix) else { return nil }
            let name = String(key.dropFirst(prefix.count))
            guard !name.isEmpty, name != ".", name != "..", !name.contains("\0"), !name.contains("/") else { return nil }
            return name
        }
        for object in answer.objects {
            guard let name = below(object.key), let target = location.object(object.key) else { continue }
            listing.files.append((name, target))
        }
        for folder in answer.prefixes where folder.hasSuffix("/") {
            guard let name = below(String(folder.dropLast())), let target = location.listing(prefix: folder) else { continue }
            listing.folders.append((name, target))
        }
        if answer.truncated, let token = answer.nextToken, !token.isEmpty {
            listing.more = location.listing(prefix: prefix, continuation: token)
        }
        return listing
    }
}
