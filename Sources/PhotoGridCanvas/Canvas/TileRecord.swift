import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Encoded tiles in the disk cache: what the terminal is sent for a tile (sixel pieces, an iTerm2
/// picture, a kitty picture, half-block lines), kept between runs so that a second look at a
/// folder writes bytes instead of resampling, quantising and dithering again.
///
/// The disk cache's key holds the photo's path, size and mtime; the variant names everything
/// else that changes the bytes: the pixel box, fit, crop, cut rows, the protocol and its settings
/// (`TileFormat.variantName`), the sixel cut (cell size and the terminal's largest picture),
/// banding, and `version`, which changes whenever the encoders' output for the same request does.
/// The payload is the protocol's own (`TileFormat.record`), its first byte a kind (1 sixel
/// pieces, 2 iTerm2 picture, 3 kitty picture, 4 half-block lines), numbers four bytes
/// little-endian. A payload that does not read back as a whole picture of its kind is a miss,
/// never drawn.
package enum TileRecord {
    /// Changes with the encoders' output: strip width, dithering, JPEG quality, zlib level...
    static let version = 1

    /// The variant a final tile is kept under; nil for previews, which are short-lived.
    /// Half-blocks are kept too: reading their lines takes a tenth of the tier's read, JPEG
    /// decode, resampling and encoding (a warm start of 18 tiles, 3.3 ms before).
    package static func variant(for request: TileRequest) -> String? {
        guard keeps(request) else { return nil }
        var mode = request.mode.format.variantName(request)
        if let cut = request.sixelCut { mode += "-cut\(cut.cellWidth)x\(cut.cellHeight)-\(cut.maxWidth)x\(cut.maxHeight)" }
        if request.encodeInBands { mode += "-bands" }
        // The crop's fractions exactly, as their bit patterns.
        let crop = request.crop.map { c in [c.x, c.y, c.width, c.height].map { String($0.bitPattern, radix: 16) }.joined(separator: ",") } ?? "whole"
        return "e\(version) \(request.width)x\(request.height) \(request.fit.rawValue) \(crop) kept\(request.keptRows) \(mode)"
    }

    /// Whether `variant(for:)` has one for `request`.
    package static func keeps(_ request: TileRequest) -> Bool { !request.isPreview }

    package static func encode(_ tile: EncodedTile, for request: TileRequest) -> [UInt8]? { request.mode.format.record(tile) }

    /// The tile in `payload`, if it is a whole one of the kind `request` asks for.
    package static func decode(_ payload: [UInt8], for request: TileRequest) -> EncodedTile? {
        request.mode.format.tile(fromRecord: payload, for: request)
    }

    static func append(_ value: Int, to out: inout [UInt8]) {
        let v = UInt32(clamping: value)
        for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> UInt32(i * 8))) }
    }

    struct Reader {
        let bytes: [UInt8]
        var at: Int

        var atEnd: Bool { at == bytes.count }
        var rest: [UInt8] { Array(bytes[at...]) }

        mutating func number() -> Int? {
            guard let four = take(4) else { return nil }
            return four.enumerated().reduce(0) { $0 | Int($1.element) << ($1.offset * 8) }
        }

        mutating func take(_ count: Int) -> [UInt8]? {
            guard count >= 0, count <= bytes.count - at else { return nil }
            defer { at += count }
            return Array(bytes[at..<(at + count)])
        }
    }
}
