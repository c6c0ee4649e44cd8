import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// iTerm2's inline images: each tile a JPEG in an OSC 1337 sequence, drawn from the cursor and
/// overwritten like sixel (`CursorCanvas`).
package struct ITermFormat: TileFormat {
    package var mode: RenderMode { .iterm }
    package var name: String { "iTerm2 images" }

    package init() {}

    package func encode(_ image: consuming RGBImage, for request: TileRequest) -> EncodedTile { .iterm(ITerm.picture(image)) }

    package func variantName(_ request: TileRequest) -> String { "iterm" }

    /// Kind 2: the OSC 1337 sequence.
    package func record(_ tile: EncodedTile) -> [UInt8]? {
        guard case .iterm(let bytes) = tile else { return nil }
        return [2] + bytes
    }

    package func tile(fromRecord payload: [UInt8], for request: TileRequest) -> EncodedTile? {
        guard payload.first == 2 else { return nil }
        let bytes = Array(payload.dropFirst())
        let n = bytes.count
        guard bytes.starts(with: Array("\u{1B}]1337;File=".utf8)), bytes.last == 0x07 || (n >= 2 && bytes[n - 2] == 0x1B && bytes[n - 1] == 0x5C)
        else { return nil }
        return .iterm(bytes)
    }

    package func makeCanvas() -> any Canvas { CursorCanvas(format: self) }
}
