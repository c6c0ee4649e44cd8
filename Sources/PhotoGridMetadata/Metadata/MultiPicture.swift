import PhotoGridModel
import PhotoGridSystem

/// A camera JPEG's larger preview, found through its Multi-Picture Format index (CIPA DC-007:
/// APP2 "MPF\0", a TIFF structure whose tag 0xB002 lists the images of the file, 16 bytes each).
/// Cameras put a "large thumbnail" there (the standard's types: VGA or full-HD equivalent), as a
/// second JPEG after the photo's end of image; ExifTool shows the first such as PreviewImage.
/// Decoding it instead of an 18-50 MP photo is a small fraction of the work for any tile it
/// covers.
///
/// The index is read from the photo's head, which is untrusted like every file: entries that do
/// not lie wholly after the index, or are not large thumbnails (a gain map, a stereo view, a
/// burst's other frames), are not previews.
package enum MultiPicture {
    /// "MPF\0" before the index.
    static let identifier: [UInt8] = Array("MPF".utf8) + [0]
    /// MP entry types whose high byte is 1: "Large Thumbnail (VGA equivalent)" 0x010001 and
    /// "(full HD equivalent)" 0x010002.
    static let largeThumbnailClass = 0x01_0000

    /// Where the largest large-thumbnail image lies in the file, given the index (the bytes
    /// after "MPF\0") and the file offset it starts at: MP entries count their offsets from the
    /// start of the index. nil when there is none.
    package static func preview(index: [UInt8], at base: Int) -> Range<Int>? {
        guard let reader = TIFFReader(index) else { return nil }
        var visited = Set<Int>()
        guard let list = reader.entries(at: reader.firstIFD, visited: &visited).entries.first(where: { $0.tag == 0xB002 }),
              list.type == 7, list.count >= 16 else { return nil }
        var best: Range<Int>?
        for entry in 0..<(list.count / 16) {
            let at = list.valueOffset + entry * 16
            guard let attributes = TIFFReader.u32(index, at, reader.bigEndian),
                  let length = TIFFReader.u32(index, at + 4, reader.bigEndian),
                  let offset = TIFFReader.u32(index, at + 8, reader.bigEndian) else { continue }
            // Bits 24-26 say the image's format: 0 is JPEG, the only one defined.
            guard attributes & 0x00FF_0000 == largeThumbnailClass, attributes & 0x0700_0000 == 0 else { continue }
            // Offset 0 is the primary image itself; a preview lies past the index, inside an
            // int's range. How far the file runs is checked where it is read.
            guard offset > 0, length >= 128, base >= 0, offset <= Int(Int32.max) - base - length else { continue }
            let start = base + offset
            if length > best?.count ?? 0 { best = start..<(start + length) }
        }
        return best
    }
}

/// Rewriting the index, for a photo written again whole (a lossless turn): TurboJPEG writes the
/// photo alone, with its markers, so the index it copies would point past the new file's end.
extension MultiPicture {
    /// The index segment of `jpeg` (from its marker to its end), where its entry list starts in
    /// the file, how many entries it has, and its byte order; nil without one.
    static func index(inJPEG jpeg: [UInt8]) -> (segment: Range<Int>, list: Int, entries: Int, bigEndian: Bool)? {
        guard let index = JPEGSegments.parse(jpeg).multiPictureIndex, let reader = TIFFReader(Array(jpeg[index])) else { return nil }
        var visited = Set<Int>()
        guard let list = reader.entries(at: reader.firstIFD, visited: &visited).entries.first(where: { $0.tag == 0xB002 }),
              list.type == 7, list.count >= 16 else { return nil }
        // The marker, the length and "MPF\0" come before the index.
        let segmentStart = index.lowerBound - 4 - identifier.count
        return (segmentStart..<index.upperBound, index.lowerBound + list.valueOffset, list.count / 16, reader.bigEndian)
    }

    /// `jpeg` with `preview` appended and its index rewritten to say where: the photo (offset 0,
    /// the length of `jpeg`) and the preview, as the two entries it had. nil when the index lists
    /// other than those two.
    package static func reindexed(_ jpeg: [UInt8], preview: [UInt8]) -> [UInt8]? {
        guard let index = index(inJPEG: jpeg), index.entries == 2 else { return nil }
        var out = jpeg
        func put(_ value: Int, at offset: Int) {
            let b = [UInt8(value >> 24 & 0xFF), UInt8(value >> 16 & 0xFF), UInt8(value >> 8 & 0xFF), UInt8(value & 0xFF)]
            for k in 0..<4 { out[offset + k] = index.bigEndian ? b[k] : b[3 - k] }
        }
        guard let second = TIFFReader.u32(jpeg, index.list + 16, index.bigEndian), second & 0x00FF_0000 == largeThumbnailClass else { return nil }
        let base = index.segment.lowerBound + 4 + identifier.count     // where offsets count from
        put(jpeg.count, at: index.list + 4)                     // the photo's length, its index included
        put(preview.count, at: index.list + 16 + 4)
        put(jpeg.count - base, at: index.list + 16 + 8)         // the preview right after the photo
        return out + preview
    }

    /// `jpeg` without its index segment (nothing else moves).
    package static func droppingIndex(_ jpeg: [UInt8]) -> [UInt8] {
        guard let index = index(inJPEG: jpeg) else { return jpeg }
        return Array(jpeg[..<index.segment.lowerBound]) + Array(jpeg[index.segment.upperBound...])
    }
}
