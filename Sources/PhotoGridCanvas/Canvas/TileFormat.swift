import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What a tile is in one terminal protocol, on the workers' side: how large it is in the
/// protocol's pixels, how it is encoded, and how it is kept on disk. One per protocol, beside
/// its canvas (`Canvas/Sixel`, `Canvas/Kitty`, `Canvas/ITerm`, `Canvas/HalfBlock`); the pipeline
/// and the disk cache reach it through the request's `RenderMode.format` and never ask which
/// protocol it is.
package protocol TileFormat: Sendable {
    var mode: RenderMode { get }
    /// For the status line: "sixel", "kitty", "half-block 24-bit"...
    var name: String { get }
    /// The protocol's pixels in a cell: the terminal's cell, or 1x2 for half-blocks.
    func cell(_ screen: ScreenMetrics) -> (width: Int, height: Int)
    /// The colours of the text written beside the pictures (the frame, badges, placeholders).
    var textColors: HalfBlock.Colors { get }
    /// Whether tiles are pictures in pixels rather than cells of text.
    var drawsPixels: Bool { get }
    /// Bytes a pixel of a tile takes, as a first guess before any is made (the pipeline's plan).
    var bytesPerPixelGuess: Double { get }
    /// The final tile of `photo` in a grid frame of `frame` cells with `visibleRows` on screen.
    func gridRequest(_ photo: PhotoID, frame: TileFrame, visibleRows: Int, screen: ScreenMetrics, fit: FitMode) -> TileRequest
    /// The photo view's picture of `width` x `height` of its pixels, the part `crop` of the photo
    /// (nil: all of it, letterboxed).
    func viewRequest(_ photo: PhotoID, width: Int, height: Int, crop: CropRegion?, screen: ScreenMetrics) -> TileRequest
    /// A tile's bytes from its image, already cropped or letterboxed to the request's box and cut
    /// to its rows; on a worker.
    func encode(_ image: consuming RGBImage, for request: TileRequest) -> EncodedTile
    /// What names the protocol and its settings in a tile's disk cache variant.
    func variantName(_ request: TileRequest) -> String
    /// A tile as its disk cache payload; and read back, nil unless it is a whole one of this kind.
    func record(_ tile: EncodedTile) -> [UInt8]?
    func tile(fromRecord payload: [UInt8], for request: TileRequest) -> EncodedTile?
    /// The loop's side: what places this protocol's tiles on the terminal.
    func makeCanvas() -> any Canvas
}

extension TileFormat {
    package func cell(_ screen: ScreenMetrics) -> (width: Int, height: Int) { (screen.cellWidth, screen.cellHeight) }
    package var textColors: HalfBlock.Colors { .trueColor }
    package var drawsPixels: Bool { true }
    package var bytesPerPixelGuess: Double { 20 }

    /// A picture in the terminal's pixels, cut where the screen's edge cuts the tile.
    package func gridRequest(_ photo: PhotoID, frame: TileFrame, visibleRows: Int, screen: ScreenMetrics, fit: FitMode) -> TileRequest {
        TileRequest(photo: photo, width: frame.width * screen.cellWidth, height: frame.height * screen.cellHeight,
                    fit: fit, mode: mode, keptRows: visibleRows * screen.cellHeight)
    }

    package func viewRequest(_ photo: PhotoID, width: Int, height: Int, crop: CropRegion?, screen: ScreenMetrics) -> TileRequest {
        TileRequest(photo: photo, width: width, height: height, fit: .fit, mode: mode, crop: crop)
    }
}

/// A mode reads as its protocol's name: "sixel", "kitty", "half-block 24-bit"...
extension RenderMode: CustomStringConvertible {
    package var description: String { format.name }
}

extension RenderMode {
    /// The protocol's tile format: the one place, beside the probe's choice, that tells the
    /// protocols apart.
    package var format: any TileFormat {
        switch self {
        case .sixel(let colors): return SixelFormat(colors: colors)
        case .kitty(let transfer): return KittyFormat(transfer: transfer)
        case .iterm: return ITermFormat()
        case .halfBlock(let colors): return HalfBlockFormat(colors: colors)
        }
    }

    /// Whether tiles are pictures in pixels (sixel, kitty, iTerm2) rather than cells of text.
    package var drawsPixels: Bool { format.drawsPixels }
}
