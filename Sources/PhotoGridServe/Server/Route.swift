import GalleryFormats

/// What a request asks for, read from its target (`/renditions/alps/lake-01.jpg/512.jpg?x=1`).
///
/// The path is percent-decoded once, then matched; ids stay bytes, to be looked up among the
/// photos the scan found and nowhere else. Nothing here touches the file system, so no spelling
/// of `..`, no absolute path and no NUL can lead outside the served folder: at worst it names no
/// photo, and the request gets a 404.
enum Route: Equatable {
    case manifest
    case original(id: [UInt8])
    case rendition(id: [UInt8], size: Int)
    /// Many renditions in one request (`POST /batch`, docs/remote-gallery.md, "Batches").
    case batch
    case notFound

    /// The route of a request target. Only origin-form targets (starting with `/`) are served:
    /// the absolute form is for proxies, and `*` for OPTIONS.
    init(target: String) {
        let path = Route.path(of: target)
        guard path.hasPrefix("/"), let decoded = RemoteURL.strictlyPercentDecoded(path.utf8),
              !decoded.contains(0) else {
            self = .notFound
            return
        }
        self = Route.match(decoded)
    }

    /// The target without its query or fragment: what `requestCount(path:)` counts by.
    package static func path(of target: String) -> Substring {
        let end = target.firstIndex { $0 == "?" || $0 == "#" } ?? target.endIndex
        return target[..<end]
    }

    private static let originals = Array("/originals/".utf8)
    private static let renditions = Array("/renditions/".utf8)
    private static let jpegSuffix = Array(".jpg".utf8)

    private static func match(_ path: [UInt8]) -> Route {
        if path == Array("/".utf8) || path == Array("/manifest.json".utf8) { return .manifest }
        if path == Array("/batch".utf8) { return .batch }
        if path.starts(with: originals) {
            let id = Array(path.dropFirst(originals.count))
            return id.isEmpty ? .notFound : .original(id: id)
        }
        if path.starts(with: renditions) {
            // The id may hold slashes; the size is whatever follows the last one.
            let rest = path.dropFirst(renditions.count)
            guard let slash = rest.lastIndex(of: UInt8(ascii: "/")) else { return .notFound }
            let id = Array(rest[..<slash])
            let file = rest[(slash + 1)...]
            guard !id.isEmpty, file.count > jpegSuffix.count, file.reversed().starts(with: jpegSuffix.reversed()) else { return .notFound }
            let digits = file.dropLast(jpegSuffix.count)
            // Plain decimal digits only, and few enough of them not to overflow: "+512" or
            // "0512" name no rendition.
            guard digits.count <= 6, digits.first != UInt8(ascii: "0"),
                  digits.allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }) else { return .notFound }
            let size = digits.reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) }
            return .rendition(id: id, size: size)
        }
        return .notFound
    }
}
