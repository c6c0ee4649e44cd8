/// Packed 8-bit RGB pixels, rows top to bottom: what every stage after decoding hands on.
package struct RGBImage: Sendable, Equatable {
    package let width: Int
    package let height: Int
    /// `width * height * 3` bytes, red, green, blue.
    package var pixels: [UInt8]

    package init(width: Int, height: Int, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0 && pixels.count == width * height * 3, "RGBImage size mismatch")
        self.width = width
        self.height = height
        self.pixels = pixels
    }

    package init(width: Int, height: Int, fill: RGB = RGB(0, 0, 0)) {
        self.width = width
        self.height = height
        var bytes = [UInt8](repeating: 0, count: width * height * 3)
        if fill != RGB(0, 0, 0) {
            // The first pixel, then what is filled so far copied after itself: a few dozen
            // copies for any size, as fast in a debug build (the tests' model terminal fills a
            // screen-sized image for each frame) as in a release one.
            bytes.withUnsafeMutableBufferPointer { buffer in
                guard let base = buffer.baseAddress, buffer.count >= 3 else { return }
                base[0] = fill.r; base[1] = fill.g; base[2] = fill.b
                var filled = 3
                while filled < buffer.count {
                    let count = min(filled, buffer.count - filled)
                    (base + filled).update(from: base, count: count)
                    filled += count
                }
            }
        }
        self.pixels = bytes
    }

    /// What the image costs in a cache.
    package var byteCount: Int { pixels.count }

    package subscript(x: Int, y: Int) -> RGB {
        get {
            let i = (y * width + x) * 3
            return RGB(pixels[i], pixels[i + 1], pixels[i + 2])
        }
        set {
            let i = (y * width + x) * 3
            pixels[i] = newValue.r; pixels[i + 1] = newValue.g; pixels[i + 2] = newValue.b
        }
    }

    /// The top `rows` rows, for a tile that the bottom of the screen cuts.
    package func topRows(_ rows: Int) -> RGBImage {
        let kept = max(0, min(rows, height))
        return RGBImage(width: width, height: kept, pixels: Array(pixels[0..<(kept * width * 3)]))
    }

    /// The rectangle at (x, y) of `width` x `height`, which must lie inside the image.
    package func region(x: Int, y: Int, width w: Int, height h: Int) -> RGBImage {
        precondition(x >= 0 && y >= 0 && w >= 0 && h >= 0 && x + w <= width && y + h <= height, "region outside the image")
        var bytes: [UInt8] = []
        bytes.reserveCapacity(w * h * 3)
        for row in y..<(y + h) {
            // Named steps: as one subscript expression this took 4.3 s to type-check.
            let start: Int = (row * width + x) * 3
            let end: Int = start + w * 3
            bytes += pixels[start..<end]
        }
        return RGBImage(width: w, height: h, pixels: bytes)
    }

    /// Copies `image` into this one with its top-left corner at (x, y), clipped to the bounds.
    package mutating func draw(_ image: RGBImage, atX x: Int, y: Int) {
        let x0 = max(0, x), x1 = min(width, x + image.width)
        guard x0 < x1 else { return }
        for row in max(0, y)..<max(max(0, y), min(height, y + image.height)) {
            let source = ((row - y) * image.width + (x0 - x)) * 3
            let target = (row * width + x0) * 3
            let count = (x1 - x0) * 3
            pixels.replaceSubrange(target..<(target + count), with: image.pixels[source..<(source + count)])
        }
    }
}

/// One colour.
package struct RGB: Hashable, Sendable, CustomStringConvertible {
    package var r: UInt8, g: UInt8, b: UInt8
    package init(_ r: UInt8, _ g: UInt8, _ b: UInt8) { self.r = r; self.g = g; self.b = b }
    package var description: String { "rgb(\(r),\(g),\(b))" }
}
