import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What a tile slot shows right now.
package enum TileContent: Sendable {
    case image(TileRequest, EncodedTile)
    /// A soft first picture (from the EXIF thumbnail) until the real one is ready.
    case preview(TileRequest, EncodedTile)
    case failed(String)
    case loading

    /// Still waiting for its final picture.
    package var isPending: Bool {
        switch self {
        case .image, .failed: return false
        case .preview, .loading: return true
        }
    }

    /// Equal ids draw the same thing: what the painter compares to skip unchanged tiles.
    package var id: ContentID {
        switch self {
        case .image(let request, _), .preview(let request, _): return .image(request)
        case .failed(let reason): return .failed(reason)
        case .loading: return .loading
        }
    }

    package enum ContentID: Hashable, Sendable {
        case image(TileRequest), failed(String), loading
    }

    /// The same content drawn by `tile` instead (a kitty picture as its placeholder text).
    func drawn(as tile: EncodedTile) -> TileContent {
        switch self {
        case .image(let request, _): return .image(request, tile)
        case .preview(let request, _): return .preview(request, tile)
        case .failed, .loading: return self
        }
    }
}

/// One tile to paint: where (in cells, from the grid's top-left) and what.
package struct PaintTile: Sendable {
    /// The photo the tile shows: two frames that put the same photo in a slot draw it once.
    package var photo: PhotoID
    package var column: Int
    package var row: Int
    package var width: Int
    /// Visible cell rows (the screen's bottom edge may cut the tile).
    package var rows: Int
    /// The tile's cell rows uncut.
    package var fullRows: Int
    package var content: TileContent
    package var name: String
    /// Small marks in the tile's bottom-right corner: ¶ a caption, ° a position (at 1-3 columns).
    /// Latin-1 characters, which every terminal font has.
    package var badges = ""

    package init(photo: PhotoID, column: Int, row: Int, width: Int, rows: Int, content: TileContent, name: String) {
        self.photo = photo; self.column = column; self.row = row; self.width = width; self.rows = rows; fullRows = rows
        self.content = content; self.name = name
    }

    /// It shows a picture drawn from the cursor (sixel, iTerm2), which stays until erased or drawn over.
    var drawsFromCursor: Bool {
        switch content {
        case .image(_, let tile), .preview(_, let tile): return tile.sixelParts != nil
        case .failed, .loading: return false
        }
    }

    /// The tile as rows of cell bytes, for everything but a sixel image.
    func cellLines(colors: HalfBlock.Colors) -> [[UInt8]] {
        switch content {
        case .image(_, .cells(let lines)), .preview(_, .cells(let lines)): return Array(lines.prefix(rows))
        case .image, .preview: return []
        case .failed(let reason): return Placeholder.cells(width: width, rows: rows, lines: Placeholder.lines(reason: reason, name: name, width: width, rows: rows), colors: colors)
        case .loading: return Placeholder.cells(width: width, rows: rows, lines: [], colors: colors)
        }
    }
}
