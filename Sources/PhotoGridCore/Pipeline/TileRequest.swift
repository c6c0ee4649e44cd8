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

/// Size classes of decoded photos: a tier's image is the photo upright with its short side
/// that many pixels. A tile takes the smallest tier that covers it; a smaller tier is made from a
/// larger one in memory by downsampling, never by decoding again.
public enum Tier: Int, CaseIterable, Comparable, Hashable, Sendable {
    case t64 = 64, t128 = 128, t256 = 256, t512 = 512, t1024 = 1024, t2048 = 2048

    public var size: Int { rawValue }

    /// The smallest tier whose images cover `pixels` (the largest, past its size).
    public static func covering(_ pixels: Int) -> Tier {
        allCases.first { $0.size >= pixels } ?? .t2048
    }

    public var larger: [Tier] { Tier.allCases.filter { $0 > self } }

    public static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
}

/// One photo at one tier.
public struct TierKey: Hashable, Sendable {
    public var photo: Int
    public var tier: Tier
    public init(photo: Int, tier: Tier) { self.photo = photo; self.tier = tier }
}

/// A tile as the terminal gets it: a photo in a pixel box, drawn in a mode, maybe cut at the
/// screen's edge, from its tier image or (a preview) from its EXIF thumbnail.
public struct TileRequest: Hashable, Sendable {
    public var photo: Int
    public var width: Int
    public var height: Int
    public var fit: FitMode
    public var mode: RenderMode
    /// Pixel rows kept from the top: fewer than `height` where the screen's edge cuts the tile.
    public var keptRows: Int
    /// A soft first picture from the EXIF thumbnail, shown until the real one is ready.
    public var isPreview: Bool

    public init(photo: Int, width: Int, height: Int, fit: FitMode, mode: RenderMode, keptRows: Int? = nil, isPreview: Bool = false) {
        self.photo = photo
        self.width = width
        self.height = height
        self.fit = fit
        self.mode = mode
        self.keptRows = keptRows ?? height
        self.isPreview = isPreview
    }

    /// Pixels the source image's short side needs so that the tile is cut without enlarging.
    public var neededSize: Int { max(width, height) }
    /// The tier the final tile is made from.
    public var tier: Tier { Tier.covering(neededSize) }
    public var tierKey: TierKey { TierKey(photo: photo, tier: tier) }

    /// The same tile as a preview.
    public var preview: TileRequest { var p = self; p.isPreview = true; return p }
    public var final: TileRequest { var p = self; p.isPreview = false; return p }
}

/// Who wants a tile, most urgent last.
public enum Priority: Int, Comparable, Sendable {
    /// Writing tiers to the disk cache: after everything the screen could want.
    case idle = 0
    case background = 1, prefetch = 2, visible = 3
    public static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
}
