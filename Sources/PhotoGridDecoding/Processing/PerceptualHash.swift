import PhotoGridModel

/// A photo's look in 64 bits, for telling near-identical shots (a burst, a copy saved again at
/// another size or quality) from different ones: the difference hash ("dHash", as Neal Krawetz
/// described it and image-dedup tools use it). The photo is shrunk to 9x8 grey cells, each the
/// mean of its area, and each bit says whether a cell is brighter than the one to its right.
/// It follows the picture's gradients, so it survives scaling, recompression and a small shift
/// in exposure; two shots of different scenes differ in about half the bits.
package enum PerceptualHash {
    /// The hash of an upright image (any size, 9x8 or more is best).
    package static func difference(_ image: RGBImage) -> UInt64 {
        guard image.width > 0, image.height > 0 else { return 0 }
        var cells = [Double](repeating: 0, count: 9 * 8)
        image.pixels.withUnsafeBufferPointer { pixels in
            for cy in 0..<8 {
                let y0 = cy * image.height / 8, y1 = max(y0 + 1, (cy + 1) * image.height / 8)
                for cx in 0..<9 {
                    let x0 = cx * image.width / 9, x1 = max(x0 + 1, (cx + 1) * image.width / 9)
                    var sum = 0
                    for y in y0..<min(y1, image.height) {
                        var at = (y * image.width + x0) * 3
                        for _ in x0..<min(x1, image.width) {
                            // Luma, Rec. 601 weights in integers.
                            sum += 299 * Int(pixels[at]) + 587 * Int(pixels[at + 1]) + 114 * Int(pixels[at + 2])
                            at += 3
                        }
                    }
                    cells[cy * 9 + cx] = Double(sum) / Double(max(1, (y1 - y0) * (x1 - x0)))
                }
            }
        }
        var hash: UInt64 = 0
        for cy in 0..<8 {
            for cx in 0..<8 where cells[cy * 9 + cx] < cells[cy * 9 + cx + 1] {
                hash |= 1 << UInt64(cy * 8 + cx)
            }
        }
        return hash
    }

    /// How many of the 64 bits two hashes differ in.
    package static func distance(_ a: UInt64, _ b: UInt64) -> Int { (a ^ b).nonzeroBitCount }
}
