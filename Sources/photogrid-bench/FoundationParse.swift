import FoundationEssentials
import GalleryFormats

/// The same inputs as `ParseReport`'s, read with FoundationEssentials instead of photogrid's own
/// JSON parser and URL resolver (issue 16: use the library where it is within 1.5x of ours).
/// `JSONDecoder` into Codable types shaped like the manifest, and `URL(string:relativeTo:)` for
/// each photo's original, as `GalleryManifest.parse` resolves them.
enum FoundationParse {
    struct Object: Decodable { var id: String; var width: Int; var caption: String; var ok: Bool }

    struct Manifest: Decodable {
        struct Renditions: Decodable { var template: String; var sizes: [Int] }
        package struct Photo: Decodable {
            var id: String
            var width: Int?, height: Int?, bytes: Int?
            var taken: String?
            var original: String
        }
        var photogrid: Int
        var title: String?
        var renditions: Renditions?
        var photos: [Photo]
    }

    /// 200,000 objects into an array of structs.
    static func objects(_ bytes: [UInt8]) throws -> Any {
        let decoded = try JSONDecoder().decode([Object].self, from: Data(bytes))
        precondition(decoded.count == 200_000)
        return decoded
    }

    /// A million-photo manifest into structs, each original resolved against the manifest's URL.
    static func manifest(_ bytes: [UInt8]) throws -> Any {
        let base = URL(string: "https://photos.example/g/manifest.json")!
        let decoded = try JSONDecoder().decode(Manifest.self, from: Data(bytes))
        let originals = decoded.photos.map { URL(string: $0.original, relativeTo: base)!.absoluteURL }
        precondition(originals.count == 1_000_000)
        return (decoded, originals)
    }

    /// A million relative references resolved: Foundation's URL, then photogrid's RemoteURL.
    static func references(_ count: Int) -> [String] { (0..<count).map { "originals/2024/alps/IMG%20\(1_000_000 + $0).jpg" } }

    static func resolveWithFoundation(_ references: [String]) -> Any {
        let base = URL(string: "https://photos.example/g/manifest.json")!
        return references.map { URL(string: $0, relativeTo: base)!.absoluteString }
    }

    static func resolveWithRemoteURL(_ references: [String]) -> Any {
        let base = RemoteURL("https://photos.example/g/manifest.json")!
        return references.map { base.resolving($0)!.description }
    }
}
