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
/// The sequence: `ESC P q`, raster attributes (`"1;1;width;height`: square pixels, the size), the
/// colours used (`#n;2;r;g;b`, in percent), then per band of six rows its lines (`$` between
/// them: back to the band's first column), each a run of segments: empty sixels up to the
/// segment, `#n` where the colour changes, one sixel character a column, runs of four or more as
/// `!count`; `-` between bands, and `ESC \`.
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

        // The colours the picture uses, defined once.
        var used = [Bool](repeating: false, count: 256)
        for y in 0..<height {
            let row = indexed + y * stride + x0
            for x in 0..<width { used[Int(row[x])] = true }
        }
        for c in 0..<min(colors, 256) where used[c] {
            out.append(UInt8(ascii: "#"))
            decimal(c, to: &out)
            out += [UInt8(ascii: ";"), UInt8(ascii: "2")]
            for k in 0..<3 {
                out.append(UInt8(ascii: ";"))
                // libsixel's rounding: the nearest percent.
                decimal((Int(palette[c * 3 + k]) * 100 + 127) / 255, to: &out)
            }
        }

        // Per band: each colour's mask of rows in each column, and the columns it spans.
        var masks = [UInt8](repeating: 0, count: 256 * width)
        var first = [Int](repeating: Int.max, count: 256)
        var last = [Int](repeating: -1, count: 256)
        var present: [Int] = []
        present.reserveCapacity(256)
        var segments: [Segment] = []
        var order: [Int] = [], next: [Int] = []
        var bucket = [Int](repeating: 0, count: width + 1)
        var lineEnd: [Int] = [], lineHead: [Int] = [], lineTail: [Int] = [], lineCount = 0
        masks.withUnsafeMutableBufferPointer { masks in
            for top in Swift.stride(from: 0, to: height, by: 6) {
                present.removeAll(keepingCapacity: true)
                for r in 0..<min(6, height - top) {
                    let row = indexed + (top + r) * stride + x0
                    let bit = UInt8(1 << r)
                    for x in 0..<width {
                        let c = Int(row[x])
                        if last[c] < 0 { present.append(c); first[c] = x }
                        if x > last[c] { last[c] = x }
                        if x < first[c] { first[c] = x }
                        masks[c * width + x] |= bit
                    }
                }
                // Each colour's columns as segments, split where it leaves more than `gap` columns
                // empty: a column holds at most six colours, so the segments pack into a few lines.
                segments.removeAll(keepingCapacity: true)
                for c in present {
                    let line = masks.baseAddress! + c * width
                    var start = first[c], end = first[c]
                    var x = first[c] + 1
                    while x <= last[c] {
                        if line[x] != 0 {
                            if x - end > SixelWriter.gap {
                                segments.append(Segment(color: c, start: start, end: end))
                                start = x
                            }
                            end = x
                        }
                        x += 1
                    }
                    segments.append(Segment(color: c, start: start, end: end))
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
                lineCount = 0
                for k in order {
                    let segment = segments[k]
                    var best = -1
                    for i in 0..<lineCount where lineEnd[i] < segment.start && (best < 0 || lineEnd[i] > lineEnd[best]) { best = i }
                    next[k] = -1
                    if best < 0 {
                        if lineCount == lineEnd.count { lineEnd.append(0); lineHead.append(0); lineTail.append(0) }
                        best = lineCount
                        lineCount += 1
                        lineHead[best] = k
                    } else {
                        next[lineTail[best]] = k
                    }
                    lineEnd[best] = segment.end
                    lineTail[best] = k
                }
                var color = -1
                for i in 0..<lineCount {
                    if i > 0 { out.append(UInt8(ascii: "$")) }
                    var cursor = 0
                    var k = lineHead[i]
                    while k >= 0 {
                        let segment = segments[k]
                        // The colour first, then the empty sixels up to the segment, as libsixel
                        // writes them: its decoder misreads empty sixels before a colour change.
                        if segment.color != color {
                            out.append(UInt8(ascii: "#"))
                            decimal(segment.color, to: &out)
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
                // Cleared for the next band, over the columns each colour touched.
                for c in present {
                    let line = masks.baseAddress! + c * width
                    for x in first[c]...last[c] { line[x] = 0 }
                    first[c] = Int.max
                    last[c] = -1
                }
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

    /// Empty columns a colour's segment may span rather than be cut in two: a cut costs the
    /// colour's number again (`#n`, two to four bytes), a gap one byte a column.
    static let gap = 3

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
