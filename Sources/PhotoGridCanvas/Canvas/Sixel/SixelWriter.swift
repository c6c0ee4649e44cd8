import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Writes palette-indexed pixels as a DCS sixel sequence: what libsixel's `sixel_encode` does
/// once its palette and dithering are made, in one pass a band.
///
/// Why not libsixel's: its writer keeps each band's runs in a list sorted by insertion, so a band
/// costs the square of its runs, and a dithered photo has runs of a few pixels: half of a 400-pixel
/// tile's encode (docs/decisions.md, "Sixel written by photogrid"). Here a band is gathered once,
/// as a 6-bit column mask per colour; each colour's columns are cut into segments where it leaves
/// a gap, and the segments are packed left to right into as few lines as will hold them (a column
/// has at most six colours, so a band takes a handful of lines, not one a colour). The pixels are
/// the same, index for index; only the bytes are laid out anew.
///
/// Two things make the bytes fewer (9-12% on photos, docs/decisions.md, "Sixel bands: the
/// commonest colour first"): where one colour is in most columns of a stretch of the band, it is
/// painted over the whole stretch first (a sixel's set bits paint over what is there), and the
/// other colours over it, so its own sixels there are not written; and the palette is numbered
/// by how many pixels use each colour, so the colours selected most often have the shortest `#n`.
///
/// The sequence: `ESC P q`, raster attributes (`"1;1;width;height`: square pixels, the size), the
/// colours used (`#n;2;r;g;b`, in percent), then per band of six rows: the fills (`#n`, empty
/// sixels up to the stretch, `!count` of the band's full sixel), then its lines (`$` before each:
/// back to the band's first column), each a run of segments: empty sixels up to the segment, `#n`
/// where the colour changes, one sixel character a column, runs of four or more as `!count`; `-`
/// between bands, and `ESC \`.
enum SixelWriter {
    /// `indexed` holds `height` rows of `stride` indices; the columns `x0..<x0 + width` are
    /// written. `palette` is `colors` RGB triples.
    static func write(_ indexed: UnsafePointer<UInt8>, stride: Int, x0: Int, width: Int, height: Int,
                      palette: UnsafePointer<UInt8>, colors: Int) -> [UInt8] {
        var out: [UInt8] = []
        out.reserveCapacity(width * height / 2 + 4096)
        out += [0x1B, UInt8(ascii: "P"), UInt8(ascii: "q"), UInt8(ascii: "\""), UInt8(ascii: "1"), UInt8(ascii: ";"),
                UInt8(ascii: "1"), UInt8(ascii: ";")]
        decimal(width, to: &out)
        out.append(UInt8(ascii: ";"))
        decimal(height, to: &out)

        // The colours the picture uses, defined once, numbered by how many pixels each has: the
        // most used are selected most often (`#n`), and a number under 10 is a byte shorter than
        // one under 100, two shorter than one from 100. The palette's order means nothing else.
        // Counted over every other row and column: the order only needs to be about right. Every
        // colour used gets a number: one met only between the samples counts one.
        var count = [Int](repeating: 0, count: 256)
        for y in Swift.stride(from: 0, to: height, by: 2) {
            let row = indexed + y * stride + x0
            for x in Swift.stride(from: 0, to: width, by: 2) { count[Int(row[x])] += 1 }
        }
        var used = [Bool](repeating: false, count: 256)
        for y in 0..<height {
            let row = indexed + y * stride + x0
            for x in 0..<width { used[Int(row[x])] = true }
        }
        for c in 0..<256 where used[c] && count[c] == 0 { count[c] = 1 }
        let ranked = (0..<min(colors, 256)).filter { count[$0] > 0 }.sorted { count[$0] > count[$1] || (count[$0] == count[$1] && $0 < $1) }
        var number = [Int](repeating: 0, count: 256)
        for (n, c) in ranked.enumerated() {
            number[c] = n
            out.append(UInt8(ascii: "#"))
            decimal(n, to: &out)
            out += [UInt8(ascii: ";"), UInt8(ascii: "2")]
            for k in 0..<3 {
                out.append(UInt8(ascii: ";"))
                // libsixel's rounding: the nearest percent.
                decimal((Int(palette[c * 3 + k]) * 100 + 127) / 255, to: &out)
            }
        }

        // Per band: each colour's mask of rows in each column, its first column, its segment
        // being gathered (`start`, `end`), and in how many columns of each block it is; each
        // block's commonest colour.
        let blocks = (width + SixelWriter.block - 1) / SixelWriter.block
        var masks = [UInt8](repeating: 0, count: 256 * width)
        var inBlock = [UInt8](repeating: 0, count: 256 * blocks)
        var commonest = [Int](repeating: 0, count: blocks), most = [UInt8](repeating: 0, count: blocks)
        var first = [Int](repeating: 0, count: 256), start = [Int](repeating: 0, count: 256)
        var end = [Int](repeating: -1, count: 256)
        var filled = [Bool](repeating: false, count: 256)
        var present: [Int] = []
        present.reserveCapacity(256)
        var fills: [Segment] = []
        var segments: [Segment] = []
        var order: [Int] = [], next: [Int] = []
        var bucket = [Int](repeating: 0, count: width + 1)
        var lines: [Line] = [], lineCount = 0
        masks.withUnsafeMutableBufferPointer { masks in
            for top in Swift.stride(from: 0, to: height, by: 6) {
                let rows = min(6, height - top)
                let band = indexed + top * stride + x0
                present.removeAll(keepingCapacity: true)
                segments.removeAll(keepingCapacity: true)
                // Column by column, so that each colour meets its columns in order: its segments
                // are cut as they are gathered, where it leaves more than `gap` columns empty (a
                // column holds at most six colours, so the segments pack into a few lines).
                for x in 0..<width {
                    let k = x / SixelWriter.block
                    for r in 0..<rows {
                        let c = Int(band[r * stride + x])
                        let at = c * width + x
                        let m = masks[at]
                        if m == 0 {
                            let e = end[c]
                            if e < 0 {
                                present.append(c)
                                first[c] = x
                                start[c] = x
                            } else if x - e > SixelWriter.gap {
                                segments.append(Segment(color: c, start: start[c], end: e))
                                start[c] = x
                            }
                            end[c] = x
                            let n = inBlock[c * blocks + k] &+ 1
                            inBlock[c * blocks + k] = n
                            if n > most[k] { most[k] = n; commonest[k] = c }
                        }
                        masks[at] = m | UInt8(1 << r)
                    }
                }
                for c in present { segments.append(Segment(color: c, start: start[c], end: end[c])) }
                // The fills: where one colour is in most columns of a stretch of blocks, it is
                // painted over the whole stretch first (`!n~`), and the other colours over it: its
                // own sixels there, a character a column, are not written.
                fills.removeAll(keepingCapacity: true)
                var saved = 0
                for k in 0..<blocks {
                    // The stretch's colour kept while it is nearly the commonest: a fill costs its `#n`.
                    if let open = fills.last, open.end == k - 1, Int(inBlock[open.color * blocks + k]) * 4 >= Int(most[k]) * 3 {
                        fills[fills.count - 1].end = k
                        saved += Int(inBlock[open.color * blocks + k])
                        continue
                    }
                    if !fills.isEmpty, saved <= SixelWriter.fillCost { fills.removeLast() }
                    fills.append(Segment(color: commonest[k], start: k, end: k))
                    saved = Int(most[k])
                }
                if !fills.isEmpty, saved <= SixelWriter.fillCost { fills.removeLast() }
                // A filled colour's own sixels cleared where it is filled, and its segments made
                // again from what is left.
                for i in fills.indices {
                    fills[i].start *= SixelWriter.block
                    fills[i].end = min(width - 1, fills[i].end * SixelWriter.block + SixelWriter.block - 1)
                    let line = masks.baseAddress! + fills[i].color * width
                    for x in fills[i].start...fills[i].end { line[x] = 0 }
                    filled[fills[i].color] = true
                }
                if !fills.isEmpty {
                    segments.removeAll { filled[$0.color] }
                    for c in present where filled[c] {
                        filled[c] = false
                        let line = masks.baseAddress! + c * width
                        var x = first[c]
                        while x <= end[c] && line[x] == 0 { x += 1 }
                        guard x <= end[c] else { continue }
                        var from = x, to = x
                        while x <= end[c] {
                            if line[x] != 0 {
                                if x - to > SixelWriter.gap {
                                    segments.append(Segment(color: c, start: from, end: to))
                                    from = x
                                }
                                to = x
                            }
                            x += 1
                        }
                        segments.append(Segment(color: c, start: from, end: to))
                    }
                }
                if next.count < segments.count { next = [Int](repeating: -1, count: segments.count * 2) }
                // In order of start: counted into buckets by column.
                order.removeAll(keepingCapacity: true)
                for i in 0...width { bucket[i] = 0 }
                for segment in segments { bucket[segment.start + 1] += 1 }
                for i in 0..<width { bucket[i + 1] += bucket[i] }
                order.append(contentsOf: repeatElement(0, count: segments.count))
                for (k, segment) in segments.enumerated() {
                    order[bucket[segment.start]] = k
                    bucket[segment.start] += 1
                }
                // Each segment on the line whose end is nearest before it (least padding), else a
                // new line; a line is its segments chained through `next`.
                if lines.count < segments.count { lines = [Line](repeating: Line(), count: segments.count * 2) }
                lineCount = lines.withUnsafeMutableBufferPointer { lines in
                    var lineCount = 0
                    for k in order {
                        let segment = segments[k]
                        var best = -1, nearest = -1
                        for i in 0..<lineCount where lines[i].end < segment.start && lines[i].end > nearest { best = i; nearest = lines[i].end }
                        next[k] = -1
                        if best < 0 {
                            best = lineCount
                            lineCount += 1
                            lines[best].head = k
                        } else {
                            next[lines[best].tail] = k
                        }
                        lines[best].end = segment.end
                        lines[best].tail = k
                    }
                    return lineCount
                }
                var color = -1
                if !fills.isEmpty {
                    let full = 63 + UInt8((1 << min(6, height - top)) - 1)
                    var cursor = 0
                    for fill in fills {
                        if fill.color != color {
                            out.append(UInt8(ascii: "#"))
                            decimal(number[fill.color], to: &out)
                            color = fill.color
                        }
                        if fill.start > cursor { run(fill.start - cursor, of: 63, to: &out) }
                        run(fill.end - fill.start + 1, of: full, to: &out)
                        cursor = fill.end + 1
                    }
                }
                for i in 0..<lineCount {
                    if i > 0 || !fills.isEmpty { out.append(UInt8(ascii: "$")) }
                    var cursor = 0
                    var k = lines[i].head
                    while k >= 0 {
                        let segment = segments[k]
                        // The colour first, then the empty sixels up to the segment, as libsixel
                        // writes them: its decoder misreads empty sixels before a colour change.
                        if segment.color != color {
                            out.append(UInt8(ascii: "#"))
                            decimal(number[segment.color], to: &out)
                            color = segment.color
                        }
                        if segment.start > cursor { run(segment.start - cursor, of: 63, to: &out) }
                        let masksOfColor = masks.baseAddress! + segment.color * width
                        var x = segment.start
                        while x <= segment.end {
                            let m = masksOfColor[x]
                            var n = 1
                            while x + n <= segment.end, masksOfColor[x + n] == m { n += 1 }
                            run(n, of: 63 + m, to: &out)
                            x += n
                        }
                        cursor = segment.end + 1
                        k = next[k]
                    }
                }
                // Cleared for the next band: the masks pixel by pixel, the counts by colour.
                for r in 0..<rows {
                    let row = band + r * stride
                    for x in 0..<width { masks[Int(row[x]) * width + x] = 0 }
                }
                for c in present {
                    end[c] = -1
                    for k in 0..<blocks { inBlock[c * blocks + k] = 0 }
                }
                for k in 0..<blocks { most[k] = 0 }
                if top + 6 < height { out.append(UInt8(ascii: "-")) }
            }
        }
        out += [0x1B, UInt8(ascii: "\\")]
        return out
    }

    /// A colour's run of columns in a band: from `start` to `end`, both drawn.
    private struct Segment {
        var color: Int, start: Int, end: Int
    }

    /// A line of a band: its first and last segments (indices into the band's segments) and
    /// the last one's end.
    private struct Line {
        var head = 0, tail = 0, end = 0
    }

    /// Empty columns a colour's segment may span rather than be cut in two: a cut costs the
    /// colour's number again (`#n`, two to four bytes), a gap one byte a column.
    static let gap = 3

    /// What a fill costs (`#n` and `!count~`, with the empty sixels before it): a stretch whose
    /// colour's own sixels would cost no more is not filled.
    static let fillCost = 4

    /// Columns a band's fills are chosen by: a colour is counted in each block, and a fill covers
    /// whole blocks.
    static let block = 32

    /// The bytes of a run of `count` equal sixels (`run(_:of:to:)`).
    @inline(__always)
    private static func bytes(_ count: Int) -> Int {
        count < 4 ? count : count < 10 ? 3 : count < 100 ? 4 : count < 1000 ? 5 : 6
    }

    /// `count` sixels of `character`: `!count` and the character from four on, else repeated.
    @inline(__always)
    private static func run(_ count: Int, of character: UInt8, to out: inout [UInt8]) {
        if count >= 4 {
            out.append(UInt8(ascii: "!"))
            decimal(count, to: &out)
            out.append(character)
        } else {
            for _ in 0..<count { out.append(character) }
        }
    }

    @inline(__always)
    private static func decimal(_ n: Int, to out: inout [UInt8]) {
        if n >= 10 { decimal(n / 10, to: &out) }
        out.append(UInt8(48 + n % 10))
    }
}
