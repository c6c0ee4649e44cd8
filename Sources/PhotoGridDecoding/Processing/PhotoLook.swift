import PhotoGridModel

/// A photo's look, for telling near-identical shots (a burst, a copy saved again at another size
/// or quality) from different ones, in two parts that must both agree:
/// - the difference hash ("dHash", as Neal Krawetz described it and image-dedup tools use it): the
///   photo shrunk to 9x8 grey cells, each bit whether a cell is brighter than the one to its
///   right. It follows the picture's gradients, so it survives scaling, recompression and a small
///   change of exposure; two shots of different scenes differ in about half the bits. But a
///   smooth, dark or misty picture has few gradients, and its bits are nearly noise: two of them
///   can hash alike (a dune, a purple mouse on black and a misty lake did, among 39 photos);
/// - so also its colours: 8x8 cells of mean red, green and blue, which tell a yellow dune from a
///   dark blue lake at once, and barely move between frames of a burst.
package struct PhotoLook: Sendable, Equatable {
    package let hash: UInt64
    /// 8x8 cells, red, green and blue each.
    package let colours: [UInt8]

    /// Bits of the hash two shots of one scene may differ in (of 64): frames of a burst differ
    /// in a few; unrelated photos in about 32.
    package static let hashDistance = 10
    /// The mean difference of the colour cells two shots of one scene may show (of 255).
    package static let colourDistance = 24

    /// The look of an upright image (any size; 9x8 pixels or more is best).
    package init(_ image: RGBImage) {
        hash = PhotoLook.difference(image)
        colours = PhotoLook.cells(image, columns: 8, rows: 8)
    }

    package init(hash: UInt64, colours: [UInt8]) {
        self.hash = hash
        self.colours = colours
    }

    /// Whether two looks are of near-identical shots.
    package func isAlike(_ other: PhotoLook) -> Bool {
        (hash ^ other.hash).nonzeroBitCount <= PhotoLook.hashDistance && colourDistance(other) <= PhotoLook.colourDistance
    }

    /// The mean difference of the colour cells.
    package func colourDistance(_ other: PhotoLook) -> Int {
        guard colours.count == other.colours.count, !colours.isEmpty else { return 255 }
        var sum = 0
        for (a, b) in zip(colours, other.colours) { sum += abs(Int(a) - Int(b)) }
        return sum / colours.count
    }

    /// The difference hash, from each cell's mean luma at full precision (a byte a channel
    /// first would round smooth pictures' small differences into ties).
    static func difference(_ image: RGBImage) -> UInt64 {
        guard image.width > 0, image.height > 0 else { return 0 }
        var cells = [Double](repeating: 0, count: 9 * 8)
        image.pixels.withUnsafeBufferPointer { pixels in
            for cy in 0..<8 {
                let y0 = cy * image.height / 8, y1 = max(y0 + 1, (cy + 1) * image.height / 8)
                for cx in 0..<9 {
                    let x0 = cx * image.width / 9, x1 = max(x0 + 1, (cx + 1) * image.width / 9)
                    var sum = 0, count = 0
                    for y in y0..<min(y1, image.height) {
                        var at = (y * image.width + x0) * 3
                        for _ in x0..<min(x1, image.width) {
                            // Luma, Rec. 601 weights in integers.
                            sum += 299 * Int(pixels[at]) + 587 * Int(pixels[at + 1]) + 114 * Int(pixels[at + 2])
                            at += 3
                            count += 1
                        }
                    }
                    cells[cy * 9 + cx] = Double(sum) / Double(max(1, count))
                }
            }
        }
        var hash: UInt64 = 0
        for y in 0..<8 {
            for x in 0..<8 where cells[y * 9 + x] < cells[y * 9 + x + 1] {
                hash |= 1 << UInt64(y * 8 + x)
            }
        }
        return hash
    }

    /// The image as `columns` x `rows` cells, each the mean of its area, red, green and blue.
    static func cells(_ image: RGBImage, columns: Int, rows: Int) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: columns * rows * 3)
        guard image.width > 0, image.height > 0 else { return out }
        image.pixels.withUnsafeBufferPointer { pixels in
            for cy in 0..<rows {
                let y0 = cy * image.height / rows, y1 = max(y0 + 1, (cy + 1) * image.height / rows)
                for cx in 0..<columns {
                    let x0 = cx * image.width / columns, x1 = max(x0 + 1, (cx + 1) * image.width / columns)
                    var sums = (0, 0, 0), count = 0
                    for y in y0..<min(y1, image.height) {
                        var at = (y * image.width + x0) * 3
                        for _ in x0..<min(x1, image.width) {
                            sums.0 += Int(pixels[at]); sums.1 += Int(pixels[at + 1]); sums.2 += Int(pixels[at + 2])
                            at += 3
                            count += 1
                        }
                    }
                    let cell = (cy * columns + cx) * 3, n = max(1, count)
                    out[cell] = UInt8(sums.0 / n); out[cell + 1] = UInt8(sums.1 / n); out[cell + 2] = UInt8(sums.2 / n)
                }
            }
        }
        return out
    }
}
