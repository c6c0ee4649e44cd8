import PhotoGridCore

/// A terminal screen as photogrid's output leaves it, for tests: which cells hold text, which an
/// image, and every write that would land outside the screen. It understands what photogrid
/// writes (cursor moves, erasing, colours, DECSC/DECRC, OSC and sixel DCS strings); a sixel image
/// covers the cells its raster attributes say, at the cell size given.
package struct ScreenModel {
    package enum Cell: Equatable { case blank, text(Character), image(Int) }

    package let columns: Int
    package let rows: Int
    package let cellWidth: Int
    package let cellHeight: Int
    package private(set) var cells: [[Cell]]
    /// What would have gone outside the screen: text past its edge, an image taller or wider
    /// than the room left, a cursor move off the screen.
    package private(set) var outOfBounds: [String] = []
    /// Images drawn so far; an image's cells carry its number.
    package private(set) var imageCount = 0
    /// Every sixel picture drawn, whole (`ESC P ... ESC \\`), with the cell of its top-left corner.
    package private(set) var pictures: [(row: Int, column: Int, bytes: [UInt8])] = []

    private var row = 0, column = 0
    private var saved = (row: 0, column: 0)
    private var pending: [UInt8] = []

    package init(columns: Int, rows: Int, cellWidth: Int = 10, cellHeight: Int = 20) {
        self.columns = columns
        self.rows = rows
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        cells = Array(repeating: Array(repeating: .blank, count: columns), count: rows)
    }

    /// Row `y` as text: images as `#`, blanks as spaces.
    package func line(_ y: Int) -> String {
        String(cells[y].map { cell -> Character in
            switch cell {
            case .blank: return " "
            case .text(let c): return c
            case .image: return "#"
            }
        })
    }

    package var text: String { (0..<rows).map(line).joined(separator: "\n") }

    /// Cells that show any image.
    package var imageCells: Int { cells.joined().filter { if case .image = $0 { true } else { false } }.count }

    package mutating func feed(_ bytes: [UInt8]) {
        var i = 0
        while i < bytes.count {
            let byte = bytes[i]
            if byte == 0x1B, i + 1 < bytes.count {
                i = escape(bytes, at: i)
                continue
            }
            switch byte {
            case 0x0A: row += 1; column = 0; checkCursor("newline")
            case 0x0D: column = 0
            case 0x07, 0x08, 0x09: break
            default:
                // UTF-8: a character is its lead byte and the continuation bytes after it.
                var end = i + 1
                while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 }
                let character = String(decoding: bytes[i..<end], as: UTF8.self).first ?? "?"
                put(.text(character))
                i = end
                continue
            }
            i += 1
        }
    }

    private mutating func put(_ cell: Cell) {
        if row < 0 || row >= rows || column < 0 || column >= columns {
            outOfBounds.append("\(cell) at row \(row), column \(column)")
        } else {
            cells[row][column] = cell
        }
        column += 1
    }

    private mutating func checkCursor(_ what: String) {
        if row < 0 || row >= rows || column < 0 || column > columns {
            outOfBounds.append("\(what) to row \(row), column \(column)")
        }
    }

    /// Handles the sequence starting at `start` (an ESC); returns the index after it.
    private mutating func escape(_ bytes: [UInt8], at start: Int) -> Int {
        let kind = bytes[start + 1]
        switch kind {
        case UInt8(ascii: "7"): saved = (row, column); return start + 2
        case UInt8(ascii: "8"): (row, column) = saved; return start + 2
        case UInt8(ascii: "["):
            var j = start + 2
            while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
            guard j < bytes.count else { return bytes.count }
            let parameters = String(decoding: bytes[(start + 2)..<j], as: UTF8.self).split(separator: ";", omittingEmptySubsequences: false)
                .map { Int($0) }
            let first = parameters.first.flatMap { $0 } ?? 1
            switch bytes[j] {
            case UInt8(ascii: "H"):
                row = first - 1
                column = (parameters.count > 1 ? parameters[1] ?? 1 : 1) - 1
                checkCursor("CUP")
            case UInt8(ascii: "A"): row -= first; checkCursor("CUU")
            case UInt8(ascii: "B"): row += first; checkCursor("CUD")
            case UInt8(ascii: "C"): column += first; checkCursor("CUF")
            case UInt8(ascii: "X"):
                // ECH erases from the cursor to at most the end of the line.
                let from = max(0, column), to = min(columns, column + max(1, first))
                if row >= 0 && row < rows && from < to {
                    for x in from..<to { cells[row][x] = .blank }
                }
            default: break                                   // SGR and the rest: no cells change
            }
            return j + 1
        case UInt8(ascii: "]"):
            var j = start + 2
            while j < bytes.count, bytes[j] != 0x07, !(bytes[j] == 0x1B && j + 1 < bytes.count && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
            return j < bytes.count && bytes[j] == 0x07 ? j + 1 : min(bytes.count, j + 2)
        case UInt8(ascii: "P"):
            var j = start + 2
            while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")) { j += 1 }
            sixel(Array(bytes[(start + 2)..<min(j, bytes.count)]))
            pictures.append((row, column, Array(bytes[start..<min(bytes.count, j + 2)])))
            return min(bytes.count, j + 2)
        default:
            return start + 2
        }
    }

    /// A sixel image at the cursor: the cells its raster attributes cover.
    private mutating func sixel(_ body: [UInt8]) {
        guard let quote = body.firstIndex(of: UInt8(ascii: "\"")) else { return }
        var j = quote + 1
        while j < body.count, (body[j] >= 0x30 && body[j] <= 0x39) || body[j] == UInt8(ascii: ";") { j += 1 }
        let numbers = String(decoding: body[(quote + 1)..<j], as: UTF8.self).split(separator: ";").compactMap { Int($0) }
        guard numbers.count == 4 else { return }
        imageCount += 1
        let width = (numbers[2] + cellWidth - 1) / cellWidth
        let height = (numbers[3] + cellHeight - 1) / cellHeight
        if row < 0 || column < 0 || row + height > rows || column + width > columns {
            outOfBounds.append("a \(numbers[2])x\(numbers[3]) image at row \(row), column \(column)")
        }
        let top = max(0, row), bottom = min(rows, row + height), left = max(0, column), right = min(columns, column + width)
        guard top < bottom, left < right else { return }
        for y in top..<bottom {
            for x in left..<right { cells[y][x] = .image(imageCount) }
        }
    }

    /// The screen's pixels as the sixel pictures paint them, each decoded (libsixel) and drawn at
    /// its cell, later ones over earlier ones; pixels no picture covers are magenta.
    package func picturePixels() -> RGBImage {
        var canvas = RGBImage(width: columns * cellWidth, height: rows * cellHeight, fill: RGB(255, 0, 255))
        for picture in pictures {
            guard let image = Sixel.decode(picture.bytes) else { continue }
            canvas.draw(image, atX: picture.column * cellWidth, y: picture.row * cellHeight)
        }
        return canvas
    }
}
