/// Reads a `GalleryManifest` off a parsed JSON document, checking each value against
/// docs/remote-gallery.md and reporting the first fault at the value's own line and column.
///
/// Unknown members are skipped, so that later versions can add some. Of two members with one
/// name the last counts, as JavaScript's `JSON.parse` has it. Paths for messages are built only
/// when a fault is reported: a million photos make no strings they do not keep.
struct ManifestReader {
    let document: JSONDocument
    let url: RemoteURL

    func manifest() throws(ManifestError) -> GalleryManifest {
        let root = JSONDocument.root
        guard document.kind(root) == .object else {
            throw fail(root, nil, "a manifest is a JSON object, and this is \(describe(root))")
        }
        var members: [String: Int] = [:]
        for name in document.memberNames(root) { members[document.string(name)] = name + 1 }

        // The version first: a later version's other members may mean something else.
        guard let version = members["photogrid"] else {
            throw fail(root, nil, "not a photogrid manifest: there is no \"photogrid\" member")
        }
        guard document.kind(version) == .number else { throw fail(version, "photogrid", "expected the number 1, found \(describe(version))") }
        guard document.integer(version) == GalleryManifest.version else {
            throw fail(version, "photogrid", "version \(text(version)) is not supported (this photogrid reads version 1)")
        }

        var manifest = GalleryManifest()
        if let title = members["title"] { manifest.title = try string(title, "title") }
        let template = try members["renditions"].map { index throws(ManifestError) in try renditionTemplate(index) }
        var sectionIDs = Set<String>()
        if let sections = members["sections"] {
            manifest.sections = try self.sections(sections)
            sectionIDs = Set(manifest.sections.map(\.id))
        }
        guard let photos = members["photos"] else { throw fail(root, nil, "there is no \"photos\" member") }
        manifest.photos = try self.photos(photos, template: template, sections: sectionIDs)
        if let next = members["next"] {
            let nextURL = try link(next, "next")
            guard nextURL != url else { throw fail(next, "next", "is this same page, which would never end") }
            manifest.next = nextURL
        }
        if let batch = members["batch"] { manifest.batch = try link(batch, "batch") }
        return manifest
    }

    private func renditionTemplate(_ index: Int) throws(ManifestError) -> RenditionTemplate {
        try expect(index, .object, "renditions")
        var templateIndex: Int?
        var sizesIndex: Int?
        for name in document.memberNames(index) {
            if document.string(name, is: "template") { templateIndex = name + 1 }
            if document.string(name, is: "sizes") { sizesIndex = name + 1 }
        }
        guard let templateIndex else { throw fail(index, "renditions", "there is no \"template\"") }
        guard let sizesIndex else { throw fail(index, "renditions", "there are no \"sizes\"") }
        let text = try string(templateIndex, "renditions.template")
        try expect(sizesIndex, .array, "renditions.sizes")
        var sizes: [Int] = []
        for (n, size) in document.elements(sizesIndex).enumerated() {
            sizes.append(try integer(size, "renditions.sizes[\(n)]", minimum: 1))
        }
        guard !sizes.isEmpty else { throw fail(sizesIndex, "renditions.sizes", "expected at least one size") }
        let template = RenditionTemplate(text, sizes: sizes)
        guard template.hasID else { throw fail(templateIndex, "renditions.template", "has no {id}, so every photo would share its renditions") }
        guard template.hasSize || template.sizes.count == 1 else {
            throw fail(templateIndex, "renditions.template", "has no {size}, so its \(template.sizes.count) sizes would share one URL")
        }
        guard url.resolving(template.reference(encodedID: "id", size: template.sizes[0])) != nil else {
            throw fail(templateIndex, "renditions.template", "does not make http or https URLs")
        }
        return template
    }

    private func sections(_ index: Int) throws(ManifestError) -> [(id: String, title: String?)] {
        try expect(index, .array, "sections")
        var sections: [(id: String, title: String?)] = []
        var seen = Set<String>()
        for (n, section) in document.elements(index).enumerated() {
            try expect(section, .object, "sections[\(n)]")
            var id: String?
            var title: String?
            for name in document.memberNames(section) {
                if document.string(name, is: "id") {
                    id = try string(name + 1, "sections[\(n)].id")
                    guard seen.insert(id!).inserted else {
                        throw fail(name + 1, "sections[\(n)].id", "\(ManifestError.quoted(id!)) is the id of an earlier section too")
                    }
                } else if document.string(name, is: "title") {
                    title = try string(name + 1, "sections[\(n)].title")
                }
            }
            guard let id else { throw fail(section, "sections[\(n)]", "there is no \"id\"") }
            sections.append((id, title))
        }
        return sections
    }

    // MARK: - Values

    /// Fails unless the value at `index` is of `kind` (either string kind for a string).
    func expect(_ index: Int, _ kind: JSONDocument.Kind, _ path: @autoclosure () -> String) throws(ManifestError) {
        guard document.kind(index) != kind else { return }
        let wanted = switch kind {
        case .object: "an object"
        case .array: "an array"
        default: "a string"
        }
        throw fail(index, path(), "expected \(wanted), found \(describe(index))")
    }

    func flag(_ index: Int, _ path: @autoclosure () -> String) throws(ManifestError) -> Bool {
        switch document.kind(index) {
        case .true: return true
        case .false: return false
        default: throw fail(index, path(), "expected true or false, found \(describe(index))")
        }
    }

    func string(_ index: Int, _ path: @autoclosure () -> String) throws(ManifestError) -> String {
        guard document.isString(index) else { throw fail(index, path(), "expected a string, found \(describe(index))") }
        return document.string(index)
    }

    func integer(_ index: Int, _ path: @autoclosure () -> String, minimum: Int) throws(ManifestError) -> Int {
        guard let value = document.integer(index) else {
            throw fail(index, path(), "expected a whole number, found \(describe(index))")
        }
        guard value >= minimum else { throw fail(index, path(), "expected a whole number of at least \(minimum), found \(value)") }
        return value
    }

    func number(_ index: Int, _ path: @autoclosure () -> String, in range: ClosedRange<Double>) throws(ManifestError) -> Double {
        guard document.kind(index) == .number else { throw fail(index, path(), "expected a number, found \(describe(index))") }
        let value = document.number(index)
        guard range.contains(value) else {
            throw fail(index, path(), "\(text(index)) is out of range (\(Int(range.lowerBound)) to \(Int(range.upperBound)))")
        }
        return value
    }

    /// A URL string, resolved against the manifest's URL.
    func link(_ index: Int, _ path: @autoclosure () -> String) throws(ManifestError) -> RemoteURL {
        let reference = try string(index, path())
        guard let resolved = url.resolving(reference) else { throw fail(index, path(), "not an http or https URL") }
        return resolved
    }

    // MARK: - Messages

    func fail(_ index: Int, _ path: String?, _ message: String) -> ManifestError {
        let (line, column) = document.location(of: document.offset(index))
        return ManifestError(url, line: line, column: column, path: path, message: message)
    }

    /// What a value is, for "expected ..., found ...".
    func describe(_ index: Int) -> String {
        switch document.kind(index) {
        case .null: return "null"
        case .true: return "true"
        case .false: return "false"
        case .number: return text(index)
        case .plainString, .escapedString: return "a string"
        case .array: return "an array"
        case .object: return "an object"
        }
    }

    /// A number as written (at most 30 characters of it).
    func text(_ index: Int) -> String {
        let start = document.offset(index)
        let end = min(Int(document.entries[index].extent), start + 30)
        return String(decoding: document.bytes[start..<end], as: UTF8.self)
    }
}
