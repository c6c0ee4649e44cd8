import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridDiskCache
import PhotoGridSystem

/// Turns an upright image into what the terminal is sent for one tile. The seam where tests put a fake.
package protocol TileEncoding: Sendable {
    func encode(_ source: RGBImage, for request: TileRequest) -> EncodedTile
    /// As `encode(_:for:)`, the tile marked when `incomplete` (its file ended early).
    func encode(_ source: RGBImage, for request: TileRequest, incomplete: Bool) -> EncodedTile
}

extension TileEncoding {
    package func encode(_ source: RGBImage, for request: TileRequest, incomplete: Bool) -> EncodedTile { encode(source, for: request) }
}

/// Crops or letterboxes the source to the tile's box, marks it when its file ended early, cuts
/// it to the rows on screen, then has the request's protocol encode it (`TileFormat`).
package struct TileEncoder: TileEncoding {
    package init() {}

    package func encode(_ source: RGBImage, for request: TileRequest) -> EncodedTile {
        encode(source, for: request, incomplete: false)
    }

    package func encode(_ source: RGBImage, for request: TileRequest, incomplete: Bool) -> EncodedTile {
        var image: RGBImage
        if let crop = request.crop {
            let region = Resampler.Region(x: crop.x * Double(source.width), y: crop.y * Double(source.height),
                                          width: crop.width * Double(source.width), height: crop.height * Double(source.height))
            image = Resampler.resample(source, region: region, width: request.width, height: request.height)
        } else {
            image = PhotoDecoder.shape(source, width: request.width, height: request.height, fit: request.fit)
        }
        if incomplete { TileEncoder.markIncomplete(&image) }
        if request.keptRows < image.height { image = image.topRows(request.keptRows) }
        return request.mode.format.encode(image, for: request)
    }
}

extension TileEncoder {
    /// The mark of a picture whose file ended early: a triangle of amber and black stripes in the
    /// tile's lower right corner, a fifth of its short side, drawn into the pixels so that it
    /// shows the same in sixel and half-blocks.
    static func markIncomplete(_ image: inout RGBImage) {
        let side = max(6, min(image.width, image.height) / 5), stripe = max(2, side / 6)
        guard image.width >= side, image.height >= side else { return }
        for y in (image.height - side)..<image.height {
            for x in (image.width - side)..<image.width where (x - (image.width - side)) + (y - (image.height - side)) >= side {
                image[x, y] = (x + y) / stripe % 2 == 0 ? RGB(250, 190, 0) : RGB(20, 20, 20)
            }
        }
    }
}
