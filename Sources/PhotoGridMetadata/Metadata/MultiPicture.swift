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
