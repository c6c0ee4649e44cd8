import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// EXIF and XMP as PNG and WebP carry them, found by walking the file's chunks with bounds checks
/// (libspng and libwebp are not needed to find them, and a head of the file is enough when they
/// come before the pixels, as writers put them). EXIF is returned as TIFF data, from its header on.
package enum EmbeddedMetadata {
    package typealias Found = (exif: [UInt8]?, xmp: [UInt8]?)

    /// PNG: `eXIf` (TIFF data), and XMP in an uncompressed `iTXt` chunk keyed "XML:com.adobe.xmp".
    package static func png(_ data: [UInt8]) -> Found {
        var found: Found = (nil, nil)
        var at = 8
        while at + 8 <= data.count {
            let length = Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
            let type = String(decoding: data[(at + 4)..<(at + 8)], as: UTF8.self)
            let start = at + 8, end = start + length
            guard length >= 0, end <= data.count, type != "IEND" else { break }
            if type == "eXIf", found.exif == nil {
                found.exif = Array(data[start..<end])
            } else if type == "iTXt", found.xmp == nil {
                found.xmp = xmp(inITXt: data[start..<end])
            }
            at = end + 4
        }
        return found
    }

    /// A PNG's ICC profile (its `iCCP` chunk: a name, NUL, the method 0 and the profile
    /// deflated), inflated; nil when there is none or it does not inflate within the bound.
    package static func pngProfile(_ data: [UInt8]) -> [UInt8]? {
        var at = 8
        while at + 8 <= data.count {
            let length = Int(data[at]) << 24 | Int(data[at + 1]) << 16 | Int(data[at + 2]) << 8 | Int(data[at + 3])
            let type = data[(at + 4)..<(at + 8)]
            let start = at + 8, end = start + length
            guard length >= 0, end <= data.count else { return nil }
            // The profile comes before the image data, or not at all.
            if type.elementsEqual("IDAT".utf8) || type.elementsEqual("IEND".utf8) { return nil }
            if type.elementsEqual("iCCP".utf8) {
                let chunk = data[start..<end]
                guard let nul = chunk.prefix(80).firstIndex(of: 0), nul + 2 <= end, chunk[nul + 1] == 0 else { return nil }
                return Zlib.decompress(Array(chunk[(nul + 2)...]), limit: ColourProfile.maxProfileBytes)
            }
            at = end + 4
        }
        return nil
    }

    /// The text of an iTXt chunk when it is an uncompressed XMP packet: keyword, NUL, compression
    /// flag and method, language tag, NUL, translated keyword, NUL, text.
    private static func xmp(inITXt chunk: ArraySlice<UInt8>) -> [UInt8]? {
        let keyword = Array("XML:com.adobe.xmp".utf8) + [0]
        guard chunk.starts(with: keyword) else { return nil }
        var at = chunk.startIndex + keyword.count
        guard at + 2 <= chunk.endIndex, chunk[at] == 0 else { return nil }
        at += 2
        for _ in 0..<2 {
            guard let nul = chunk[at...].firstIndex(of: 0) else { return nil }
            at = nul + 1
        }
        return Array(chunk[at...])
    }

    /// WebP: the `EXIF` and `XMP ` chunks of the RIFF container (extended format).
    /// A WebP's ICC profile (its `ICCP` chunk, which comes before the picture's).
    package static func webpProfile(_ data: [UInt8]) -> [UInt8]? {
        var at = 12
        while at + 8 <= data.count {
            let length = Int(data[at + 4]) | Int(data[at + 5]) << 8 | Int(data[at + 6]) << 16 | Int(data[at + 7]) << 24
            let start = at + 8, end = start + length
            guard end <= data.count else { return nil }
            if data[at..<(at + 4)].elementsEqual("ICCP".utf8) { return length <= ColourProfile.maxProfileBytes ? Array(data[start..<end]) : nil }
            at = end + (length & 1)
        }
        return nil
    }

    package static func webp(_ data: [UInt8]) -> Found {
        var found: Found = (nil, nil)
        var at = 12
        while at + 8 <= data.count {
            let type = String(decoding: data[at..<(at + 4)], as: UTF8.self)
            let length = Int(data[at + 4]) | Int(data[at + 5]) << 8 | Int(data[at + 6]) << 16 | Int(data[at + 7]) << 24
            let start = at + 8, end = start + length
            guard end <= data.count else { break }
            if type == "EXIF", found.exif == nil {
                // Some writers keep JPEG's "Exif\0\0" before the TIFF header.
                let exif = data[start..<end]
                found.exif = Array(exif.starts(with: Array("Exif\0\0".utf8)) ? exif.dropFirst(6) : exif)
            } else if type == "XMP ", found.xmp == nil {
                found.xmp = Array(data[start..<end])
            }
            at = end + (length & 1)
        }
        return found
    }
}
