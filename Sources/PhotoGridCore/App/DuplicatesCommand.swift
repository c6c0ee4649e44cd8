import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem

/// `photogrid --duplicates [FOLDER]`: the groups of identical photos (the same bytes) and of
/// near-identical ones (a burst, a copy saved again: `Bursts`, as the grid's stacks), for
/// scripts. Each group is a paragraph: a line "# identical (N)" or "# near-identical (N)", then
/// its paths, one a line; a blank line between groups. A raw file shown with its JPEG is not a
/// duplicate of it and is left out. A summary goes to stderr, so that stdout holds groups alone.
package enum DuplicatesCommand {
    package static func run(_ options: Options) throws -> Int32 {
        var options = options
        // Read whole and at once: nothing is shown meanwhile.
        options.print = true
        options.watch = false
        let source = try options.fileList.map { try GallerySource.list(options, $0) } ?? GallerySource.folder(options)
        let photos = RawPairs.pair(source.photos).0.filter { $0.file != nil }
        let identical = identicalGroups(photos)
        let dates = CaptureDates(readingNow: photos, reader: source.infoReader, catalog: source.catalog).dates
        let near = StackScan.groups(photos, dates: dates, decoder: PhotoDecoder()).filter { group in
            // A pair of copies and nothing else is said once, as identical.
            !identical.contains { Set($0) == Set(group) }
        }
        var out: [UInt8] = []
        for (words, groups) in [("identical", identical), ("near-identical", near)] {
            for group in groups {
                if !out.isEmpty { out.append(10) }
                out += Array("# \(words) (\(group.count))\n".utf8)
                for photo in group { out += photo.bytes + [10] }
            }
        }
        try TTY.writeAll(out)
        let summary = "\(identical.count) group\(identical.count == 1 ? "" : "s") of identical photos, \(near.count) of near-identical, among \(photos.count) photos"
        _ = try? TTY.writeAll(Array(("photogrid: " + summary + "\n").utf8), to: 2)
        return 0
    }

    /// Files of the same size compared byte for byte: groups of two or more, in the list's order.
    static func identicalGroups(_ photos: [Photo]) -> [[PhotoSource]] {
        var bySize: [Int: [Photo]] = [:]
        for photo in photos {
            guard let size = photo.stamp?.size ?? photo.file?.status()?.size, size > 0 else { continue }
            bySize[size, default: []].append(photo)
        }
        var groups: [[PhotoSource]] = []
        for (_, same) in bySize where same.count > 1 {
            var left = same
            while let first = left.first {
                let copies = left.dropFirst().filter { FileMove.sameBytes(first.file!, $0.file!) }
                if !copies.isEmpty { groups.append([first.source] + copies.map(\.source)) }
                let taken = Set(copies.map(\.source) + [first.source])
                left.removeAll { taken.contains($0.source) }
            }
        }
        let order = Dictionary(photos.enumerated().map { ($1.source, $0) }, uniquingKeysWith: { a, _ in a })
        return groups.map { $0.sorted { order[$0]! < order[$1]! } }.sorted { order[$0[0]]! < order[$1[0]]! }
    }
}
