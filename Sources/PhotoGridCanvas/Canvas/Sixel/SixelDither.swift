/// Floyd-Steinberg dithering to a palette, index for index what libsixel's
/// `sixel_dither_apply_palette` makes (libsixel 1.10), in one pass without its calls per pixel.
///
/// Why: libsixel spreads each channel's error with a function call per neighbour, a division
/// each, and finds a colour through another call; on a 400-pixel tile that was about half of the
/// sixel encode (docs/benchmarks.md, "Issue 53: sixel's dithering"). The rules kept, so the
/// pictures are the same: pixels in rows from the top, each taking the palette colour nearest it
/// as it stands (squared distance, the first of equals), remembered for every pixel of its 5-bit
/// colour cell (the first pixel of a cell decides for the cell); its error, per channel, goes
/// 7/16 right, 3/16 below left, 5/16 below and 1/16 below right, each rounded towards zero and the
/// pixel clamped to 0...255, and only from a pixel that has all four (libsixel's rule: not from
/// the last row or column; from the first column, "below left" is the end of its own row).
enum SixelDither {
    /// Dithers `pixels` (RGB, `width` x `height`) in place; returns the palette index of each.
    static func floydSteinberg(_ pixels: UnsafeMutablePointer<UInt8>, width: Int, height: Int,
                               palette: UnsafePointer<UInt8>, colors: Int) -> [UInt8] {
        var indices = [UInt8](repeating: 0, count: width * height)
        // The cell's colour + 1; 0 while not yet looked up.
        var cells = [UInt16](repeating: 0, count: 1 << 15)
        let search = Search(palette: palette, colors: colors)
        indices.withUnsafeMutableBufferPointer { out in
            cells.withUnsafeMutableBufferPointer { cells in
                for y in 0..<height {
                    let spreads = y < height - 1
                    for x in 0..<width {
                        let position = y * width + x
                        let p = pixels + position * 3
                        let cell = Int(p[0] >> 3) << 10 | Int(p[1] >> 3) << 5 | Int(p[2] >> 3)
                        var index = Int(cells[cell])
                        if index == 0 {
                            index = search.nearest(Int32(p[0]), Int32(p[1]), Int32(p[2])) + 1
                            cells[cell] = UInt16(index)
                        }
                        index -= 1
                        out[position] = UInt8(truncatingIfNeeded: index)
                        guard spreads, x < width - 1 else { continue }
                        let chosen = palette + index * 3
                        for n in 0..<3 {
                            let error = Int(p[n]) - Int(chosen[n])
                            add(error * 7 / 16, to: p + 3 + n)
                            add(error * 3 / 16, to: p + (width - 1) * 3 + n)
                            add(error * 5 / 16, to: p + width * 3 + n)
                            add(error / 16, to: p + (width + 1) * 3 + n)
                        }
                    }
                }
            }
        }
        return indices
    }

    @inline(__always)
    private static func add(_ amount: Int, to byte: UnsafeMutablePointer<UInt8>) {
        byte.pointee = UInt8(clamping: Int(byte.pointee) + amount)
    }

    /// The palette sorted by green, for finding the colour nearest a pixel without measuring all
    /// 256: from the pixel's green outwards, until the green alone is farther than the best found.
    /// The answer is libsixel's (a search of them all in order): the least squared distance, the
    /// lowest index of equals.
    final class Search {
        private var green: [Int32] = [], red: [Int32] = [], blue: [Int32] = [], index: [Int32] = []
        /// For each green level, the first sorted colour at or above it.
        private var start = [Int](repeating: 0, count: 257)

        init(palette: UnsafePointer<UInt8>, colors: Int) {
            let order = (0..<colors).sorted { (palette[$0 * 3 + 1], $0) < (palette[$1 * 3 + 1], $1) }
            for i in order {
                red.append(Int32(palette[i * 3]))
                green.append(Int32(palette[i * 3 + 1]))
                blue.append(Int32(palette[i * 3 + 2]))
                index.append(Int32(i))
            }
            var k = 0
            for level in 0...256 {
                while k < colors && green[k] < Int32(level) { k += 1 }
                start[level] = k
            }
        }

        func nearest(_ r: Int32, _ g: Int32, _ b: Int32) -> Int {
            var least = Int32.max, best = Int32.max
            let count = green.count
            green.withUnsafeBufferPointer { green in
                red.withUnsafeBufferPointer { red in
                    blue.withUnsafeBufferPointer { blue in
                        index.withUnsafeBufferPointer { index in
                            @inline(__always) func consider(_ k: Int) {
                                let dr = r - red[k], dg = g - green[k], db = b - blue[k]
                                let distance = dr * dr + dg * dg + db * db
                                if distance < least || (distance == least && index[k] < best) { (least, best) = (distance, index[k]) }
                            }
                            var up = start[Int(g)], down = up - 1
                            while up < count || down >= 0 {
                                if up < count {
                                    let dg = green[up] - g
                                    if dg * dg > least { up = count } else { consider(up); up += 1 }
                                }
                                if down >= 0 {
                                    let dg = g - green[down]
                                    if dg * dg > least { down = -1 } else { consider(down); down -= 1 }
                                }
                            }
                        }
                    }
                }
            }
            return Int(best)
        }
    }
}
