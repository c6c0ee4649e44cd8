/// How tiles are drawn.
public enum RenderMode: Hashable, Sendable, CustomStringConvertible {
    /// Real pixels with an adaptive palette of this many colour registers.
    case sixel(colors: Int)
    case halfBlock(HalfBlock.Colors)

    public var isSixel: Bool { if case .sixel = self { return true } else { return false } }

    public var description: String {
        switch self {
        case .sixel: return "sixel"
        case .halfBlock(.trueColor): return "half-block 24-bit"
        case .halfBlock(.palette256): return "half-block 256"
        }
    }
}

/// A photo resampled to a tile's pixel box: what the decode stage makes.
public struct PixelKey: Hashable, Sendable {
    public var photo: Int
    public var width: Int
    public var height: Int
    public var fit: FitMode

    public init(photo: Int, width: Int, height: Int, fit: FitMode) {
        self.photo = photo; self.width = width; self.height = height; self.fit = fit
    }
}

/// A tile as the terminal gets it: what the encode stage makes from a `PixelKey`'s pixels.
public struct TileRequest: Hashable, Sendable {
    public var pixels: PixelKey
    public var mode: RenderMode
    /// Pixel rows kept from the top: fewer than the tile's height where the screen's edge cuts it.
    public var keptRows: Int

    public init(pixels: PixelKey, mode: RenderMode, keptRows: Int? = nil) {
        self.pixels = pixels
        self.mode = mode
        self.keptRows = keptRows ?? pixels.height
    }
}

/// Who wants a tile, most urgent last.
public enum Priority: Int, Comparable, Sendable {
    case background = 0, prefetch = 1, visible = 2
    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
}
