import PhotoGridCore

/// A terminal that photogrid's output is played on, for the screen oracle: what each cell shows
/// once the bytes are through, pictures included. Unlike `ScreenModel`, which records where
/// images went, it keeps what they look like, so a test can ask which photo a cell shows.
///
/// Pictures behave as the terminals photogrid is drawn in treat them, one `Kind` each:
/// - `xterm` (also mlterm, foot): a sixel picture is part of the cells it covers; text written
///   or erased over a cell takes the picture off that cell.
/// - `konsole` (22.12): a sixel picture lies under the text and stays there whatever is written
///   over it; a cell hides it only where its background colour is not the default (Konsole's
///   `TerminalPainter::drawBelowText` draws no default background), and only clearing the whole
///   screen or another picture over it removes it.
/// - `kitty`: pictures sent once under an id and placed by id (`ModelTerminal+Kitty`), drawn
///   above the text; clearing the screen takes every placement off.
package struct ModelTerminal {
    package enum Kind: String, Sendable, CaseIterable { case xterm, konsole, kitty }

    /// What a cell shows: a picture's colour at the cell's centre, else its text.
    package enum Look: Equatable {
        case picture(RGB)
        /// A character with its colours; nil colours are the terminal's defaults.
        case text(Character, foreground: RGB?, background: RGB?)

        /// The colour a person sees most of in the cell: a picture's, the foreground of a
        /// half-block, or the background of anything else (nil: the default background).
        package var colour: RGB? {
            switch self {
            case .picture(let c): return c
            case .text(let character, let foreground, let background): return character == "▀" ? foreground : background
            }
        }
    }

    struct Cell {
        var character: Character = " "
        var foreground: RGB?
        var background: RGB?
        /// The colour of a sixel picture at the cell's centre (xterm and Konsole kinds).
        var picture: RGB?
    }

    package let kind: Kind
    package private(set) var columns: Int
    package private(set) var rows: Int
    package let cellWidth: Int
    package let cellHeight: Int
    var cells: [[Cell]]
    var row = 0, column = 0
    var saved = (row: 0, column: 0)
    var foreground: RGB?, background: RGB?
    var reverse = false
    static let defaultForeground = RGB(229, 229, 229)
    /// Bytes of a sequence cut off at the end of the last feed, kept for the next.
    var pending: [UInt8] = []
    /// Synchronized output (`CSI ? 2026 h`) is on: what is fed is not shown until it goes off.
    package private(set) var synchronized = false
    /// kitty's pictures by id, their placements, and a load under way (`ModelTerminal+Kitty`).
    var images: [UInt32: RGBImage] = [:]
    var placements: [KittyPlacementKey: KittyPlacement] = [:]
    var placementOrder = 0
    var loading: (keys: [String: String], payload: [UInt8])?

    package init(kind: Kind, columns: Int, rows: Int, cellWidth: Int = 10, cellHeight: Int = 20) {
        self.kind = kind
        self.columns = columns
        self.rows = rows
        self.cellWidth = cellWidth
        self.cellHeight = cellHeight
        cells = Array(repeating: Array(repeating: Cell(), count: columns), count: rows)
    }

    /// What cell (`row`, `column`) shows now.
    package func look(row y: Int, column x: Int) -> Look {
        if kind == .kitty, let colour = kittyColour(row: y, column: x) { return .picture(colour) }
        let cell = cells[y][x]
        if let picture = cell.picture, kind == .xterm || cell.background == nil { return .picture(picture) }
        return .text(cell.character, foreground: cell.foreground, background: cell.background)
    }

    /// The terminal's window takes a new size: what fits stays, the rest goes.
    package mutating func resize(columns newColumns: Int, rows newRows: Int) {
        cells = (0..<newRows).map { y in
            (0..<newColumns).map { x in y < rows && x < columns ? cells[y][x] : Cell() }
        }
        columns = newColumns
        rows = newRows
        row = min(row, rows - 1); column = min(column, columns - 1)
    }

    /// Plays `bytes`. A sequence cut off at the end waits for the next call.
    package mutating func feed(_ bytes: [UInt8]) {
        let input = pending + bytes
        pending = []
        var i = 0
        while i < input.count {
            let byte = input[i]
            if byte == 0x1B {
                guard let next = escape(input, at: i) else { pending = Array(input[i...]); return }
                i = next
                continue
            }
            if byte < 0x20 {
                if byte == 0x0D { column = 0 } else if byte == 0x0A { row = min(rows - 1, row + 1) }
                i += 1
                continue
            }
            var end = i + 1
            while end < input.count, input[end] & 0xC0 == 0x80 { end += 1 }
            if end == input.count, byte >= 0xC0, end - i < (byte >= 0xF0 ? 4 : byte >= 0xE0 ? 3 : 2) {
                pending = Array(input[i...]); return
            }
            put(String(decoding: input[i..<end], as: UTF8.self).first ?? "?")
            i = end
        }
    }

    private mutating func put(_ character: Character) {
        if row >= 0, row < rows, column >= 0, column < columns { write(row, column, character) }
        column += 1
    }

    /// A cell written or erased with the current colours.
    mutating func write(_ y: Int, _ x: Int, _ character: Character) {
        cells[y][x].character = character
        cells[y][x].foreground = foreground
        cells[y][x].background = background ?? (reverse ? ModelTerminal.defaultForeground : nil)
        if kind == .xterm { cells[y][x].picture = nil }
    }

    /// The sequence at `start` (an ESC) played; the index after it, nil when it is cut off.
    private mutating func escape(_ bytes: [UInt8], at start: Int) -> Int? {
        guard start + 1 < bytes.count else { return nil }
        switch bytes[start + 1] {
        case UInt8(ascii: "7"): saved = (row, column); return start + 2
        case UInt8(ascii: "8"): (row, column) = saved; return start + 2
        case UInt8(ascii: "["):
            var j = start + 2
            while j < bytes.count, !(0x40...0x7E).contains(bytes[j]) { j += 1 }
            guard j < bytes.count else { return nil }
            control(String(decoding: bytes[(start + 2)..<j], as: UTF8.self), final: bytes[j])
            return j + 1
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"):
            // OSC (to BEL or ST), DCS and APC (to ST).
            var j = start + 2
            while j < bytes.count {
                if bytes[j] == 0x07, bytes[start + 1] == UInt8(ascii: "]") { break }
                if bytes[j] == 0x1B, j + 1 < bytes.count, bytes[j + 1] == UInt8(ascii: "\\") { break }
                j += 1
            }
            guard j < bytes.count, bytes[j] == 0x07 || j + 1 < bytes.count else { return nil }
            let body = Array(bytes[(start + 2)..<j])
            if bytes[start + 1] == UInt8(ascii: "P") { sixel(body) }
            if bytes[start + 1] == UInt8(ascii: "_"), body.first == UInt8(ascii: "G") { kittyCommand(Array(body.dropFirst())) }
            return bytes[j] == 0x07 ? j + 1 : j + 2
        default:
            return start + 2
        }
    }

    /// A CSI sequence: cursor moves, erasing, colours, synchronized output.
    private mutating func control(_ parameters: String, final: UInt8) {
        if parameters.hasPrefix("?") {
            if parameters == "?2026", final == UInt8(ascii: "h") { synchronized = true }
            if parameters == "?2026", final == UInt8(ascii: "l") { synchronized = false }
            return
        }
        let numbers = parameters.split(separator: ";", omittingEmptySubsequences: false).map { Int($0) }
        let first = numbers.first.flatMap { $0 } ?? 0
        switch final {
        case UInt8(ascii: "H"):
            row = max(0, min(rows - 1, max(1, first) - 1))
            column = max(0, min(columns - 1, (numbers.count > 1 ? numbers[1] ?? 1 : 1) - 1))
        case UInt8(ascii: "A"): row = max(0, row - max(1, first))
        case UInt8(ascii: "B"): row = min(rows - 1, row + max(1, first))
        case UInt8(ascii: "C"): column = min(columns - 1, column + max(1, first))
        case UInt8(ascii: "D"): column = max(0, column - max(1, first))
        case UInt8(ascii: "X"):
            for x in column..<min(columns, column + max(1, first)) { write(row, x, " ") }
        case UInt8(ascii: "K"):
            let range = first == 0 ? column..<columns : first == 1 ? 0..<min(columns, column + 1) : 0..<columns
            for x in range { write(row, x, " ") }
        case UInt8(ascii: "J"):
            if first == 2 || first == 3 { clearScreen() }
        case UInt8(ascii: "m"): colours(numbers.map { $0 ?? 0 })
        default: break
        }
    }

    /// ED 2: every cell blank; Konsole and kitty take their pictures off too.
    private mutating func clearScreen() {
        for y in 0..<rows { for x in 0..<columns { write(y, x, " "); cells[y][x].picture = nil } }
        placements = [:]
    }

    private mutating func colours(_ numbers: [Int]) {
        SGRColours.apply(numbers, foreground: &foreground, background: &background, reverse: &reverse)
    }

    /// A sixel picture at the cursor: each cell it covers takes its colour at the cell's centre.
    private mutating func sixel(_ body: [UInt8]) {
        guard body.contains(UInt8(ascii: "q")), let image = Sixel.decode(Array("\u{1B}P".utf8) + body + Array("\u{1B}\\".utf8)) else { return }
        let across = (image.width + cellWidth - 1) / cellWidth, down = (image.height + cellHeight - 1) / cellHeight
        for dy in 0..<down {
            for dx in 0..<across {
                let y = row + dy, x = column + dx
                guard y >= 0, y < rows, x >= 0, x < columns else { continue }
                let px = min(image.width - 1, dx * cellWidth + cellWidth / 2), py = min(image.height - 1, dy * cellHeight + cellHeight / 2)
                cells[y][x].picture = image[px, py]
            }
        }
        // Konsole 22.12 erases the text under a new picture (`Screen::eraseBlock`, called from
        // `addPlacement`): its rows but the screen's last, and one column more than the
        // picture's, but the screen's last column.
        if kind == .konsole {
            let width = max(0, min(across, columns - column - 1)), height = max(0, min(down, rows - row - 1))
            for y in row..<(row + height) {
                for x in column...(column + width) where y >= 0 && x >= 0 && x < columns {
                    cells[y][x].character = " "; cells[y][x].foreground = nil; cells[y][x].background = nil
                }
            }
        }
    }
}
