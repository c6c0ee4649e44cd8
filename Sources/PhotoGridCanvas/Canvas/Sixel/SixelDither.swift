/// Floyd-Steinberg dithering to a palette, index for index what libsixel's
/// `sixel_dither_apply_palette` makes (libsixel 1.10), in one pass without its calls per pixel.
///
/// Why: libsixel spreads each channel's error with a function call per neighbour, a division
/// each, and finds a colour through another call: a quarter of a sixel contact sheet's CPU
/// (docs/benchmarks.md, "Issue 53: a third pass at --print --fit"). The rules kept, so the
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
                @inline(__always) func colour(_ r: Int, _ g: Int, _ b: Int) -> Int {
                    let cell = (r >> 3) << 10 | (g >> 3) << 5 | (b >> 3)
                    var index = Int(cells[cell])
                    if index == 0 {
                        index = search.nearest(Int32(r), Int32(g), Int32(b)) + 1
                        cells[cell] = UInt16(index)
                    }
                    return index - 1
                }
                for y in 0..<height {
                    let row = pixels + y * width * 3
                    // The last row spreads nothing, nor does a picture of two columns take this
                    // way: its "below left" of the first column is its right neighbour, which
                    // libsixel adds to after the 7/16, and the carried pixel would take before.
                    guard y < height - 1, width >= 3 else {
                        for x in 0..<width {
                            let p = row + x * 3
                            let index = colour(Int(p[0]), Int(p[1]), Int(p[2]))
                            out[y * width + x] = UInt8(truncatingIfNeeded: index)
                            guard y < height - 1, x < width - 1 else { continue }
                            let chosen = palette + index * 3
                            for n in 0..<3 {
                                let error = Int(p[n]) - Int(chosen[n])
                                add(error * 7 / 16, to: p + 3 + n)
                                add(error * 3 / 16, to: p + (width - 1) * 3 + n)
                                add(error * 5 / 16, to: p + width * 3 + n)
                                add(error / 16, to: p + (width + 1) * 3 + n)
                            }
                        }
                        continue
                    }
                    // The pixel being dithered is carried from one to the next in registers,
                    // its 7/16 added last, as libsixel adds it; the row below is added to in place.
                    var (r, g, b) = (Int(row[0]), Int(row[1]), Int(row[2]))
                    for x in 0..<(width - 1) {
                        let index = colour(r, g, b)
                        out[y * width + x] = UInt8(truncatingIfNeeded: index)
                        let chosen = palette + index * 3
                        let (er, eg, eb) = (r - Int(chosen[0]), g - Int(chosen[1]), b - Int(chosen[2]))
                        // Below left: for the first column, the end of this row (libsixel's rule).
                        let p = row + x * 3
                        let belowLeft = p + (width - 1) * 3, below = p + width * 3, belowRight = below + 3
                        add(er * 3 / 16, to: belowLeft)
                        add(eg * 3 / 16, to: belowLeft + 1)
                        add(eb * 3 / 16, to: belowLeft + 2)
                        add(er * 5 / 16, to: below)
                        add(eg * 5 / 16, to: below + 1)
                        add(eb * 5 / 16, to: below + 2)
                        add(er / 16, to: belowRight)
                        add(eg / 16, to: belowRight + 1)
                        add(eb / 16, to: belowRight + 2)
                        let right = p + 3
                        r = clamped(Int(right[0]) + er * 7 / 16)
                        g = clamped(Int(right[1]) + eg * 7 / 16)
                        b = clamped(Int(right[2]) + eb * 7 / 16)
                    }
                    // The last column takes its colour and spreads nothing.
                    out[y * width + width - 1] = UInt8(truncatingIfNeeded: colour(r, g, b))
                }
            }
        }
        return indices
    }

    @inline(__always)
    private static func clamped(_ value: Int) -> Int { min(max(value, 0), 255) }

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
