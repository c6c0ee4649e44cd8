import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import GalleryFormats

/// Decides the response to each request: the route, the conditional headers, the status.
/// Knows nothing of sockets, so that what it answers can be followed without the network. Runs
/// on the asking connection's thread, and blocks there (opening files, waiting for renditions).
final class GalleryResponder: Sendable {
    let index: GalleryIndex
    let manifest: ManifestStore
    let renditions: RenditionStore
    /// Asked of every request when the gallery is served beyond loopback.
    let token: AccessToken?

    /// Renditions do not change under their URL unless the photo does, and then their ETag does:
    /// a day's freshness, then a cheap revalidation.
    static let renditionCaching = "public, max-age=86400"
    /// The same for originals: a changed file gets a new ETag.
    static let originalCaching = "public, max-age=86400"
    /// The manifest is revalidated on every visit, so that a client sees a restarted server's
    /// new scan (unchanged, it costs a 304); a client may show the one it has meanwhile, for up
    /// to a week since it last asked (RFC 5861): a second visit starts at once, and photogrid
    /// offers the new scan as soon as the revalidation brings it (docs/remote-gallery.md).
    static let manifestCaching = "max-age=0, stale-while-revalidate=604800"

    init(index: GalleryIndex, manifest: ManifestStore, renditions: RenditionStore, token: AccessToken? = nil) {
        self.token = token
        self.index = index
        self.manifest = manifest
        self.renditions = renditions
    }

    /// The response to a request; never a failure: failures become 404 or 500 here.
    func respond(to request: Request) -> Response {
        guard request.method == "GET" || request.method == "HEAD" else {
            return .text(.methodNotAllowed, "method not allowed", headers: ["Allow": "GET, HEAD"])
        }
        let isHead = request.method == "HEAD"
        var target = request.target
        if let token {
            guard let stripped = token.strip(target) else { return GalleryResponder.unauthorized }
            target = stripped
        }
        do {
            switch Route(target: target) {
            case .manifest:
                return manifestResponse(request, isHead: isHead)
            case .original(let id):
                guard let entry = index.entry(id: id) else { return .notFound }
                return try originalResponse(entry, request, isHead: isHead)
            case .rendition(let id, let size):
                guard renditions.sizes.contains(size), let entry = index.entry(id: id), !entry.photo.format.isVideo else {
                    return .notFound
                }
                return try renditionResponse(entry, size: size, request, isHead: isHead)
            case .batch:
                return .text(.methodNotAllowed, "method not allowed", headers: ["Allow": "POST"])
            case .notFound:
                return .notFound
            }
        } catch {
            return GalleryResponder.failure(error)
        }
    }

    /// What a batch request comes to.
    enum BatchAnswer: Sendable {
        /// Each item's target, and what its part's `Content-Location` says (the target itself,
        /// but for an opening batch's, which are relative to the batch's URL).
        case items([String], locations: [String])
        case refused(Response)
    }

    /// The items a batch request asks for (their targets, in order), or the response that refuses
    /// it: another route, a wrong token, a body that is no batch (`body` nil: it was too long).
    /// An opening batch's items are the manifest's first photos, so it waits for the manifest.
    func batch(_ request: Request) -> BatchAnswer {
        var target = request.target
        if let token {
            guard let stripped = token.strip(target) else { return .refused(GalleryResponder.unauthorized) }
            target = stripped
        }
        guard Route(target: target) == .batch else {
            return .refused(.text(.methodNotAllowed, "method not allowed", headers: ["Allow": "GET, HEAD"]))
        }
        guard let body = request.body else {
            return .refused(.text(.payloadTooLarge, "a batch names at most \(Batch.maxItems) renditions"))
        }
        if let opening = Batch.Opening(body: body) {
            // Items carry the token as the batch did: each is asked for it, as alone.
            let prefix = token.map { "/t/" + String(decoding: $0.secret, as: UTF8.self) } ?? ""
            let locations = GalleryResponder.openingItems(opening, document: manifest.document(), entries: index.entries)
            return .items(locations.map { prefix + "/" + $0 }, locations: locations)
        }
        guard let targets = Batch.targets(in: body) else {
            return .refused(.text(.badRequest, "not a batch: one rendition's path a line, at most \(Batch.maxItems)"))
        }
        return .items(targets, locations: targets)
    }

    /// The renditions an opening batch stands for, relative to the manifest (and the batch) as
    /// its URLs are: for each of the manifest's first photos, the one the client will choose for
    /// the size asked. A photo no rendition covers (the client takes its original) or a video
    /// gets its original, which a batch answers with 404.
    static func openingItems(_ opening: Batch.Opening, document: ManifestStore.Document, entries: [GalleryIndex.Entry]) -> [String] {
        let screen = opening.screen(forPhotos: entries.count)
        return zip(entries, document.shapes).prefix(screen.count).map { entry, shape in
            guard !entry.photo.format.isVideo,
                  let size = Batch.openingSize(sizes: document.sizes, covering: screen.covering, width: shape.width, height: shape.height)
            else { return "originals/" + entry.encodedID }
            return "renditions/\(entry.encodedID)/\(size).jpg"
        }
    }

    /// One item of a batch: a rendition, answered as a GET of it would be; anything else is
    /// not found. The token, when there is one, is asked of each item as of the batch.
    func batchPart(_ target: String) -> Response {
        var path = target
        if let token {
            guard let stripped = token.strip(target) else { return GalleryResponder.unauthorized }
            path = stripped
        }
        guard case .rendition(let id, let size) = Route(target: path), renditions.sizes.contains(size),
              let entry = index.entry(id: id), !entry.photo.format.isVideo else {
            return .notFound
        }
        do {
            return try renditionResponse(entry, size: size, .get(target), isHead: false)
        } catch {
            return GalleryResponder.failure(error)
        }
    }

    private func manifestResponse(_ request: Request, isHead: Bool) -> Response {
        let document = manifest.document()
        let headers: Headers = ["ETag": document.etag, "Cache-Control": GalleryResponder.manifestCaching]
        if let tags = request.headers.first(name: "If-None-Match"), Validators.noneMatch(tags, matches: document.etag) {
            return Response(status: .notModified, headers: headers)
        }
        return .bytes(document.bytes, contentType: "application/json", headers: headers, isHead: isHead)
    }

    private func renditionResponse(_ entry: GalleryIndex.Entry, size: Int, _ request: Request, isHead: Bool) throws -> Response {
        let tags = request.headers.first(name: "If-None-Match")
        switch try renditions.rendition(of: entry, size: size, ifNoneMatch: tags) {
        case .notModified(let etag):
            return Response(status: .notModified, headers: ["ETag": etag, "Cache-Control": GalleryResponder.renditionCaching])
        case .image(let bytes, let etag):
            return .bytes(bytes, contentType: "image/jpeg",
                          headers: ["ETag": etag, "Cache-Control": GalleryResponder.renditionCaching], isHead: isHead)
        }
    }

    /// Without the right token: nothing said of what the gallery holds.
    static let unauthorized = Response.text(.unauthorized, "this gallery needs its access token: browse the URL photogrid serve printed\n")

    /// A failure as the client sees it: a photo that went away is a 404; a photo that cannot be
    /// made smaller, or read, a 500 saying why, in its body and, in the words its tile shows, in
    /// `Photogrid-Reason`.
    static func failure(_ error: Error) -> Response {
        switch error {
        case ConfinedFile.Failure.notFound:
            return .notFound
        case ConfinedFile.Failure.unreadable(let why):
            return .text(.internalServerError, "cannot read the photo: \(why)", headers: reason("unreadable"))
        case let error as DecodeError:
            // The photo's own fault: said in words a client shows in the photo's tile.
            return .text(.internalServerError, "cannot make a rendition: \(error)", headers: reason(error.description))
        default:
            return .text(.internalServerError, "server error: \(error)")
        }
    }

    /// The `Photogrid-Reason` header: printable ASCII, as a header value must be.
    static func reason(_ text: String) -> Headers {
        [FetchError.reasonHeader: FetchError.printable(text)]
    }
}
