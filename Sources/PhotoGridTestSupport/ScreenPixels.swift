import PhotoGridCore

/// A half-block screen as pixels: each cell two, the upper half-block's foreground on top and its
/// background below (a space is its background twice). Read from photogrid's own output and from
/// what tmux captures (`capture-pane -e`), which writes colours its own way: both as SGR 38/48
/// with 2 (24-bit) or 5 (palette), 39/49 and 0 for the defaults.
package struct ScreenPixels {
    package let columns: Int
    package let rows: Int
    /// rows*2 x columns RGB triples; nil where the terminal's default colour shows.
    private(set) var pixels: [RGB?]

    package init(text: String, columns: Int, rows: Int) {
        self.columns = columns
        self.rows = rows
        pixels = Array(repeating: nil, count: columns * rows * 2)
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        for (y, line) in lines.prefix(rows).enumerated() { read(line, row: y) }
    }

    private mutating func read(_ line: Substring, row y: Int) {
        var foreground: RGB? = nil, background: RGB? = nil
        var x = 0
        let scalars = Array(line.unicodeScalars)
        var i = 0
        while i < scalars.count {
            let scalar = scalars[i]
            if scalar == "\u{1B}", i + 1 < scalars.count, scalars[i + 1] == "[" {
                var j = i + 2
                while j < scalars.count, !(0x40...0x7E).contains(scalars[j].value) { j += 1 }
                if j < scalars.count, scalars[j] == "m" {
                    var parameters = String.UnicodeScalarView()
                    parameters.append(contentsOf: scalars[(i + 2)..<j])
                    ScreenPixels.apply(String(parameters), &foreground, &background)
                }
                i = j + 1
                continue
            }
            i += 1
            guard x < columns, scalar.value >= 0x20 else { continue }
            pixels[(2 * y) * columns + x] = scalar == "▀" ? foreground : background
            pixels[(2 * y + 1) * columns + x] = background
            x += 1
        }
    }

    private static func apply(_ parameters: String, _ foreground: inout RGB?, _ background: inout RGB?) {
        var reverse = false
        SGRColours.apply(parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) ?? 0 },
                         foreground: &foreground, background: &background, reverse: &reverse)
    }

    /// A rectangle of cells.
    package struct Rect {
        package var column, row, width, height: Int
        package init(column: Int, row: Int, width: Int, height: Int) {
            self.column = column
            self.row = row
            self.width = width
            self.height = height
        }
    }

    /// Mean difference per channel between a rectangle of this screen and one of the same size
    /// (the smaller of the two) on `other`; the terminal's default colour counts as black.
    package func difference(_ other: ScreenPixels, _ mine: Rect, _ theirs: Rect) -> Double {
        var total = 0, count = 0
        let width = min(mine.width, theirs.width), height = min(mine.height, theirs.height)
        for dy in 0..<(2 * height) {
            let y = 2 * mine.row + dy, oy = 2 * theirs.row + dy
            guard y < 2 * rows, oy < 2 * other.rows else { break }
            for dx in 0..<width {
                let x = mine.column + dx, ox = theirs.column + dx
                guard x < columns, ox < other.columns else { break }
                let a = pixels[y * columns + x] ?? RGB(0, 0, 0), b = other.pixels[oy * other.columns + ox] ?? RGB(0, 0, 0)
                total += abs(Int(a.r) - Int(b.r)) + abs(Int(a.g) - Int(b.g)) + abs(Int(a.b) - Int(b.b))
                count += 3
            }
        }
        return count == 0 ? 0 : Double(total) / Double(count)
    }

    /// The tiles of a grid at its first row, each compared with the same place on `reference`:
    /// the ones that differ by more than `tolerance`, or look more like another tile than their
    /// own (a photo drawn in the wrong place), with their difference.
    package func wrongTiles(against reference: ScreenPixels, tiles: [Rect], tolerance: Double = 12) -> [(index: Int, difference: Double)] {
        var wrong: [(Int, Double)] = []
        for (index, rect) in tiles.enumerated() {
            let own = difference(reference, rect, rect)
            let closer = tiles.enumerated().contains { $0.offset != index && difference(reference, rect, $0.element) < own }
            if own > tolerance || closer { wrong.append((index, own)) }
        }
        return wrong
    }
}
