import PhotoGridCore
import PhotoGridSamples

/// The screen oracle: random key walks through the grid, each frame played on a model terminal
/// (`ModelTerminal`), and after every picture written and every frame, each cell checked against
/// what the layout says it shows: the right photo, or none. Every photo is one flat colour
/// (`SolidColourDecoder`), so a cell's colour names the photo it shows.
///
/// Checked after each picture the terminal draws (or each synchronized update), so a frame that
/// shows a wrong picture for a moment is caught too:
/// - no cell shows a photo the layout does not put there (a stale or misplaced picture);
/// - no picture over the open panel, no frame over it, none through a section's header line;
/// and once the screen has settled (nothing on screen still loading):
/// - every tile shows its photo, but for its outer ring (the focus frame may lie there), its last
///   row (badges) and what a panel covers;
/// - the focus frame is round the focused photo.
package struct ScreenOracle {
    package struct Walk: Sendable {
        package var kind: ModelTerminal.Kind
        package var mode: RenderMode
        package var photos: Int
        package var seed: UInt64
        package var keys: Int
        /// The terminal's size at the start: small, so that each key's frame costs little.
        package var columns = 80
        package var rows = 24
        /// Whether the terminal takes synchronized output (`CSI ? 2026`): kitty does, xterm and Konsole 22.12 do not.
        package var synchronized: Bool
        /// Columns at the start (`--columns`); nil: photogrid's choice.
        package var startColumns: Int?
        /// Keys to press instead of random ones, by name (`Right`, `PgDn`, `i`, `resize 80x30`...).
        package var script: [String]?

        package init(kind: ModelTerminal.Kind, photos: Int, seed: UInt64, keys: Int) {
            self.kind = kind
            self.photos = photos
            self.seed = seed
            self.keys = keys
            switch kind {
            case .xterm, .konsole: mode = .sixel(colors: 256)
            case .kitty: mode = .kitty(.inline)
            }
            synchronized = kind == .kitty
        }

        /// The same walk in half-blocks (24-bit), on an xterm.
        package static func halfBlock(photos: Int, seed: UInt64, keys: Int) -> Walk {
            var walk = Walk(kind: .xterm, photos: photos, seed: seed, keys: keys)
            walk.mode = .halfBlock(.trueColor)
            return walk
        }

        package var name: String {
            let what: String
            switch mode {
            case .halfBlock: what = "half-blocks"
            case .kitty: what = "kitty"
            case .sixel: what = "sixel"
            case .iterm: what = "iterm"
            }
            return "\(what) in \(kind.rawValue), \(photos) photos, seed \(seed)"
        }
    }

    /// Something the screen showed that the layout does not say.
    package struct Finding: CustomStringConvertible, Sendable {
        package var step: Int
        package var keys: [String]
        package var what: String
        package var screen: String
        package var description: String {
            "after key \(step) (the last keys: \(keys.suffix(8).joined(separator: " "))): \(what)\n\(screen)"
        }
    }

    package let walk: Walk
    let colours: PhotoColours
    var terminal: ModelTerminal
    var random: SeededRandom
    var history: [String] = []
    var findings: [Finding] = []
    package private(set) var framesChecked = 0, picturesChecked = 0

    package init(_ walk: Walk) {
        self.walk = walk
        colours = PhotoColours(count: walk.photos)
        terminal = ModelTerminal(kind: walk.kind, columns: walk.columns, rows: walk.rows)
        random = SeededRandom(seed: walk.seed)
    }

    /// Walks `walk.keys` keys; stops at the first finding, which it returns with the ones of that step.
    package mutating func run() -> [Finding] {
        let photos = ScreenOracle.photos(walk.photos)
        let session = GridSession(photos: photos, mode: walk.mode, fit: .fill, cacheBytes: 96 << 20,
                                  decoder: SolidColourDecoder(colours: colours), workers: 2) {}
        defer { session.pipeline.stop() }
        var screen = ScreenMetrics(columns: walk.columns, rows: walk.rows)
        let grid = GridController(title: "oracle", session: session, screen: screen, columns: walk.startColumns, modeName: "model")
        grid.settings.synchronizedOutput = walk.synchronized
        // Konsole answers OSC 11 and sets COLORTERM=truecolor: photogrid hides what it erases.
        if walk.kind == .konsole { grid.blanking = .hiding(under: RGB(0, 0, 0), trueColor: true) }
        settle(grid, step: 0)
        let steps = walk.script?.count ?? walk.keys
        for step in 1...max(1, steps) where findings.isEmpty && step <= steps {
            let key = walk.script.map { WalkKey(named: $0[step - 1]) } ?? nextKey()
            history.append(key.name)
            if let size = key.size {
                screen = ScreenMetrics(columns: size.columns, rows: size.rows)
                terminal.resize(columns: size.columns, rows: size.rows)
                grid.resize(to: screen)
            } else if let pressed = key.key {
                grid.handle(pressed)
            }
            settle(grid, step: step)
        }
        return findings
    }

    /// Frames until nothing on screen is loading (at most 10 s), each played and checked.
    mutating func settle(_ grid: GridController, step: Int) {
        var quiet = 0
        for _ in 0..<2000 {
            let frame = grid.frame()
            play(frame, grid: grid, step: step)
            guard findings.isEmpty else { return }
            quiet = frame.tilesLoading == 0 && frame.bytes.isEmpty ? quiet + 1 : 0
            if quiet >= 2 {
                checkSettled(grid, step: step)
                return
            }
            SystemClock.sleep(milliseconds: frame.tilesLoading == 0 ? 1 : 3)
        }
        report(step, "the screen never settled: still loading after 10 s")
    }

    /// What the event loop writes for a frame (`GridApp.paint`), played piece by piece: after
    /// each picture (or synchronized update) the cells are checked for wrong pictures.
    mutating func play(_ frame: GridController.Frame, grid: GridController, step: Int) {
        framesChecked += 1
        let synchronized = grid.settings.synchronizedOutput && (frame.clear || !frame.bytes.isEmpty)
        if synchronized { terminal.feed(GridController.beginSynchronized) }
        if frame.clear && walk.kind != .kitty { terminal.feed(Array("\u{1B}[H\u{1B}[2J".utf8)) }
        terminal.feed(Array("\u{1B}7\u{1B}[\(terminal.rows);1H\u{1B}[0m\u{1B}[2K".utf8) + Array(TerminalText.clip(frame.status, to: terminal.columns - 1).utf8) + Array("\u{1B}8".utf8))
        let expected = Expected(grid, colours: colours)
        for piece in ScreenOracle.pieces(frame.bytes) {
            terminal.feed(piece)
            if terminal.synchronized { continue }
            picturesChecked += 1
            checkNoWrongPicture(expected, step: step, panelToo: walk.kind == .kitty)
            if !findings.isEmpty { return }
        }
        if synchronized { terminal.feed(GridController.endSynchronized) }
        // A picture under the panel is cut by the panel's lines, written after it in the same
        // frame: a sixel picture cannot be cut without being made again (docs/decisions.md).
        checkNoWrongPicture(expected, step: step, panelToo: true)
    }

    /// The frame's bytes cut before each picture (a sixel DCS, a kitty command): each piece a
    /// picture and the few bytes of text written right after it, the moments a terminal may show
    /// while the rest is still on its way.
    static func pieces(_ bytes: [UInt8]) -> [[UInt8]] {
        var pieces: [[UInt8]] = []
        var start = 0, i = 0
        while i + 1 < bytes.count {
            if bytes[i] == 0x1B, bytes[i + 1] == UInt8(ascii: "P") || bytes[i + 1] == UInt8(ascii: "_"), i > start {
                pieces.append(Array(bytes[start..<i]))
                start = i
            }
            i += 1
        }
        if start < bytes.count { pieces.append(Array(bytes[start...])) }
        return pieces
    }

    mutating func report(_ step: Int, _ what: String) {
        findings.append(Finding(step: step, keys: history, what: what, screen: sketch()))
    }

    /// The screen as text: each cell the photo it shows (as a letter), `=` the frame, `.` blank.
    func sketch() -> String {
        let letters = Array("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789")
        return (0..<terminal.rows).map { y in
            String((0..<terminal.columns).map { x -> Character in
                let look = terminal.look(row: y, column: x)
                if let photo = colours.photo(look) { return letters[photo % letters.count] }
                if PhotoColours.isAmber(look.colour) { return "=" }
                if case .text(let c, _, _) = look, c != " " { return c == "▀" ? "?" : c }
                return look.colour == nil ? "." : ":"
            })
        }.joined(separator: "\n")
    }

    /// Photos in three folders, in the order the grid shows them; days apart, for sections by day.
    static func photos(_ count: Int) -> [Photo] {
        (0..<count).map { i in
            let folder = "f\(i * 3 / max(1, count))"
            let name = "\(folder)/\(i < 10 ? "00" : i < 100 ? "0" : "")\(i).jpg"
            return Photo(path: RawPath("/nonexistent/oracle/" + name), relativePath: RawPath(name), fileSize: 100_000,
                         format: .jpeg, stamp: FileStamp(size: 100_000, modified: 1_700_000_000 + Int64(i / 5) * 86_400 * 13))
        }
    }
}
