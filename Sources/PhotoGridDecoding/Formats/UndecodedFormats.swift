import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Picture formats photogrid knows and does not decode: each gets a tile that says so ("PSD:
/// unsupported format") rather than vanishing from the grid. Known by their names only.
struct UndecodedFormats: FormatReader {
    static let names = ["bmp", "ico", "svg", "psd", "xcf", "tga", "jp2", "ppm", "pgm", "pbm", "qoi"]

    let extensions: [String: ImageFormat] = Dictionary(uniqueKeysWithValues: UndecodedFormats.names.map { ($0, .other($0.uppercased())) })

    func format(of head: [UInt8]) -> ImageFormat? { nil }
    func reads(_ format: ImageFormat) -> Bool { format.family == .other }
}
