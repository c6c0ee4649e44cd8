/// A manifest's `renditions` member: a URL template with `{id}` and `{size}` in it, and the
/// sizes to fill in.
struct RenditionTemplate: Sendable {
    private enum Part: Equatable, Sendable {
        case text(String)
        case id
        case size
    }

    private let parts: [Part]
    let sizes: [Int]
    let hasID: Bool
    let hasSize: Bool

    init(_ template: String, sizes: [Int]) {
        var parts: [Part] = []
        var rest = Substring(template)
        while let brace = rest.firstIndex(of: "{") {
            let after = rest[brace...]
            let part: Part? = after.hasPrefix("{id}") ? .id : after.hasPrefix("{size}") ? .size : nil
            guard let part else {
                parts.append(.text(String(rest[...brace])))
                rest = rest[rest.index(after: brace)...]
                continue
            }
            parts.append(.text(String(rest[..<brace])))
            parts.append(part)
            rest = rest[brace...].dropFirst(part == .id ? 4 : 6)
        }
        parts.append(.text(String(rest)))
        self.parts = parts
        hasID = parts.contains { $0 == .id }
        hasSize = parts.contains { $0 == .size }
        // Sorted and without repeats, as `RemotePhoto.renditions` keeps them.
        self.sizes = Array(Set(sizes)).sorted()
    }

    /// The relative URL of one rendition; `encodedID` is the id already percent-encoded.
    func reference(encodedID: String, size: Int) -> String {
        var text = ""
        for part in parts {
            switch part {
            case let .text(literal): text += literal
            case .id: text += encodedID
            case .size: text += String(size)
            }
        }
        return text
    }
}

/// A manifest's rendition template with the URL it is resolved against, shared by all the
/// manifest's photos.
final class TemplateRenditions: Sendable {
    let base: RemoteURL
    let template: RenditionTemplate

    init(base: RemoteURL, template: RenditionTemplate) {
        self.base = base
        self.template = template
    }

    var sizes: [Int] { template.sizes }

    /// nil only for ids the manifest reader has already refused (see `ManifestReader`).
    func rendition(of id: String, size: Int) -> RemotePhoto.Rendition? {
        base.resolving(template.reference(encodedID: RemoteURL.percentEncode(path: id), size: size))
            .map { RemotePhoto.Rendition(size: size, url: $0) }
    }
}
