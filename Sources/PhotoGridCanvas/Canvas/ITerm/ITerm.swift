import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// iTerm2's inline images (https://iterm2.com/documentation-images.html), which iTerm2, WezTerm,
/// mintty and VS Code's terminal draw: a picture file in base64 inside one OSC 1337 sequence,
/// drawn from the cursor over the cells, and overwritten by text like a sixel picture. Encoded
/// once a tile on a worker and kept as bytes, as sixel is.
package enum ITerm {
    /// The tile as JPEG at this quality: a tenth of its RGB bytes, encoded in a few milliseconds,
    /// and a format every implementation reads.
    static let quality = 90

    /// The sequence that draws `image` from the cursor at its own size in pixels, the cursor left
    /// where it was; empty if it cannot be encoded.
    package static func picture(_ image: RGBImage) -> [UInt8] {
        guard let jpeg = try? JPEG.encode(image, quality: quality) else { return [] }
        let arguments = "inline=1;size=\(jpeg.count);width=\(image.width)px;height=\(image.height)px;preserveAspectRatio=0;doNotMoveCursor=1"
        return Array("\u{1B}]1337;File=\(arguments):".utf8) + Base64.encode(jpeg) + [0x07]
    }

    /// Terminals known to draw inline images, by the TERM_PROGRAM they set or the name they give
    /// to XTVERSION.
    static let names = ["iTerm", "WezTerm", "mintty", "vscode"]

    /// Whether the terminal says it is one of those.
    package static func isKnown(termProgram: String?, version: String?) -> Bool {
        let said = [termProgram, version].compactMap { $0?.lowercased() }
        return names.contains { name in said.contains { $0.hasPrefix(name.lowercased()) } }
    }
}
