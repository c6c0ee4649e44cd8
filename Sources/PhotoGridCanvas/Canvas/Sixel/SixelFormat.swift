import Dispatch
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Sixel tiles: the picture in the terminal's pixels, quantised to the terminal's colour
/// registers and dithered by libsixel, in strips side by side (`stripPixels`) and, for a large
/// picture, in bands encoded on several cores; no piece larger than the terminal draws.
package struct SixelFormat: TileFormat {
    package let colors: Int
    package var mode: RenderMode { .sixel(colors: colors) }
    package var name: String { "sixel" }
    /// Text beside sixel pictures in the xterm palette: xterm (the sixel terminal most have) maps
    /// 24-bit colours to it anyway.
    package var textColors: HalfBlock.Colors { .palette256 }
    package var bytesPerPixelGuess: Double { 1 }

    package init(colors: Int) { self.colors = colors }

    /// On a slow link, fewer colour registers: a sixel picture's bytes grow with
    /// the colours each band of six rows uses, and a photo at 128 colours is hard to tell from 256.
    package func gridRequest(_ photo: PhotoID, frame: TileFrame, visibleRows: Int, screen: ScreenMetrics, fit: FitMode) -> TileRequest {
        let registers = screen.slowLink ? min(colors, SixelFormat.slowLinkColors) : colors
        var request = TileRequest(photo: photo, width: frame.width * screen.cellWidth, height: frame.height * screen.cellHeight,
                                  fit: fit, mode: .sixel(colors: registers), keptRows: visibleRows * screen.cellHeight)
        request.sixelCut = screen.sixelCut
        return request
    }

    static let slowLinkColors = 128

    /// The registers a request asks for (fewer on a slow link), within the terminal's.
    static func registers(_ request: TileRequest, terminal: Int) -> Int {
        if case .sixel(let asked) = request.mode { return min(asked, terminal) }
        return terminal
    }

    /// The photo view's picture, in bands encoded at once on several cores when it is a part of
    /// the photo (a zoomed or fitted view, known from the photo's shape).
    package func viewRequest(_ photo: PhotoID, width: Int, height: Int, crop: CropRegion?, screen: ScreenMetrics) -> TileRequest {
        var request = TileRequest(photo: photo, width: width, height: height, fit: .fit, mode: mode, crop: crop)
        request.sixelCut = screen.sixelCut
        request.encodeInBands = crop != nil
        return request
    }

    package func encode(_ image: consuming RGBImage, for request: TileRequest) -> EncodedTile {
        // A preview is soft and short-lived: undithered, it encodes in two thirds of the time;
        // and an enlarged thumbnail has few colours to tell apart, so it gets few.
        let diffusion: Sixel.Diffusion = request.isPreview ? .none : .floydSteinberg
        let asked = SixelFormat.registers(request, terminal: colors)
        let registers = request.isPreview ? min(asked, SixelFormat.previewColors) : asked
        if let cut = request.sixelCut {
            let banded = request.encodeInBands && image.width * image.height >= SixelFormat.bandedPixels
            return .sixelBands(SixelFormat.pieces(image, colors: registers, diffusion: diffusion, cut: cut, banded: banded))
        }
        // libsixel fails only on an empty image or no memory; an empty tile draws nothing.
        return .sixel((try? Sixel.encode(image, colors: registers, diffusion: diffusion)) ?? [])
    }

    package func variantName(_ request: TileRequest) -> String { "sixel\(SixelFormat.registers(request, terminal: colors))" }

    /// Kind 1: count (4), then per piece: row (4), column (4), length (4), bytes.
    package func record(_ tile: EncodedTile) -> [UInt8]? {
        let bands: [SixelBand]
        switch tile {
        case .sixel(let bytes): bands = [SixelBand(row: 0, column: 0, bytes: bytes)]
        case .sixelBands(let pieces): bands = pieces
        default: return nil
        }
        var out: [UInt8] = [1]
        TileRecord.append(bands.count, to: &out)
        for band in bands {
            for value in [band.row, band.column, band.bytes.count] { TileRecord.append(value, to: &out) }
            out += band.bytes
        }
        return out
    }

    package func tile(fromRecord payload: [UInt8], for request: TileRequest) -> EncodedTile? {
        guard payload.first == 1 else { return nil }
        var reader = TileRecord.Reader(bytes: payload, at: 1)
        guard let count = reader.number(), count > 0, count <= 10_000 else { return nil }
        var bands: [SixelBand] = []
        for _ in 0..<count {
            guard let row = reader.number(), let column = reader.number(), let length = reader.number(),
                  let bytes = reader.take(length), SixelFormat.isSixel(bytes) else { return nil }
            bands.append(SixelBand(row: row, column: column, bytes: bytes))
        }
        guard reader.atEnd else { return nil }
        return request.sixelCut == nil && bands.count == 1 && bands[0].row == 0 && bands[0].column == 0
            ? .sixel(bands[0].bytes) : .sixelBands(bands)
    }

    package func makeCanvas() -> any Canvas { CursorCanvas(format: self) }

    /// A DCS sixel sequence: ESC P ... q ... ESC \.
    static func isSixel(_ bytes: [UInt8]) -> Bool {
        // Array indexing: `suffix(2) ==` picked Sequence's suffix, which walks every byte.
        let n = bytes.count
        return n >= 5 && bytes[0] == 0x1B && bytes[1] == 0x50 && bytes[n - 2] == 0x1B && bytes[n - 1] == 0x5C
    }
}

extension SixelFormat {
    /// Past this many pixels a sixel picture (the zoom view's) is encoded as bands, one per core,
    /// at the same time: libsixel takes about 115 ms a megapixel (docs/benchmarks.md), and a full-screen picture on a
    /// large terminal is three.
    static let bandedPixels = 1_000_000

    /// Colour registers a sixel preview uses at most.
    static let previewColors = 64

    /// Sixel pieces are at most this wide, in whole cells: libsixel writes narrow pictures much
    /// faster (see `Sixel.encode(_:columns:)`): an 800-pixel tile in 200-pixel strips takes 57 ms
    /// instead of 97, for 2% more bytes (a palette per strip), the same pixels (docs/benchmarks.md).
    static let stripPixels = 200

    /// The picture cut on cells into pieces: strips side by side, no wider than `stripPixels` and
    /// what the terminal draws, sharing one palette and one dithering; and, for a large picture
    /// (`banded`, the zoom view's) or one taller than the terminal draws, bands of rows, each with
    /// its own palette, encoded at once on several cores.
    static func pieces(_ image: consuming RGBImage, colors: Int, diffusion: Sixel.Diffusion, cut: SixelCut, banded: Bool) -> [SixelBand] {
        let cellRows = (image.height + cut.cellHeight - 1) / cut.cellHeight
        let cellColumns = (image.width + cut.cellWidth - 1) / cut.cellWidth
        let bandCount = max(banded ? min(WorkerThreads.cores, cellRows) : 1, cut.pieceRows.map { (cellRows + $0 - 1) / $0 } ?? 1)
        let stripCells = min(max(1, stripPixels / cut.cellWidth), cut.pieceColumns ?? .max)
        let columnCount = (cellColumns + stripCells - 1) / stripCells
        // Pixel edges on cell boundaries, spread evenly: band k covers rows rowEdges[k]..<rowEdges[k + 1].
        let rowEdges = (0...bandCount).map { min(image.height, ($0 * cellRows / bandCount) * cut.cellHeight) }
        let columnEdges = (0...columnCount).map { min(image.width, ($0 * cellColumns / columnCount) * cut.cellWidth) }
        let bands = (0..<bandCount).filter { rowEdges[$0] < rowEdges[$0 + 1] }
        let edges = Array(Set(columnEdges)).sorted()
        // One band (a grid tile): the picture itself is dithered, no copy of it is made.
        if bands.count == 1 {
            return strips(consume image, row: rowEdges[bands[0]] / cut.cellHeight, edges: edges, cut: cut, colors: colors, diffusion: diffusion)
        }
        let whole = copy image
        let results = Locked<[Int: [SixelBand]]>([:])
        DispatchQueue.concurrentPerform(iterations: bands.count) { k in
            let (top, bottom) = (rowEdges[bands[k]], rowEdges[bands[k] + 1])
            let pieces = strips(whole.region(x: 0, y: top, width: whole.width, height: bottom - top), row: top / cut.cellHeight,
                                edges: edges, cut: cut, colors: colors, diffusion: diffusion)
            results.withLock { $0[k] = pieces }
        }
        let encoded = results.withLock { $0 }
        return bands.indices.flatMap { encoded[$0] ?? [] }
    }

    /// Rows of a picture as strips side by side, cut at `edges`, placed at cell row `row`.
    private static func strips(_ rows: consuming RGBImage, row: Int, edges: [Int], cut: SixelCut, colors: Int,
                               diffusion: Sixel.Diffusion) -> [SixelBand] {
        let strips = (try? Sixel.encode(rows, columns: edges, colors: colors, diffusion: diffusion)) ?? []
        return strips.indices.map { SixelBand(row: row, column: edges[$0] / cut.cellWidth, bytes: strips[$0]) }
    }
}
