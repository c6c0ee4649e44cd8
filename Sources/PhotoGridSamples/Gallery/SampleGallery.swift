import PhotoGridCore

/// The sample gallery: a folder of procedural photos in every shape photogrid must handle,
/// with and without EXIF, for trying the browser out and for the tests.
///
/// `entries` is the plan, so tests know what to expect; `write(to:)` makes the files.
/// The output is byte-for-byte the same on every run: scenes are seeded by path, and
/// libjpeg-turbo encodes the same pixels the same way.
package enum SampleGallery {
    /// The subfolders, in the order they are written.
    package static var folders: [String] {
        var seen: [String] = []
        for entry in entries where !seen.contains(entry.folder) { seen.append(entry.folder) }
        return seen
    }

    /// The JPEG file of one entry: the scene rendered upright, turned to its stored orientation,
    /// with its EXIF (and thumbnail) in APP1, then its XMP and IPTC segments if it has them.
    package static func jpeg(for entry: SampleEntry) throws(DecodeError) -> [UInt8] {
        let upright = Scene.render(entry.scene, width: entry.width, height: entry.height, seed: entry.seed)
        let stored = entry.orientation == .up ? upright : entry.orientation.stored(from: upright)
        var app1: [UInt8]?
        if var exif = entry.exif {
            if entry.hasThumbnail { exif.thumbnail = try thumbnail(for: entry) }
            app1 = ExifBuilder.app1(exif)
        }
        let jpeg = try JPEG.encode(stored, quality: entry.quality, progressive: entry.progressive, app1: app1)
        let extra = entry.extraSegments
        return extra.isEmpty ? jpeg : JPEGSegmentsWriter.insert(segments: extra, into: jpeg)
    }

    /// The IFD1 thumbnail of an entry: the same scene fitted in 160x120 and stored the same way up
    /// as the photo, since the Orientation tag applies to both.
    package static func thumbnail(for entry: SampleEntry) throws(DecodeError) -> [UInt8] {
        let scale = min(160 / Double(entry.width), 120 / Double(entry.height))
        let width = max(1, Int((Double(entry.width) * scale).rounded()))
        let height = max(1, Int((Double(entry.height) * scale).rounded()))
        let upright = Scene.render(entry.scene, width: width, height: height, seed: entry.seed)
        let stored = entry.orientation == .up ? upright : entry.orientation.stored(from: upright)
        return try JPEG.encode(stored, quality: 75)
    }

    /// Writes every entry under `folder`, creating the subfolders, and removes the photos an
    /// earlier plan wrote that this one no longer has (files named like ours in our subfolders,
    /// "<scene>-<number>.jpg"). Nothing else is ever deleted.
    /// Calls `progress` after each file with the entry and the number of bytes written.
    package static func write(to folder: String, progress: (SampleEntry, Int) -> Void = { _, _ in }) throws {
        try GalleryFiles.makeDirectory(folder)
        for sub in folders {
            let path = folder + "/" + sub
            try GalleryFiles.makeDirectory(path)
            let planned = Set(entries.filter { $0.folder == sub }.map(\.fileName))
            for name in try GalleryFiles.list(path) where isOurs(name) && !planned.contains(name) {
                try GalleryFiles.remove(path + "/" + name)
            }
        }
        for entry in entries {
            let bytes: [UInt8]
            do { bytes = try jpeg(for: entry) } catch { throw GalleryFiles.Failure(path: entry.path, reason: error.description) }
            try GalleryFiles.write(bytes, to: folder + "/" + entry.path)
            progress(entry, bytes.count)
        }
    }

    /// Whether a file name is one the generator makes: a scene name, a dash, digits, ".jpg".
    static func isOurs(_ name: String) -> Bool {
        guard name.hasSuffix(".jpg"), let dash = name.lastIndex(of: "-") else { return false }
        let number = name[name.index(after: dash)..<name.index(name.endIndex, offsetBy: -4)]
        return Scene(rawValue: String(name[..<dash])) != nil && !number.isEmpty && number.allSatisfy(\.isNumber)
    }
}
