import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A tile ready to be written to the terminal.
package enum EncodedTile: Sendable {
    /// One DCS sixel sequence, drawn from the cursor position.
    case sixel([UInt8])
    /// A large picture as sixel pieces, encoded at once on several cores, each drawn from its
    /// cell below and right of the picture's top-left: bands of rows, and, where the terminal
    /// draws nothing that wide, pieces side by side.
    case sixelBands([SixelBand])
    /// One line of bytes per cell row, each drawing the tile's width in cells.
    case cells([[UInt8]])
    /// A picture for the kitty graphics protocol, placed by id (`KittyScreen`).
    case kitty(KittyPicture)
    /// One iTerm2 inline image (OSC 1337), drawn from the cursor.
    case iterm([UInt8])

    package var byteCount: Int {
        switch self {
        case .sixel(let bytes): return bytes.count
        case .sixelBands(let bands): return bands.reduce(0) { $0 + $1.bytes.count }
        case .cells(let lines): return lines.reduce(0) { $0 + $1.count }
        case .kitty(let picture): return picture.payload.count
        case .iterm(let bytes): return bytes.count
        }
    }

    /// What to write, and where, in cell rows from the picture's top, for the pictures drawn from
    /// the cursor and overwritten by text (sixel, iTerm2 images).
    package var sixelParts: [SixelBand]? {
        switch self {
        case .sixel(let bytes), .iterm(let bytes): return [SixelBand(row: 0, column: 0, bytes: bytes)]
        case .sixelBands(let bands): return bands
        case .cells, .kitty: return nil
        }
    }
}

/// One piece of a sixel picture.
package struct SixelBand: Sendable {
    /// Cell rows below the picture's top, and cell columns right of its left edge, where the piece starts.
    package var row: Int
    package var column: Int
    package var bytes: [UInt8]
}
