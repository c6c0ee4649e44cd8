/// Encoded tiles in the disk cache: what the terminal is sent for a tile (sixel pieces, an iTerm2
/// picture, a kitty picture), kept between runs so that a second look at a folder writes bytes
/// instead of resampling, quantising and dithering again.
///
/// The disk cache's key holds the photo's path, size and mtime; the variant names everything
/// else that changes the bytes: the pixel box, fit, crop, cut rows, mode and colours, the sixel
/// cut (cell size and the terminal's largest picture), banding, and `version`, which changes
/// whenever the encoders' output for the same request does. Payload:
///
/// ```
/// byte 0     kind: 1 sixel pieces, 2 iTerm2 picture, 3 kitty picture, 4 half-block lines
/// sixel:     count (4), then per piece: row (4), column (4), length (4), bytes
/// iTerm2:    the OSC 1337 sequence
/// kitty:     width (4), height (4), as a file (1), then the payload
/// half-block: count (4), then per line: length (4), bytes
/// ```
/// (numbers little-endian). A payload that does not read back as a whole picture of its kind is
/// a miss, never drawn.
enum EncodedTileRecord {
    /// Changes with the encoders' output: strip width, dithering, JPEG quality, zlib level...
    static let version = 1

    /// The variant a final tile is kept under; nil for previews, which are short-lived.
    /// Half-blocks are kept too: reading their lines takes a tenth of the tier's read, JPEG
    /// decode, resampling and encoding (a warm start of 18 tiles, 3.3 ms before).
    static func variant(for request: TileRequest) -> String? {
        guard keeps(request) else { return nil }
        var mode: String
        switch request.mode {
        case .sixel(let colors): mode = "sixel\(colors)"
        case .iterm: mode = "iterm"
        case .kitty(.inline), .kitty(.tmux): mode = "kitty"   // the same bytes: zlib and base64
        case .kitty(.file): mode = "kittyfile"
        case .halfBlock(let colors): mode = "halfblock-\(colors.rawValue)"
        }
        if let cut = request.sixelCut { mode += "-cut\(cut.cellWidth)x\(cut.cellHeight)-\(cut.maxWidth)x\(cut.maxHeight)" }
        if request.encodeInBands { mode += "-bands" }
        // The crop's fractions exactly, as their bit patterns.
        let crop = request.crop.map { c in [c.x, c.y, c.width, c.height].map { String($0.bitPattern, radix: 16) }.joined(separator: ",") } ?? "whole"
        return "e\(version) \(request.width)x\(request.height) \(request.fit.rawValue) \(crop) kept\(request.keptRows) \(mode)"
    }

    /// Whether `variant(for:)` has one for `request`.
    static func keeps(_ request: TileRequest) -> Bool { !request.isPreview }

    static func encode(_ tile: EncodedTile) -> [UInt8]? {
        var out: [UInt8] = []
        switch tile {
        case .sixel(let bytes):
            out = [1]
            append(1, to: &out)
            for value in [0, 0, bytes.count] { append(value, to: &out) }
            out += bytes
        case .sixelBands(let bands):
            out = [1]
            append(bands.count, to: &out)
            for band in bands {
                for value in [band.row, band.column, band.bytes.count] { append(value, to: &out) }
                out += band.bytes
            }
        case .iterm(let bytes):
            out = [2] + bytes
        case .kitty(let picture):
            out = [3]
            append(picture.width, to: &out)
            append(picture.height, to: &out)
            out.append(picture.isFile ? 1 : 0)
            out += picture.payload
        case .cells(let lines):
            out = [4]
            append(lines.count, to: &out)
            for line in lines {
                append(line.count, to: &out)
                out += line
            }
        }
        return out
    }

    /// The tile in `payload`, if it is a whole one of the kind `request` asks for.
    static func decode(_ payload: [UInt8], for request: TileRequest) -> EncodedTile? {
        guard let kind = payload.first else { return nil }
        var reader = Reader(bytes: payload, at: 1)
        switch (kind, request.mode) {
        case (1, .sixel):
            guard let count = reader.number(), count > 0, count <= 10_000 else { return nil }
            var bands: [SixelBand] = []
            for _ in 0..<count {
                guard let row = reader.number(), let column = reader.number(), let length = reader.number(),
                      let bytes = reader.take(length), isSixel(bytes) else { return nil }
                bands.append(SixelBand(row: row, column: column, bytes: bytes))
            }
            guard reader.atEnd else { return nil }
            return request.sixelCut == nil && bands.count == 1 && bands[0].row == 0 && bands[0].column == 0
                ? .sixel(bands[0].bytes) : .sixelBands(bands)
        case (2, .iterm):
            let bytes = Array(payload.dropFirst())
            let n = bytes.count
            guard bytes.starts(with: Array("\u{1B}]1337;File=".utf8)), bytes.last == 0x07 || (n >= 2 && bytes[n - 2] == 0x1B && bytes[n - 1] == 0x5C)
            else { return nil }
            return .iterm(bytes)
        case (3, .kitty(let transfer)):
            guard let width = reader.number(), let height = reader.number(), width > 0, height > 0,
                  width <= 1 << 14, height <= 1 << 14, let isFile = reader.take(1)?.first, isFile == (transfer == .file ? 1 : 0)
            else { return nil }
            let rest = reader.rest
            if isFile == 1 {
                guard rest.count == width * height * 3 else { return nil }
            } else {
                guard !rest.isEmpty, rest.allSatisfy(isBase64) else { return nil }
            }
            return .kitty(KittyPicture(width: width, height: height, payload: rest, isFile: isFile == 1, serial: Kitty.newSerial()))
        case (4, .halfBlock):
            // As many lines as the tile has cell rows, each only colours and blocks.
            guard let count = reader.number(), count == (request.height + 1) / 2 else { return nil }
            var lines: [[UInt8]] = []
            lines.reserveCapacity(count)
            for _ in 0..<count {
                guard let length = reader.number(), let line = reader.take(length), isHalfBlockLine(line) else { return nil }
                lines.append(line)
            }
            guard reader.atEnd else { return nil }
            return .cells(lines)
        default:
            return nil
        }
    }

    /// What `HalfBlock.encode` writes: SGR colours (ESC [ digits ; m), spaces and U+2580,
    /// ending with the colours reset. Nothing else reaches the terminal from the cache.
    private static func isHalfBlockLine(_ line: [UInt8]) -> Bool {
        let reset = HalfBlock.reset
        guard line.count >= reset.count, line[(line.count - reset.count)...].elementsEqual(reset) else { return false }
        return line.withUnsafeBufferPointer { line in
            var i = 0
            while i < line.count {
                switch line[i] {
                case 0x1B:
                    guard i + 1 < line.count, line[i + 1] == UInt8(ascii: "[") else { return false }
                    i += 2
                    while i < line.count, line[i] == UInt8(ascii: ";") || (line[i] >= 0x30 && line[i] <= 0x39) { i += 1 }
                    guard i < line.count, line[i] == UInt8(ascii: "m") else { return false }
                    i += 1
                case 0x20:
                    i += 1
                case 0xE2:
                    guard i + 2 < line.count, line[i + 1] == 0x96, line[i + 2] == 0x80 else { return false }
                    i += 3
                default:
                    return false
                }
            }
            return true
        }
    }

    /// A DCS sixel sequence: ESC P ... q ... ESC \.
    private static func isSixel(_ bytes: [UInt8]) -> Bool {
        // Array indexing: `suffix(2) ==` picked Sequence's suffix, which walks every byte.
        let n = bytes.count
        return n >= 5 && bytes[0] == 0x1B && bytes[1] == 0x50 && bytes[n - 2] == 0x1B && bytes[n - 1] == 0x5C
    }

    private static func isBase64(_ byte: UInt8) -> Bool {
        (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A) || (byte >= 0x30 && byte <= 0x39)
            || byte == 0x2B || byte == 0x2F || byte == 0x3D
    }

    private static func append(_ value: Int, to out: inout [UInt8]) {
        let v = UInt32(clamping: value)
        for i in 0..<4 { out.append(UInt8(truncatingIfNeeded: v >> UInt32(i * 8))) }
    }

    private struct Reader {
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
