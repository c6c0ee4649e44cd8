/// A manifest's `photos`: the part that is a million entries long, so it is read in one pass
/// over the document's table, and nothing is allocated per photo but what the photo keeps.
extension ManifestReader {
    func photos(_ index: Int, template: RenditionTemplate?, sections: Set<String>) throws(ManifestError) -> [RemotePhoto] {
        let template = template.map { TemplateRenditions(base: url, template: $0) }
        try expect(index, .array, "photos")
        let count = document.count(index)
        guard count <= GalleryManifest.maxPhotos else {
            throw fail(index, "photos", "\(count) photos in one page, more than the \(GalleryManifest.maxPhotos) allowed (continue in \"next\")")
        }
        var photos: [RemotePhoto] = []
        photos.reserveCapacity(count)
        // Each id with the photo that first had it, for the message about the second.
        var ids: [String: Int] = [:]
        ids.reserveCapacity(count)
        for (n, element) in document.elements(index).enumerated() {
            let (photo, idIndex) = try self.photo(element, n, template: template, sections: sections)
            if let first = ids.updateValue(n, forKey: photo.id) {
                throw fail(idIndex, "photos[\(n)].id", "\(ManifestError.quoted(photo.id)) is also the id of photos[\(first)]")
            }
            photos.append(photo)
        }
        return photos
    }

    /// The photo, and where its id is for messages about it.
    private func photo(_ index: Int, _ n: Int, template: TemplateRenditions?,
                       sections: Set<String>) throws(ManifestError) -> (RemotePhoto, idIndex: Int) {
        try expect(index, .object, "photos[\(n)]")
        var id: String?
        var idIndex = index
        var name: String?
        var original: RemoteURL?
        var renditions: [RemotePhoto.Rendition] = []
        var width: Int?, height: Int?, bytes: Int?
        var taken: String?, caption: String?, section: String?
        var latitude: Double?, longitude: Double?
        var camera: RemotePhoto.Camera?
        var partial = false

        for member in document.memberNames(index) {
            let value = member + 1
            let key = document.string(member)
            let path = { "photos[\(n)].\(key)" }
            switch key {
            case "id":
                let text = try string(value, path())
                guard !text.isEmpty else { throw fail(value, path(), "must not be empty") }
                id = text
                idIndex = value
            case "name": name = try string(value, path())
            case "original": original = try link(value, path())
            case "renditions": renditions = try explicitRenditions(value, path())
            case "width": width = try integer(value, path(), minimum: 1)
            case "height": height = try integer(value, path(), minimum: 1)
            case "bytes": bytes = try integer(value, path(), minimum: 0)
            case "taken": taken = try string(value, path())
            case "caption": caption = try string(value, path())
            case "latitude": latitude = try number(value, path(), in: -90...90)
            case "longitude": longitude = try number(value, path(), in: -180...180)
            case "camera": camera = try self.camera(value, path())
            case "partial": partial = try flag(value, path())
            case "section":
                let text = try string(value, path())
                guard sections.contains(text) else {
                    throw fail(value, path(), "no section of this page has the id \(ManifestError.quoted(text))")
                }
                section = text
            default: break
            }
        }
        guard let id else { throw fail(index, "photos[\(n)]", "there is no \"id\"") }
        guard let original else { throw fail(index, "photos[\(n)]", "there is no \"original\"") }

        // The template was checked with a sample id. An id of the characters percent-encoding
        // leaves (unreserved ones, "%" and "/") can only make it fail by starting with "/":
        // "//" at the start of a reference begins a host. Those ids are checked one by one.
        if let template, id.utf8.first == UInt8(ascii: "/"), template.sizes.contains(where: { template.rendition(of: id, size: $0) == nil }) {
            throw fail(idIndex, "photos[\(n)].id", "makes no http or https URL in the renditions template")
        }
        return (RemotePhoto(id: id, name: name, original: original, renditions: renditions, template: template, width: width, height: height,
                           bytes: bytes, taken: taken, caption: caption, latitude: latitude, longitude: longitude, section: section,
                           camera: camera, partial: partial), idIndex)
    }

    private func explicitRenditions(_ index: Int, _ path: String) throws(ManifestError) -> [RemotePhoto.Rendition] {
        try expect(index, .array, path)
        var renditions: [RemotePhoto.Rendition] = []
        for (n, element) in document.elements(index).enumerated() {
            try expect(element, .object, "\(path)[\(n)]")
            var size: Int?
            var url: RemoteURL?
            for member in document.memberNames(element) {
                if document.string(member, is: "size") {
                    size = try integer(member + 1, "\(path)[\(n)].size", minimum: 1)
                } else if document.string(member, is: "url") {
                    url = try link(member + 1, "\(path)[\(n)].url")
                }
            }
            guard let size else { throw fail(element, "\(path)[\(n)]", "there is no \"size\"") }
            guard let url else { throw fail(element, "\(path)[\(n)]", "there is no \"url\"") }
            renditions.append(RemotePhoto.Rendition(size: size, url: url))
        }
        return renditions
    }

    /// A photo's `camera`: each member optional, unknown ones ignored as everywhere.
    private func camera(_ index: Int, _ path: String) throws(ManifestError) -> RemotePhoto.Camera {
        try expect(index, .object, path)
        var camera = RemotePhoto.Camera()
        for member in document.memberNames(index) {
            let value = member + 1
            let key = document.string(member)
            let place = path + "." + key
            switch key {
            case "make": camera.make = try string(value, place)
            case "model": camera.model = try string(value, place)
            case "lens": camera.lens = try string(value, place)
            case "iso":
                let iso = try integer(value, place, minimum: 1)
                guard RemotePhoto.Camera.isoRange.contains(iso) else {
                    throw fail(value, place, "must be at most \(RemotePhoto.Camera.isoRange.upperBound)")
                }
                camera.iso = iso
            case "aperture": camera.aperture = try number(value, place, in: RemotePhoto.Camera.apertureRange)
            case "exposure": camera.exposure = try number(value, place, in: RemotePhoto.Camera.exposureRange)
            case "focalLength": camera.focalLength = try number(value, place, in: RemotePhoto.Camera.focalLengthRange)
            default: break
            }
        }
        return camera
    }
}
