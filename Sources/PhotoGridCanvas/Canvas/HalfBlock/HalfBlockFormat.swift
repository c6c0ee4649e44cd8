import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Half-blocks: each cell two pixels, the upper one the foreground of U+2580 and the lower its
/// background, in 24-bit colour or the xterm palette; a tile is a line of bytes a cell row.
package struct HalfBlockFormat: TileFormat {
    package let colors: HalfBlock.Colors
    package var mode: RenderMode { .halfBlock(colors) }
    package var name: String { colors == .trueColor ? "half-block 24-bit" : "half-block 256" }
    package var textColors: HalfBlock.Colors { colors }
    package var drawsPixels: Bool { false }

    package init(colors: HalfBlock.Colors) { self.colors = colors }

    package func cell(_ screen: ScreenMetrics) -> (width: Int, height: Int) { (1, 2) }

    package func gridRequest(_ photo: PhotoID, frame: TileFrame, visibleRows: Int, screen: ScreenMetrics, fit: FitMode) -> TileRequest {
        TileRequest(photo: photo, width: frame.width, height: frame.height * 2, fit: fit, mode: mode, keptRows: visibleRows * 2)
    }

    package func encode(_ image: consuming RGBImage, for request: TileRequest) -> EncodedTile {
        .cells(HalfBlock.encode(image, colors: colors))
    }

    package func variantName(_ request: TileRequest) -> String { "halfblock-\(colors.rawValue)" }

    /// Kind 4: count (4), then per line: length (4), bytes.
    package func record(_ tile: EncodedTile) -> [UInt8]? {
        guard case .cells(let lines) = tile else { return nil }
        var out: [UInt8] = [4]
        TileRecord.append(lines.count, to: &out)
        for line in lines {
            TileRecord.append(line.count, to: &out)
            out += line
        }
        return out
    }

    /// As many lines as the tile has cell rows, each only colours and blocks.
    package func tile(fromRecord payload: [UInt8], for request: TileRequest) -> EncodedTile? {
        guard payload.first == 4 else { return nil }
        var reader = TileRecord.Reader(bytes: payload, at: 1)
        guard let count = reader.number(), count == (request.height + 1) / 2 else { return nil }
        var lines: [[UInt8]] = []
        lines.reserveCapacity(count)
        for _ in 0..<count {
            guard let length = reader.number(), let line = reader.take(length), HalfBlockFormat.isHalfBlockLine(line) else { return nil }
            lines.append(line)
        }
        guard reader.atEnd else { return nil }
        return .cells(lines)
    }

    package func makeCanvas() -> any Canvas { HalfBlockCanvas(format: self) }

    /// What `HalfBlock.encode` writes: SGR colours (ESC [ digits ; m), spaces and U+2580,
    /// ending with the colours reset. Nothing else reaches the terminal from the cache.
    static func isHalfBlockLine(_ line: [UInt8]) -> Bool {
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
}
