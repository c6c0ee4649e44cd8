/// How a tile fills its box.
package enum FitMode: String, Hashable, Sendable {
    /// Covers the whole tile, centre cropped (the default: a grid of edge-to-edge squares).
    case fill
    /// The whole photo, letterboxed.
    case fit
}

/// How tiles are drawn.
/// Size classes of decoded photos: a tier's image is the photo upright with its short side at
/// most that many pixels. A tile takes the smallest tier that covers it; a smaller tier is made
/// from a larger one in memory by downsampling, never by decoding again. The grid uses 64 to 1024;
/// 2048 is the display tier of the zoom view at fit on most screens; 4096 and `full` hold zoomed-in
/// views, of which the cache keeps only a few (`TileCache.zoomLimit`).
package enum Tier: Int, CaseIterable, Comparable, Hashable, Sendable {
    case t64 = 64, t128 = 128, t256 = 256, t512 = 512, t1024 = 1024, t2048 = 2048, t4096 = 4096
    /// The photo at whatever scale the zoom needs, up to its full size.
    case full = 1_048_576

    package var size: Int { rawValue }

    /// Tiers kept few at a time: images of zoomed-in views, up to a whole photo's pixels.
    package var isZoom: Bool { self >= .t4096 }

    /// The smallest tier whose images cover `pixels`.
    package static func covering(_ pixels: Int) -> Tier {
        allCases.first { $0.size >= pixels } ?? .full
    }

    package var larger: [Tier] { Tier.allCases.filter { $0 > self } }

    package static func < (a: Tier, b: Tier) -> Bool { a.rawValue < b.rawValue }
}

/// A terminal's cell in pixels, and the largest sixel picture it draws (XTSMGRAPHICS), 0 where
/// it did not say. xterm draws nothing of a picture wider or taller than that (1000x1000 unless
/// its maxGraphicSize resource says otherwise), so larger pictures go as pieces side by side.
package struct SixelCut: Hashable, Sendable {
    package var cellWidth: Int, cellHeight: Int
    package var maxWidth: Int, maxHeight: Int

    package init(cellWidth: Int, cellHeight: Int, maxWidth: Int = 0, maxHeight: Int = 0) {
        self.cellWidth = max(1, cellWidth); self.cellHeight = max(1, cellHeight)
        self.maxWidth = max(0, maxWidth); self.maxHeight = max(0, maxHeight)
    }

    /// Cell columns and rows a piece may span: whole cells, and room for libsixel rounding a
    /// picture's height up to six pixels.
    package var pieceColumns: Int? { maxWidth > 0 ? max(1, maxWidth / cellWidth) : nil }
    package var pieceRows: Int? { maxHeight > 0 ? max(1, (maxHeight - 5) / cellHeight) : nil }
}

/// One photo at one tier.
package struct TierKey: Hashable, Sendable {
    package var photo: PhotoID
    package var tier: Tier
    package init(photo: PhotoID, tier: Tier) { self.photo = photo; self.tier = tier }
}

/// A part of a photo, in fractions of its upright width and height.
package struct CropRegion: Hashable, Sendable {
    package var x: Double, y: Double, width: Double, height: Double
    package init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x; self.y = y; self.width = width; self.height = height
    }
}

/// A tile as the terminal gets it: a photo (or a part of one, in the zoom view) in a pixel box,
/// drawn in a mode, maybe cut at the screen's edge, from its tier image or, as a preview, from
/// the best image already in memory (another tier, or the EXIF thumbnail).
package struct TileRequest: Hashable, Sendable {
    package var photo: PhotoID
    package var width: Int
    package var height: Int
    package var fit: FitMode
    /// The part of the photo drawn, scaled to exactly `width` x `height` (its shape already
    /// matches); nil for the whole photo, cropped or letterboxed by `fit`.
    package var crop: CropRegion?
    package var mode: RenderMode
    /// Pixel rows kept from the top: fewer than `height` where the screen's edge cuts the tile.
    package var keptRows: Int
    /// A soft first picture from the EXIF thumbnail, shown until the real one is ready.
    package var isPreview: Bool
    /// Where a sixel picture may be cut into pieces (on cells) and the largest piece the terminal
    /// draws (read in sixel mode only); nil for one piece whatever its size (--print).
    package var sixelCut: SixelCut?
    /// A large sixel picture (the zoom view's) is encoded in bands, one per core, for speed.
    package var encodeInBands = false
    /// An animation's frame, counted from 0 (the still picture is frame 0's).
    package var frame = 0
    /// Made from the raw file of a RAW+JPEG pair rather than from the photo (its JPEG).
    package var fromRaw = false

    package init(photo: PhotoID, width: Int, height: Int, fit: FitMode, mode: RenderMode, keptRows: Int? = nil,
                isPreview: Bool = false, crop: CropRegion? = nil) {
        self.photo = photo
        self.width = width
        self.height = height
        self.fit = fit
        self.crop = crop
        self.mode = mode
        self.keptRows = keptRows ?? height
        self.isPreview = isPreview
    }

    /// Pixels the source image's short side needs so that the tile is made without enlarging.
    /// Filling a box shows the short side at most as long as the box's long side; fitting, at most
    /// as long as its short side; a crop shows its fraction of the photo at the box's size.
    package var neededSize: Int {
        if let crop {
            return Int((min(Double(width) / max(crop.width, 1e-6), Double(height) / max(crop.height, 1e-6))).rounded(.up))
        }
        return fit == .fill ? max(width, height) : min(width, height)
    }
    /// `neededSize` for a photo of that shape (its upright width and height, or any multiple):
    /// a 16:9 photo fitted in a square box shows its short side at 9/16 of the box, so its
    /// decode can be that much smaller (1/8 scale rather than 2/8 for a 4000-pixel JPEG in a
    /// 400-pixel box, and one resampling of a quarter of the pixels). Never more than without it.
    package func neededSize(shape: (width: Int, height: Int)?) -> Int {
        guard crop == nil, let shape, shape.width > 0, shape.height > 0 else { return neededSize }
        let (w, h) = (Double(shape.width), Double(shape.height))
        let (across, down) = (Double(width) / w, Double(height) / h)
        let scale = fit == .fill ? max(across, down) : min(across, down)
        return max(1, min(neededSize, Int((scale * min(w, h)).rounded(.up))))
    }
    /// The tier the final tile is made from.
    package var tier: Tier { Tier.covering(neededSize) }
    package var tierKey: TierKey { TierKey(photo: photo, tier: tier) }

    /// The same tile as a preview.
    package var preview: TileRequest { var p = self; p.isPreview = true; return p }
    package var final: TileRequest { var p = self; p.isPreview = false; return p }
}

/// Who wants a tile, most urgent last.
package enum Priority: Int, Comparable, Sendable {
    /// Writing tiers to the disk cache: after everything the screen could want.
    case idle = 0
    case background = 1, prefetch = 2, visible = 3
    package static func < (a: Priority, b: Priority) -> Bool { a.rawValue < b.rawValue }
}

/// A tile the loop asks the pipeline for, and how urgently: the pipeline's currency.
package struct WantedTile: Hashable, Sendable {
    package var request: TileRequest
    package var priority: Priority

    package init(_ request: TileRequest, _ priority: Priority) {
        self.request = request
        self.priority = priority
    }
}

/// A photo whose details the loop asks for (the details panel, badges, the zoom view's shape).
package struct WantedInfo: Hashable, Sendable {
    package var photo: PhotoID
    package var priority: Priority

    package init(_ photo: PhotoID, _ priority: Priority) {
        self.photo = photo
        self.priority = priority
    }
}
