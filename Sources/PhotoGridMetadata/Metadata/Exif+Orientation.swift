/// The Orientation tag written over in place: after a lossless rotation the pixels stand
/// upright, so the tag must say 1 or every viewer would turn them again. Only its two bytes
/// change; the rest of the EXIF (dates, camera, GPS) is kept as it was. And the EXIF thumbnail
/// turned with the photo, since viewers (photogrid among them) show it for small tiles.
extension ExifInfo {
    /// The JPEG with IFD0's Orientation set to `value`; nil when the file has no Exif segment
    /// or no Orientation SHORT in it (then there is nothing to set: 1 is the default).
    package static func settingOrientation(_ value: Int, inJPEG data: [UInt8]) -> [UInt8]? {
        guard let (offset, bigEndian) = orientationValue(inJPEG: data) else { return nil }
        var out = data
        out[offset] = bigEndian ? 0 : UInt8(value)
        out[offset + 1] = bigEndian ? UInt8(value) : 0
        return out
    }

    /// Where the Orientation value's two bytes are in a JPEG, and their byte order.
    static func orientationValue(inJPEG data: [UInt8]) -> (offset: Int, bigEndian: Bool)? {
        guard let (_, tiffStart, end) = exifSegment(inJPEG: data), let reader = TIFFReader(Array(data[tiffStart..<end])) else { return nil }
        var visited = Set<Int>()
        guard let entry = reader.entries(at: reader.firstIFD, visited: &visited).entries.first(where: { $0.tag == 0x0112 }),
              entry.type == 3, entry.count >= 1 else { return nil }
        return (tiffStart + entry.valueOffset, reader.bigEndian)
    }

    /// The JPEG's EXIF thumbnail (IFD1's JPEG) replaced by `thumbnail`: written over the old one
    /// when it fits (its length tag made shorter), or in its place at the end of the segment;
    /// nil when it has none or the new one does not fit (a turned photo then drops it:
    /// `droppingThumbnail`). Nothing else moves.
    package static func replacingThumbnail(inJPEG data: [UInt8], with thumbnail: [UInt8]) -> [UInt8]? {
        guard let place = thumbnailPlace(inJPEG: data) else { return nil }
        var out = data
        if thumbnail.count <= place.range.count {
            out.replaceSubrange(place.range.lowerBound..<(place.range.lowerBound + thumbnail.count), with: thumbnail)
            for i in (place.range.lowerBound + thumbnail.count)..<place.range.upperBound { out[i] = 0 }
        } else {
            let grown = place.segmentLength + thumbnail.count - place.range.count
            guard place.range.upperBound == place.segmentEnd, grown <= 0xFFFF else { return nil }
            out.replaceSubrange(place.range, with: thumbnail)
            out[place.segmentStart + 2] = UInt8(grown >> 8)
            out[place.segmentStart + 3] = UInt8(grown & 0xFF)
        }
        write(thumbnail.count, at: place.lengthValue, into: &out)
        return out
    }

    /// The JPEG with its EXIF thumbnail's length made 0: readers then find none.
    package static func droppingThumbnail(inJPEG data: [UInt8]) -> [UInt8] {
        guard let place = thumbnailPlace(inJPEG: data) else { return data }
        var out = data
        write(0, at: place.lengthValue, into: &out)
        return out
    }

    /// The thumbnail's bytes in the file, its length tag's value, and the Exif segment's bounds.
    private static func thumbnailPlace(inJPEG data: [UInt8])
        -> (range: Range<Int>, lengthValue: (offset: Int, type: UInt16, bigEndian: Bool), segmentStart: Int, segmentEnd: Int, segmentLength: Int)? {
        guard let (segmentStart, tiffStart, end) = exifSegment(inJPEG: data), let reader = TIFFReader(Array(data[tiffStart..<end])) else { return nil }
        var visited = Set<Int>()
        guard let next = reader.entries(at: reader.firstIFD, visited: &visited).next else { return nil }
        let ifd1 = reader.entries(at: next, visited: &visited).entries
        guard let startEntry = ifd1.first(where: { $0.tag == 0x0201 }), let lengthEntry = ifd1.first(where: { $0.tag == 0x0202 }),
              lengthEntry.type == 3 || lengthEntry.type == 4,
              let start = reader.integer(startEntry), let length = reader.integer(lengthEntry),
              length > 0, start >= 0, start <= end - tiffStart - length else { return nil }
        let range = (tiffStart + start)..<(tiffStart + start + length)
        return (range, (tiffStart + lengthEntry.valueOffset, lengthEntry.type, reader.bigEndian), segmentStart, end, end - segmentStart - 2)
    }

    private static func write(_ value: Int, at place: (offset: Int, type: UInt16, bigEndian: Bool), into out: inout [UInt8]) {
        let count = place.type == 3 ? 2 : 4
        for i in 0..<count {
            let shift = place.bigEndian ? 8 * (count - 1 - i) : 8 * i
            out[place.offset + i] = UInt8((value >> shift) & 0xFF)
        }
    }

    /// The first Exif APP1 segment: where it starts (its marker), where its TIFF data starts, and its end.
    static func exifSegment(inJPEG data: [UInt8]) -> (start: Int, tiff: Int, end: Int)? {
        guard data.count > 4, data[0] == 0xFF, data[1] == 0xD8 else { return nil }
        var at = 2
        while at + 4 <= data.count {
            guard data[at] == 0xFF else { return nil }
            let marker = data[at + 1]
            if marker == 0xFF { at += 1; continue }                 // fill bytes before a marker
            if marker == 0x01 || (0xD0...0xD7).contains(marker) { at += 2; continue }
            if marker == 0xDA || marker == 0xD9 { return nil }       // the image data: no EXIF before it
            let length = Int(data[at + 2]) << 8 | Int(data[at + 3])
            let end = at + 2 + length
            guard length >= 2, end <= data.count else { return nil }
            let payload = at + 4
            if marker == 0xE1, end - payload > 6, Array(data[payload..<payload + 6]) == Array("Exif\0\0".utf8) {
                return (at, payload + 6, end)
            }
            at = end
        }
        return nil
    }
}
