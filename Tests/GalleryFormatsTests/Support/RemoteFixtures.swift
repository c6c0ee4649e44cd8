import Foundation
@testable import GalleryFormats

/// The files under Tests/Fixtures (the listings real servers made, see its README) and the
/// repository's docs, read by path from this source file's place in the tree.
enum RemoteFixtures {
    static let repository = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static func bytes(_ relativePath: String) throws -> [UInt8] {
        let path = repository.appendingPathComponent(relativePath).path
        guard let data = FileManager.default.contents(atPath: path) else { throw Missing(path: path) }
        return [UInt8](data)
    }

    static func listing(_ name: String) throws -> [UInt8] { try bytes("Tests/Fixtures/listings/" + name) }

    /// The first ```json block of docs/remote-gallery.md: the manifest example, as the doc shows it.
    static func docExample() throws -> [UInt8] {
        let doc = String(decoding: try bytes("docs/remote-gallery.md"), as: UTF8.self)
        guard let start = doc.range(of: "```json\n"), let end = doc.range(of: "\n```", range: start.upperBound..<doc.endIndex) else {
            throw Missing(path: "docs/remote-gallery.md: a json block")
        }
        return Array(doc[start.upperBound..<end.lowerBound].utf8)
    }

    struct Missing: Error { let path: String }
}

/// A URL the test knows to be valid.
func remoteURL(_ text: String) -> RemoteURL {
    guard let url = RemoteURL(text) else { fatalError("not a RemoteURL: \(text)") }
    return url
}
