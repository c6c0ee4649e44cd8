import PhotoGridCore

/// Reads half-block output back into pixels, as a terminal would show it.
package enum HalfBlockReader {
    package static func pixels(_ lines: [[UInt8]], colors: HalfBlock.Colors) -> RGBImage? {
        var rows: [[(RGB, RGB)]] = []
        for line in lines {
            var cells: [(RGB, RGB)] = []
            var fg = RGB(0, 0, 0), bg = RGB(0, 0, 0)
            var i = 0
            while i < line.count {
                if line[i] == 0x1B {
                    guard i + 1 < line.count, line[i + 1] == UInt8(ascii: "[") else { return nil }
                    var j = i + 2
                    while j < line.count, line[j] != UInt8(ascii: "m") { j += 1 }
                    let params = String(decoding: line[(i + 2)..<j], as: UTF8.self).split(separator: ";").map { Int($0)! }
                    var k = 0
                    while k < params.count {
                        switch params[k] {
                        case 0: k += 1
                        case 38, 48:
                            let colour: RGB
                            if params[k + 1] == 2 {
                                colour = RGB(UInt8(params[k + 2]), UInt8(params[k + 3]), UInt8(params[k + 4])); k += 5
                            } else {
                                colour = XtermPalette.color(params[k + 2]); k += 3
                            }
                            if paramsIsForeground(params, end: k) { fg = colour } else { bg = colour }
                        default: return nil
                        }
                    }
                    i = j + 1
                } else if line[i] == UInt8(ascii: " ") {
                    cells.append((bg, bg)); i += 1
                } else if Array(line[i..<min(line.count, i + 3)]) == [0xE2, 0x96, 0x80] {
                    cells.append((fg, bg)); i += 3
                } else {
                    return nil
                }
            }
            rows.append(cells)
        }
        guard let width = rows.first?.count, rows.allSatisfy({ $0.count == width }) else { return nil }
        var image = RGBImage(width: width, height: rows.count * 2)
        for (y, row) in rows.enumerated() {
            for (x, cell) in row.enumerated() { image[x, 2 * y] = cell.0; image[x, 2 * y + 1] = cell.1 }
        }
        return image
    }

    /// Whether the colour ending at parameter `end` was a foreground (38) one.
    private static func paramsIsForeground(_ params: [Int], end: Int) -> Bool {
        var k = 0
        var last = 0
        while k < end {
            if params[k] == 38 || params[k] == 48 {
                last = params[k]
                k += params[k + 1] == 2 ? 5 : 3
            } else { k += 1 }
        }
        return last == 38
    }
}
