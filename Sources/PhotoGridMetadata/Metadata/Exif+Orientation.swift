/// The Orientation tag written over in place: after a lossless rotation the pixels stand
/// upright, so the tag must say 1 or every viewer would turn them again. Only its two bytes
/// change; the rest of the EXIF (dates, camera, GPS, the thumbnail) is kept as it was.
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
                let tiffStart = payload + 6
                guard let reader = TIFFReader(Array(data[tiffStart..<end])) else { return nil }
                var visited = Set<Int>()
                guard let entry = reader.entries(at: reader.firstIFD, visited: &visited).entries.first(where: { $0.tag == 0x0112 }),
                      entry.type == 3, entry.count >= 1 else { return nil }
                return (tiffStart + entry.valueOffset, reader.bigEndian)
            }
            at = end
        }
        return nil
    }
}
