import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A camera set to RAW+JPEG writes each shot twice, `IMG_0042.CR2` beside `IMG_0042.JPG`: the
/// grid shows one tile for the two (the JPEG, with a RAW badge), as photographers' tools do, and
/// the acting keys (ratings, the trash, `-o`) act on both. Paired by folder and name, the case of
/// the name and of the extension aside; a raw file alone, or beside two JPEGs of its name, stays
/// a tile of its own.
package enum RawPairs {
    /// `photos` without the raw files that have a JPEG (or HEIF) of their name beside them, and
    /// those raw files by the source of the picture they go with.
    package static func pair(_ photos: [Photo]) -> (shown: [Photo], raws: [PhotoSource: Photo]) {
        guard photos.contains(where: { $0.format.isRaw }) else { return (photos, [:]) }
        func key(_ photo: Photo) -> [UInt8]? {
            guard let file = photo.file else { return nil }
            let name = file.lastComponent.bytes
            guard let dot = name.lastIndex(of: UInt8(ascii: ".")), dot > 0 else { return nil }
            return file.parent.bytes + [0] + name[..<dot].map { $0 >= 0x41 && $0 <= 0x5A ? $0 + 32 : $0 }
        }
        var pictures: [[UInt8]: [Photo]] = [:]
        for photo in photos where photo.format == .jpeg || photo.format == .heif {
            if let key = key(photo) { pictures[key, default: []].append(photo) }
        }
        var raws: [PhotoSource: Photo] = [:], paired: Set<PhotoSource> = []
        for photo in photos where photo.format.isRaw {
            guard let key = key(photo), let partners = pictures[key], partners.count == 1, raws[partners[0].source] == nil else { continue }
            raws[partners[0].source] = photo
            paired.insert(photo.source)
        }
        return (photos.filter { !paired.contains($0.source) }, raws)
    }
}
