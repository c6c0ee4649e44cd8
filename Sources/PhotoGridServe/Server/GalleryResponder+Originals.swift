/// Originals: the file as it is, whole or one byte range of it, with the validators that let a
/// client resume a download (`If-Range`) or keep its copy (`If-None-Match`).
extension GalleryResponder {
    func originalResponse(_ entry: GalleryIndex.Entry, _ request: Request, isHead: Bool) throws -> Response {
        // Any size: the file goes out with sendfile, never through memory (a video may be
        // gigabytes).
        let file = try ConfinedFile(entry.file, inside: index.root, limit: .max)
        return GalleryResponder.original(file, request, isHead: isHead, mediaType: entry.photo.format.mediaType)
    }

    /// The response for an opened original, following RFC 9110 §13.2.2's order: If-None-Match,
    /// then Range under If-Range.
    static func original(_ file: ConfinedFile, _ request: Request, isHead: Bool, mediaType: String = "image/jpeg") -> Response {
        let etag = Validators.etag(inode: file.inode, size: file.size, modified: file.modified)
        let lastModified = Validators.httpDate(secondsSinceEpoch: file.modified / 1_000_000_000)
        var headers: Headers = [
            "ETag": etag, "Last-Modified": lastModified, "Cache-Control": originalCaching, "Accept-Ranges": "bytes",
        ]
        if let tags = request.headers.first(name: "If-None-Match"), Validators.noneMatch(tags, matches: etag) {
            return Response(status: .notModified, headers: headers)
        }
        headers.add(name: "Content-Type", value: mediaType)

        var range = 0..<file.size
        var status = Status.ok
        if let rangeHeader = request.headers.first(name: "Range"), let asked = ByteRange(header: rangeHeader),
           request.headers.first(name: "If-Range").map({ Validators.ifRange($0, etag: etag, lastModified: lastModified) }) ?? true {
            switch asked.resolve(size: file.size) {
            case .bytes(let bytes):
                range = bytes
                status = .partialContent
                headers.add(name: "Content-Range", value: "bytes \(bytes.lowerBound)-\(bytes.upperBound - 1)/\(file.size)")
            case .unsatisfiable:
                headers.remove(name: "Content-Type")
                headers.add(name: "Content-Range", value: "bytes */\(file.size)")
                return .text(.rangeNotSatisfiable, "range not satisfiable", headers: headers)
            }
        }
        headers.add(name: "Content-Length", value: String(range.count))
        // An empty file has nothing for sendfile to send.
        let body: Response.Body = isHead || range.isEmpty ? .none : .file(file, range)
        return Response(status: status, headers: headers, body: body)
    }
}
