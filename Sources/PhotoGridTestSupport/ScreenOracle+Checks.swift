import PhotoGridCore
import PhotoGridSamples

/// What the layout says the screen shows, taken from the controller's state (not from what
/// its painter drew): the tiles' cells and photos, the panel, the header rows, the focus.
struct Expected {
    struct Tile { var photo: Int; var row: Int; var column: Int; var width: Int; var rows: Int }
    var tiles: [Tile] = []
    /// The zoom view's photo: every picture on screen must be it.
    var zoomPhoto: Int?
    /// The panel at the top right (help or details): its first column and its rows.
    var panel: (column: Int, rows: Int)?
    var headerRows: Set<Int> = []
    var focus: Int
    var gridRows: Int
    /// Photo at each cell of the grid area (-1: none).
    var owner: [[Int]]

    init(_ grid: GridController, colours: PhotoColours) {
        focus = grid.position.focus
        gridRows = grid.screen.rows - 1
        owner = Array(repeating: Array(repeating: -1, count: grid.screen.columns), count: max(0, gridRows))
        panel = grid.overlayArea
        if let zoom = grid.zoom { zoomPhoto = grid.session.photos.index(of: zoom.photo) ?? -1; return }
        let layout = grid.layout
        for index in layout.visibleIndexes(topRow: grid.position.topRow, photos: grid.session.photos.count) {
            guard let place = layout.placement(of: index, topRow: grid.position.topRow) else { continue }
            let tile = Tile(photo: index, row: place.row, column: place.frame.column, width: place.frame.width, rows: place.visibleRows)
            tiles.append(tile)
            for y in tile.row..<min(gridRows, tile.row + tile.rows) {
                for x in tile.column..<min(grid.screen.columns, tile.column + tile.width) { owner[y][x] = index }
            }
            if layout.sections, layout.groupStarts.contains(index), tile.row >= 1 { headerRows.insert(tile.row - 1) }
        }
        if layout.sections { headerRows.insert(0) }
    }

    func underPanel(_ y: Int, _ x: Int) -> Bool { panel.map { y < $0.rows && x >= $0.column } ?? false }
}

extension ScreenOracle {
    /// No cell shows a photo the layout does not put there, or a picture or the frame over the
    /// panel, or the frame in a header's row.
    mutating func checkNoWrongPicture(_ expected: Expected, step: Int, panelToo: Bool = true) {
        for y in 0..<min(expected.gridRows, terminal.rows) {
            for x in 0..<terminal.columns {
                let look = terminal.look(row: y, column: x)
                if expected.underPanel(y, x) {
                    guard panelToo else { continue }
                    if case .picture = look { return report(step, "a picture over the panel at row \(y), column \(x)") }
                    if PhotoColours.isAmber(look.colour) { return report(step, "the focus frame over the panel at row \(y), column \(x)") }
                    continue
                }
                if expected.headerRows.contains(y), PhotoColours.isAmber(look.colour) {
                    return report(step, "the focus frame runs through the header line at row \(y), column \(x)")
                }
                guard let shown = colours.photo(look) else { continue }
                if let zoomed = expected.zoomPhoto {
                    if shown != zoomed { return report(step, "photo \(shown) at row \(y), column \(x) in the photo view of photo \(zoomed)") }
                    continue
                }
                let want = x < expected.owner[y].count ? expected.owner[y][x] : -1
                if shown != want {
                    return report(step, "photo \(shown) at row \(y), column \(x), where the layout puts " + (want < 0 ? "nothing" : "photo \(want)"))
                }
            }
        }
    }

    /// Once nothing is loading: every tile shows its photo (but where the frame, the badges or
    /// the panel may be), and the frame is round the focused photo.
    mutating func checkSettled(_ grid: GridController, step: Int) {
        let expected = Expected(grid, colours: colours)
        checkNoWrongPicture(expected, step: step)
        guard findings.isEmpty else { return }
        if let zoomed = expected.zoomPhoto {
            let y = expected.gridRows / 2, x = terminal.columns / 2
            if !expected.underPanel(y, x), colours.photo(terminal.look(row: y, column: x)) != zoomed {
                report(step, "the photo view's middle does not show photo \(zoomed)")
            }
            return
        }
        for tile in expected.tiles {
            for y in (tile.row + 1)..<max(tile.row + 1, tile.row + tile.rows - 1) {
                for x in (tile.column + 1)..<max(tile.column + 1, tile.column + tile.width - 1) where !expected.underPanel(y, x) {
                    if colours.photo(terminal.look(row: y, column: x)) != tile.photo {
                        return report(step, "photo \(tile.photo) missing at row \(y), column \(x) of its tile")
                    }
                }
            }
        }
        if let focused = expected.tiles.first(where: { $0.photo == expected.focus }) {
            let ring = ringCells(focused, rows: expected.gridRows).filter { !expected.underPanel($0.0, $0.1) }
            if !ring.isEmpty, !ring.contains(where: { PhotoColours.isAmber(terminal.look(row: $0.0, column: $0.1).colour) }) {
                report(step, "no focus frame round photo \(focused.photo)")
            }
        }
    }

    /// The cells just round a tile and its own outer cells, where a side of the frame goes.
    func ringCells(_ tile: Expected.Tile, rows: Int) -> [(Int, Int)] {
        var cells: [(Int, Int)] = []
        for y in max(0, tile.row - 1)...min(rows - 1, tile.row + tile.rows) {
            for x in max(0, tile.column - 1)...min(terminal.columns - 1, tile.column + tile.width) {
                let inner = y > tile.row && y < tile.row + tile.rows - 1 && x > tile.column && x < tile.column + tile.width - 1
                if !inner { cells.append((y, x)) }
            }
        }
        return cells
    }
}

/// One flat colour per photo, far from the greys of placeholders and panels and from the frame's
/// amber, so that a cell's colour names its photo.
final class PhotoColours: @unchecked Sendable {
    let palette: [RGB]
    /// Colours seen before and the photo each names (nil: none); the oracle asks for every cell.
    private var known: [RGB: Int?] = [:]

    init(count: Int) {
        let levels: [UInt8] = [30, 95, 160, 225]
        var all: [RGB] = []
        for r in levels { for g in levels { for b in levels {
            let c = RGB(r, g, b)
            if r == g && g == b { continue }
            if PhotoColours.distance(c, FocusMarker.accent) < 90 * 90 || PhotoColours.distance(c, XtermPalette.color(XtermPalette.nearest(FocusMarker.accent))) < 90 * 90 { continue }
            all.append(c)
        } } }
        palette = all
        precondition(count <= palette.count, "the oracle tells at most \(palette.count) photos apart")
    }

    func colour(of photo: Int) -> RGB { palette[photo % palette.count] }

    /// The photo whose colour this is, within what sixel's percentages lose.
    func photo(_ look: ModelTerminal.Look) -> Int? {
        guard let c = look.colour else { return nil }
        if case .text(let character, _, _) = look, character != " ", character != "▀" { return nil }
        if let photo = known[c] { return photo }
        let photo = palette.indices.first { PhotoColours.distance(c, palette[$0]) <= 12 * 12 }
        known[c] = photo
        return photo
    }

    static func isAmber(_ c: RGB?) -> Bool {
        guard let c else { return false }
        return distance(c, FocusMarker.accent) < 40 * 40 || distance(c, XtermPalette.color(XtermPalette.nearest(FocusMarker.accent))) < 40 * 40
    }

    static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.r) - Int(b.r), dg = Int(a.g) - Int(b.g), db = Int(a.b) - Int(b.b)
        return dr * dr + dg * dg + db * db
    }
}

/// Each photo one flat colour, square, decoded to the size asked for: the oracle's photos.
struct SolidColourDecoder: PhotoDecoding {
    let colours: PhotoColours

    static func index(_ photo: Photo) -> Int { Int(photo.name.prefix { $0.isNumber }) ?? 0 }

    func image(of photo: Photo, from bytes: PhotoBytes, covering size: Int, atMost limit: Int) throws(DecodeError) -> DecodedImage {
        let side = max(1, min(max(size, 16), min(limit, 2048)))
        return DecodedImage(image: RGBImage(width: side, height: side, fill: colours.colour(of: SolidColourDecoder.index(photo))),
                            origin: .file(scaleEighths: 8, scans: 1), isComplete: side == 2048)
    }

    func thumbnail(of photo: Photo, from bytes: PhotoBytes) -> RGBImage? { RGBImage(width: 32, height: 32, fill: colours.colour(of: SolidColourDecoder.index(photo))) }

    func info(of photo: Photo, from bytes: PhotoBytes) -> PhotoInfo? {
        var info = PhotoInfo()
        info.width = 2048
        info.height = 2048
        return info
    }
}

/// The samples' generator (SplitMix64): the same keys for the same seed on every machine.
extension SeededRandom {
    mutating func below(_ n: Int) -> Int { Int(next() % UInt64(max(1, n))) }
}

/// A step of a walk: a key, or the window taking a new size.
struct WalkKey {
    var name: String
    var key: Key?
    var size: (columns: Int, rows: Int)?

    init(name: String, key: Key? = nil, size: (columns: Int, rows: Int)? = nil) {
        self.name = name; self.key = key; self.size = size
    }

    /// A key by the name walks print: arrows, `PgDn`, `PgUp`, `End`, `Home`, `Esc`, `Enter`,
    /// `resize COLSxROWS`, or a character.
    init(named name: String) {
        self.name = name
        let named: [String: Key] = ["Right": .right, "Left": .left, "Down": .down, "Up": .up, "PgDn": .pageDown, "PgUp": .pageUp,
                                    "End": .end, "Home": .home, "Esc": .escape, "Enter": .enter]
        if name.hasPrefix("resize "), let size = name.dropFirst(7).split(separator: "x").compactMap({ Int($0) }) as [Int]?, size.count == 2 {
            self.size = (size[0], size[1])
        } else {
            key = named[name] ?? name.first.map { .character($0) }
        }
    }
}

extension ScreenOracle {
    /// Mostly moves, as people browse; now and then columns, fit, sections, panels, a resize.
    mutating func nextKey() -> WalkKey {
        let moves: [(String, Key)] = [("Right", .right), ("Left", .left), ("Down", .down), ("Up", .up), ("l", .character("l")),
                                      ("j", .character("j"))]
        let roll = random.below(100)
        switch roll {
        case 0..<40: let m = moves[random.below(moves.count)]; return WalkKey(name: m.0, key: m.1)
        case 40..<46: return WalkKey(name: "PgDn", key: .pageDown)
        case 46..<50: return WalkKey(name: "PgUp", key: .pageUp)
        case 50..<53: return WalkKey(name: "End", key: .end)
        case 53..<55: return WalkKey(name: "g", key: .character("g"))
        case 55..<61: return WalkKey(name: "+", key: .character("+"))
        case 61..<67: return WalkKey(name: "-", key: .character("-"))
        case 67..<73: let n = 1 + random.below(6); return WalkKey(name: "\(n)", key: .character(Character("\(n)")))
        case 73..<76: return WalkKey(name: "a", key: .character("a"))
        case 76..<81: return WalkKey(name: "S", key: .character("S"))
        case 81..<86: return WalkKey(name: "i", key: .character("i"))
        case 86..<89: return WalkKey(name: "?", key: .character("?"))
        case 89..<95: return WalkKey(name: "Esc", key: .escape)
        default:
            let columns = 30 + random.below(91), rows = 8 + random.below(27)
            return WalkKey(name: "resize \(columns)x\(rows)", size: (columns, rows))
        }
    }
}
