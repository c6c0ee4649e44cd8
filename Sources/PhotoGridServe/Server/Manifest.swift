import GalleryFormats
import PhotoGridDecoding
import PhotoGridDiskCache
import PhotoGridGallery
import PhotoGridLoading
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The gallery manifest, version 1 (docs/remote-gallery.md), of a served folder: what a photo's
/// head says about it, and the JSON document made of all of them.
enum Manifest {
    /// What the manifest says of one photo beyond its id and URLs; each field nil when the file
    /// does not say.
    struct Details: Sendable, Equatable {
        var width: Int?
        var height: Int?
        var taken: String?
        var caption: String?
        var latitude: Double?
        var longitude: Double?
        var camera = RemotePhoto.Camera()
        /// The file ends before its picture does (still being copied, or cut): its renditions
        /// show what there is, and the client marks its tiles as it marks a local one's.
        var partial = false
    }

    /// Bytes read first. Most files keep everything before the image data well inside this; a
    /// longer EXIF, XMP or ICC segment is cut, `JPEGSegments` ignores a cut segment and stops,
    /// no frame size comes out, and more is read. 16 KB rather than 128 KB keeps a start on
    /// 10,000 photos from copying over a gigabyte.
    static let firstHead = 16 * 1024
    /// Reads grow by this factor, up to `lastHead`, while no frame size is found.
    static let headGrowth = 8
    static let lastHead = 2 * 1024 * 1024

    /// The details of a photo, from its file read through `ConfinedFile` like everything served.
    /// As locally, the caption of the photo's XMP sidecar goes before the file's own.
    static func details(of entry: GalleryIndex.Entry, root: RawPath) -> Details {
        guard let file = try? ConfinedFile(entry.file, inside: root) else { return Details() }
        return details(of: entry, in: file)
    }

    /// The same from the photo's file already open (an export, which reads it whole next).
    static func details(of entry: GalleryIndex.Entry, in file: ConfinedFile) -> Details {
        var length = firstHead
        while true {
            guard let head = try? file.head(length) else { return Details() }
            // Other formats say their size in their first bytes (PNG's IHDR, a HEIF's ispe box).
            if let content = ImageFormat(content: Array(head.prefix(16))), content != .jpeg {
                let more = head.count < length ? head : (try? file.head(otherHead)) ?? head
                guard content.isDecoded, let info = PhotoDecoder.readInfo(inMemory: more) else { return Details() }
                return details(of: info.withSidecar(of: entry.photo))
            }
            guard let info = PhotoInfo.read(head) else { return Details() }
            if info.width != nil || head.count < length || length >= lastHead {
                var details = details(of: info.withSidecar(of: entry.photo))
                details.partial = endsEarly(file)
                return details
            }
            length = min(length * headGrowth, lastHead)
        }
    }

    /// What a HEIF's or AVIF's boxes before the picture fit in, and far more than PNG, GIF and WebP need.
    static let otherHead = 256 * 1024

    /// Whether a JPEG ends before its picture does: no EOI marker at its end, and its scans run
    /// past the last byte (the whole file read only then, for the few that end oddly).
    static func endsEarly(_ file: ConfinedFile) -> Bool {
        guard let tail = try? file.tail(2), !JPEGSegments.endsWithEOI(tail) else { return false }
        guard let whole = try? file.readAll() else { return false }
        return !JPEGSegments.reachesEnd(whole)
    }

    static func details(of info: PhotoInfo) -> Details {
        var details = Details()
        if let width = info.width, let height = info.height, width > 0, height > 0 {
            (details.width, details.height) = (width, height)
        }
        details.taken = info.dateTaken.flatMap(isoDate)
        details.caption = info.caption
        // Both or neither, each in range: a half position or a stray value would put a pin wrong.
        if let latitude = info.latitude, let longitude = info.longitude, latitude.isFinite, longitude.isFinite,
           abs(latitude) <= 90, abs(longitude) <= 180 {
            (details.latitude, details.longitude) = (rounded(latitude), rounded(longitude))
        }
        // Only what a manifest may carry: one bad EXIF value must not make the whole manifest unreadable.
        details.camera = RemotePhoto.Camera(make: info.make, model: info.model, lens: info.lens, iso: info.iso,
                                            aperture: info.fNumber, exposure: info.exposureTime, focalLength: info.focalLength).valid
        return details
    }

    /// Seven decimals, about a centimetre: degrees, minutes and seconds turned into a fraction
    /// come out as 43.076600000000006, whose last digits are noise.
    static func rounded(_ degrees: Double) -> Double { (degrees * 1e7).rounded() / 1e7 }

    /// EXIF's "2024:07:14 19:42:05" as ISO 8601 "2024-07-14T19:42:05"; nil for anything else,
    /// such as the "0000:00:00 00:00:00" or blanks some cameras write when their clock is unset.
    static func isoDate(_ exif: String) -> String? {
        let chars = Array(exif.utf8)
        guard chars.count == 19 else { return nil }
        let separators: [Int: UInt8] = [4: UInt8(ascii: ":"), 7: UInt8(ascii: ":"), 10: UInt8(ascii: " "),
                                        13: UInt8(ascii: ":"), 16: UInt8(ascii: ":")]
        for (i, char) in chars.enumerated() {
            if let separator = separators[i] {
                guard char == separator else { return nil }
            } else {
                guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(char) else { return nil }
            }
        }
        func number(_ range: Range<Int>) -> Int { chars[range].reduce(0) { $0 * 10 + Int($1 - UInt8(ascii: "0")) } }
        guard number(0..<4) > 0, (1...12).contains(number(5..<7)), (1...31).contains(number(8..<10)),
              number(11..<13) < 24, number(14..<16) < 60, number(17..<19) < 61 else { return nil }
        var iso = chars
        iso[4] = UInt8(ascii: "-")
        iso[7] = UInt8(ascii: "-")
        iso[10] = UInt8(ascii: "T")
        return String(decoding: iso, as: UTF8.self)
    }

    /// The whole document. URLs are relative to the manifest's own, so that the gallery can be
    /// reached through any host name, port or proxy path.
    static func document(_ index: GalleryIndex, details: [Details], sizes: [Int]) -> [UInt8] {
        document(title: index.title, sections: index.sections, entries: index.entries, details: details, sizes: sizes,
                 batch: true)
    }

    /// The same for some of a folder's photos (an export leaves out those it could not make).
    /// `batch`: the server takes batches of renditions (a static export's host does not).
    static func document(title: String, sections: [String], entries: [GalleryIndex.Entry], details: [Details],
                         sizes: [Int], batch: Bool = false) -> [UInt8] {
        var json = JSONWriter()
        json.beginObject(linePerMember: true)
        json.member("photogrid", 1)
        json.member("title", title)
        json.key("renditions")
        json.beginObject()
        json.member("template", "renditions/{id}/{size}.jpg")
        json.key("sizes")
        json.beginArray()
        for size in sizes { json.value(size) }
        json.endArray()
        json.endObject()
        if batch { json.member("batch", "batch") }
        json.key("sections")
        json.beginArray()
        for section in sections {
            json.beginObject()
            json.member("id", section)
            json.member("title", section)
            json.endObject()
        }
        json.endArray()
        json.key("photos")
        json.beginArray(linePerMember: true)
        for (entry, details) in zip(entries, details) {
            json.beginObject()
            json.member("id", entry.id)
            json.member("name", entry.photo.name)
            if details.partial { json.key("partial"); json.value(true) }
            json.member("width", details.width)
            json.member("height", details.height)
            json.member("bytes", entry.photo.fileSize)
            json.member("taken", details.taken)
            json.member("caption", details.caption)
            json.member("latitude", details.latitude)
            json.member("longitude", details.longitude)
            json.member("section", entry.section)
            if !details.camera.isEmpty {
                let camera = details.camera
                json.key("camera")
                json.beginObject()
                json.member("make", camera.make)
                json.member("model", camera.model)
                json.member("lens", camera.lens)
                json.member("iso", camera.iso)
                json.member("aperture", camera.aperture)
                json.member("exposure", camera.exposure)
                json.member("focalLength", camera.focalLength)
                json.endObject()
            }
            json.member("original", "originals/" + entry.encodedID)
            json.endObject()
        }
        json.endArray()
        json.endObject()
        return json.output + [UInt8(ascii: "\n")]
    }
}
