/// A tile ready to be written to the terminal.
public enum EncodedTile: Sendable {
    /// One DCS sixel sequence, drawn from the cursor position.
    case sixel([UInt8])
    /// One line of bytes per cell row, each drawing the tile's width in cells.
    case cells([[UInt8]])

    public var byteCount: Int {
        switch self {
        case .sixel(let bytes): return bytes.count
        case .cells(let lines): return lines.reduce(0) { $0 + $1.count }
        }
    }
}
