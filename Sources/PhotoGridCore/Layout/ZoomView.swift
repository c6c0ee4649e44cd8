import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Where the zoom view stands: which photo, how far in, and which point of it is at the centre
/// of the screen (in fractions of the photo's width and height).
package struct ZoomState: Hashable, Sendable {
    /// Fit, then closer up to six times: the steps of `+` and `-`.
    package static let levels: [Double] = [1, 1.5, 2, 3, 4, 6]

    package var photo: PhotoID
    package var level = 0
    package var centerX = 0.5
    package var centerY = 0.5

    package init(photo: PhotoID) { self.photo = photo }

    package var zoom: Double { ZoomState.levels[level] }
    package var isZoomedIn: Bool { level > 0 }

    package mutating func zoomIn() { level = min(ZoomState.levels.count - 1, level + 1) }
    package mutating func zoomOut() { level = max(0, level - 1) }
    package mutating func fit() { level = 0; centerX = 0.5; centerY = 0.5 }

    /// Moves the centre by a quarter of what is visible, in whole visible widths (`dx`, `dy`);
    /// `geometry` clamps it afterwards.
    package mutating func pan(dx: Double, dy: Double, visible: CropRegion) {
        centerX += dx * visible.width / 4
        centerY += dy * visible.height / 4
    }
}

/// What the zoom view draws for a `ZoomState`: the visible part of the photo, its size in the
/// mode's pixels (sixel pixels, or half-block pixels: one cell wide, half a cell tall), and the
/// cell where it starts, centred in the area.
package struct ZoomGeometry: Hashable, Sendable {
    package var region: CropRegion
    package var width: Int
    package var height: Int
    package var column: Int
    package var row: Int

    /// `area` is the view in the mode's pixels, `cell` a cell in those pixels (10x20 for sixel on
    /// a 10x20 font, 1x2 for half-blocks), `image` the photo's upright size (only its shape
    /// matters). The state's centre is clamped so that the view never leaves the photo.
    package static func compute(state: inout ZoomState, area: (width: Int, height: Int), cell: (width: Int, height: Int),
                               image: (width: Int, height: Int)) -> ZoomGeometry {
        let aw = Double(max(1, area.width)), ah = Double(max(1, area.height))
        let iw = Double(max(1, image.width)), ih = Double(max(1, image.height))
        let fitScale = min(aw / iw, ah / ih)
        let shownWidth = iw * fitScale * state.zoom, shownHeight = ih * fitScale * state.zoom
        let width = max(1, Int(min(aw, shownWidth).rounded(.down)))
        let height = max(1, Int(min(ah, shownHeight).rounded(.down)))
        let rw = min(1, Double(width) / shownWidth), rh = min(1, Double(height) / shownHeight)
        state.centerX = min(1 - rw / 2, max(rw / 2, state.centerX))
        state.centerY = min(1 - rh / 2, max(rh / 2, state.centerY))
        let region = CropRegion(x: state.centerX - rw / 2, y: state.centerY - rh / 2, width: rw, height: rh)
        let column = Int((aw - Double(width)) / 2) / max(1, cell.width)
        let row = Int((ah - Double(height)) / 2) / max(1, cell.height)
        return ZoomGeometry(region: region, width: width, height: height, column: column, row: row)
    }
}
