import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// What `export DIR s3://...` asks of a bucket, one request at a time, none through the cache:
/// every key under a prefix, an upload (in parts past `partSize`), a deletion. Counts its
/// requests, so that a second export of an unchanged folder can be seen to upload nothing.
package final class BucketClient: Sendable {
    package let location: BucketLocation
    let loop: TransferLoop
    private let counted = Locked(0)
    /// Larger files go up in parts of this size (S3 takes 5 MB to 5 GB a part, and one PUT
    /// of at most 5 GB): a photographer's originals, a video.
    package static let partSize = 16 << 20
    /// A listing page's largest answer.
    static let documentLimit = 16 << 20

    package init(location: BucketLocation, loop: TransferLoop) {
        (self.location, self.loop) = (location, loop)
    }

    /// Requests made so far.
    package var requests: Int { counted.withLock { $0 } }

    /// Every object under `prefix`, at any depth, by key.
    package func objects(under prefix: String) throws(FetchError) -> [String: BucketAnswer.Object] {
        var objects: [String: BucketAnswer.Object] = [:]
        var token: String?
        repeat {
            guard let url = location.allKeys(prefix: prefix, continuation: token) else { throw .badURL(location.base.description) }
            let (head, body) = try send(TransferRequest(url: url, limit: BucketClient.documentLimit))
            guard let answer = BucketAnswer.listing(body) else {
                throw .unusable("\(head.url): the answer is not a bucket's listing")
            }
            for object in answer.objects { objects[object.key] = object }
            token = answer.truncated ? answer.nextToken : nil
        } while token != nil
        return objects
    }

    /// Puts the file at `path` as `key`; in parts when it is larger than `partSize`.
    package func upload(_ path: RawPath, size: Int, as key: String, type: String, cacheControl: String) throws(FetchError) {
        guard let url = location.object(key) else { throw .badURL(key) }
        let headers = ["Cache-Control: \(cacheControl)"]
        if size <= BucketClient.partSize {
            let body = try read(path, at: 0, count: size)
            var request = TransferRequest(url: url, limit: 1 << 20)
            request.method = .put(body: body, type: type)
            request.headers = headers
            _ = try send(request)
            return
        }
        // CreateMultipartUpload, UploadPart for each piece, CompleteMultipartUpload with their ETags.
        guard let start = RemoteURL(url.description + "?uploads") else { throw .badURL(key) }
        var create = TransferRequest(url: start, limit: 1 << 20)
        create.method = .post(body: [], type: type)
        create.headers = headers
        let (_, created) = try send(create)
        guard let id = BucketAnswer.value("UploadId", in: created) else { throw .unusable("\(url): no upload id in the answer") }
        let idQuery = "uploadId=" + BucketLocation.encode(Array(id.utf8), keepingSlash: false)
        var tags: [String] = []
        do throws(FetchError) {
            var offset = 0
            while offset < size {
                let count = min(BucketClient.partSize, size - offset)
                guard let partURL = RemoteURL(url.description + "?partNumber=\(tags.count + 1)&" + idQuery) else { throw .badURL(key) }
                var part = TransferRequest(url: partURL, limit: 1 << 20)
                part.method = .put(body: try read(path, at: offset, count: count), type: type)
                let (head, _) = try send(part)
                guard let tag = head.header("ETag") else { throw .unusable("\(url): a part's answer has no ETag") }
                tags.append(tag)
                offset += count
            }
            let parts = tags.enumerated().map { "<Part><PartNumber>\($0.offset + 1)</PartNumber><ETag>\(BucketClient.escaped($0.element))</ETag></Part>" }
            guard let finish = RemoteURL(url.description + "?" + idQuery) else { throw .badURL(key) }
            var complete = TransferRequest(url: finish, limit: 1 << 20)
            complete.method = .post(body: Array(("<CompleteMultipartUpload>" + parts.joined() + "</CompleteMultipartUpload>").utf8), type: "application/xml")
            let (_, answer) = try send(complete)
            // S3 may answer 200 and put its error in the body.
            if let refused = BucketAnswer.error(answer) { throw .bucket(200, code: refused.code, url.description) }
        } catch {
            if let abort = RemoteURL(url.description + "?" + idQuery) {
                var request = TransferRequest(url: abort, limit: 1 << 20)
                request.method = .delete
                _ = try? send(request)
            }
            throw error
        }
    }

    package func delete(_ key: String) throws(FetchError) {
        guard let url = location.object(key) else { throw .badURL(key) }
        var request = TransferRequest(url: url, limit: 1 << 20)
        request.method = .delete
        _ = try send(request)
    }

    /// One request, waited for: its head and body, or why it failed (a refusal by its S3 code).
    func send(_ request: TransferRequest) throws(FetchError) -> (ResponseHead, [UInt8]) {
        var request = request
        request.followsRedirects = false
        request.retries = 3
        counted.withLock { $0 += 1 }
        let answer = Pending<Result<(ResponseHead, [UInt8]), FetchError>>()
        loop.start(Transfer(request, .collect { answer.fulfil($0) }))
        let (head, body) = try answer.wait().get()
        guard (200..<300).contains(head.status) else { throw FetchError.refusal(head, body: body) }
        return (head, body)
    }

    private func read(_ path: RawPath, at offset: Int, count: Int) throws(FetchError) -> [UInt8] {
        let bytes: [UInt8]
        do throws(SystemError) {
            let file = try FileDescriptor.open(path, .read)
            defer { try? file.close() }
            bytes = try file.read(upTo: count, at: offset)
        } catch {
            throw .interrupted("cannot read \(path): \(error)")
        }
        guard bytes.count == count else { throw .interrupted("\(path) changed while it was uploaded") }
        return bytes
    }

    static func escaped(_ text: String) -> String {
        var out = ""
        for character in text {
            switch character {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            default: out.append(character)
            }
        }
        return out
    }
}
