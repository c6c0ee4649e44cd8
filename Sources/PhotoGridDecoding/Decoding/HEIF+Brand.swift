import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What a HEIF file is, from its first bytes alone: no libheif here (`HEIF.swift` is the one
/// file that calls it).
extension HEIF {
    /// `....ftyp` and a brand of HEIF or AVIF (what `ImageFormat(content:)` knows them by).
    package static func isHEIF(_ data: [UInt8]) -> Bool {
        switch ImageFormat(content: Array(data.prefix(16))) {
        case .heif, .avif: return true
        default: return false
        }
    }

    /// "AVIF" when the `ftyp` box names AVIF as its major or a compatible brand (some AVIFs lead
    /// with `mif1`), else "HEIF": for messages, and to choose how colours are converted.
    static func formatName(_ data: [UInt8]) -> String {
        if ImageFormat(content: Array(data.prefix(16))) == .avif { return "AVIF" }
        let size = data.count >= 4 ? Int(data[0]) << 24 | Int(data[1]) << 16 | Int(data[2]) << 8 | Int(data[3]) : 0
        let end = min(data.count, max(0, size), 256)
        for at in stride(from: 16, to: end - 3, by: 4) where data[at..<(at + 4)].elementsEqual("avif".utf8) { return "AVIF" }
        return "HEIF"
    }
}
