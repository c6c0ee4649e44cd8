import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridModel
@testable import PhotoGridTerminal

/// kitty pictures through tmux: Unicode placeholders (`KittyPlaceholders`), the screen that
/// sends each picture once and frees only its own, and the choice of the mode from what tmux
/// knows of the terminal it is shown in.
struct KittyPlaceholderTests {
    static let marks = KittyPlaceholders.diacritics

    /// The cells of one placeholder line: (row, column, high byte of the id) each, read back
    /// from its marks as the protocol defines them; nil for a cell that names none.
    static func cells(_ line: [UInt8]) -> (colour: Int?, cells: [(row: Int, column: Int, high: Int)?]) {
        let text = String(decoding: line, as: UTF8.self)
        var colour: Int?
        if let start = text.range(of: "38;5;"), let end = text[start.upperBound...].firstIndex(of: "m") {
            colour = Int(text[start.upperBound..<end])
        }
        var cells: [(Int, Int, Int)?] = []
        var current: [Int] = []
        var open = false
        func close() { if open { cells.append(current.count >= 2 ? (current[0], current[1], current.count > 2 ? current[2] : 0) : nil) } }
        for scalar in text.unicodeScalars {
            if scalar.value == 0x10EEEE { close(); current = []; open = true }
            else if open, let n = marks.firstIndex(of: scalar.value) { current.append(n) }
        }
        close()
        return (colour, cells)
    }

    @Test func aRowNamesItsPictureRowAndEveryColumn() {
        let id = KittyPlaceholders.id(300)          // a high byte of 1: 300 = 255 + 45
        #expect(id == (1 << 24 | 46))
        let (colour, cells) = Self.cells(KittyPlaceholders.line(id: id, row: 7, columns: 40))
        #expect(colour == 46)
        #expect(cells.count == 40)
        for (column, cell) in cells.enumerated() {
            #expect(cell?.row == 7 && cell?.column == column && cell?.high == 1)
        }
        // Past the last mark a cell names nothing and follows on from the one to its left.
        let wide = Self.cells(KittyPlaceholders.line(id: 5, row: 0, columns: 300)).cells
        #expect(wide.count == 300 && wide[296]?.column == 296 && wide[297] == nil)
    }

    @Test func idsAreWhatA256ColourIndexAndAMarkCanName() {
        let ids = (0..<KittyPlaceholders.idCount).map(KittyPlaceholders.id)
        #expect(Set(ids).count == KittyPlaceholders.idCount)
        #expect(ids.allSatisfy { $0 & 0xFF != 0 && $0 & 0x00FF_FF00 == 0 && Int($0 >> 24) < Self.marks.count })
        #expect(KittyPlaceholders.id(KittyPlaceholders.idCount) == KittyPlaceholders.id(0))
    }

    @Test func tmuxPassesOnEachSequenceItsEscapesDoubled() {
        let wrapped = KittyPlaceholders.throughTmux(Array("\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\\".utf8))
        // A NUL first: kitty then parses a synchronized update tmux wraps it in from its start.
        #expect(String(decoding: wrapped, as: UTF8.self) == "\u{1B}Ptmux;\u{0}\u{1B}\u{1B}_Ga=d,d=I,i=7,q=2\u{1B}\u{1B}\\\u{1B}\\")
        // A picture's chunks go one passthrough each: tmux drops one larger than its buffer.
        var state: UInt32 = 1
        let noise = (0..<(300 * 300 * 3)).map { _ -> UInt8 in state = state &* 1_664_525 &+ 1_013_904_223; return UInt8(state >> 24) }
        let big = RGBImage(width: 300, height: 300, pixels: noise)
        let sent = String(decoding: Kitty.transmitPlaced(Kitty.picture(big), id: 9, columns: 30, rows: 15), as: UTF8.self)
        let chunks = sent.components(separatedBy: "\u{1B}Ptmux;").dropFirst()
        #expect(chunks.count > 1)
        #expect(chunks.allSatisfy { $0.hasSuffix("\u{1B}\u{1B}\\\u{1B}\\") && $0.count < 4096 + 200 })
    }

    func request(_ photo: Int) -> TileRequest {
        TileRequest(photo: PhotoID(photo), width: 40, height: 40, fit: .fill, mode: .kitty(.tmux))
    }

    func picture(_ shade: UInt8) -> KittyPicture {
        Kitty.picture(RGBImage(width: 40, height: 40, pixels: [UInt8](repeating: shade, count: 40 * 40 * 3)), transfer: .tmux)
    }

    @Test func eachPictureIsSentOnceAndOnlyOursAreFreed() {
        let screen = KittyScreen(budgetBytes: 3 * 40 * 40 * 4, placeholders: true)
        let first = picture(10)
        let shown = screen.placeholderTile(request(0), first, columns: 4, rows: 2, shownRows: 1)
        let sent = String(decoding: shown.sent, as: UTF8.self)
        // Stored and placed in one command: never a moment without a placement. Before it, an
        // empty last chunk ends any transfer tmux cut short, which would take this one with it.
        #expect(sent.contains("a=T,U=1,i=") && sent.contains("c=4,r=2") && !sent.contains("a=p"))
        #expect(sent.hasPrefix("\u{1B}Ptmux;\u{0}\u{1B}\u{1B}_Gm=0,q=2;\u{1B}\u{1B}\\\u{1B}\\\u{1B}Ptmux;\u{0}\u{1B}\u{1B}_Ga=T,U=1,"))
        #expect(shown.lines.count == 1)          // the screen's edge cuts the tile after a row
        _ = screen.endFrame()
        // Shown again (a page back, a column count seen before): nothing sent, the same text.
        let again = screen.placeholderTile(request(0), first, columns: 4, rows: 2, shownRows: 2)
        #expect(again.sent.isEmpty && again.lines.count == 2 && again.lines[0] == shown.lines[0])
        _ = screen.endFrame()
        // Past the budget the pictures off screen are freed, each by its id, through tmux.
        for photo in 1...4 { _ = screen.placeholderTile(request(photo), picture(UInt8(photo)), columns: 4, rows: 2, shownRows: 2) }
        let freed = String(decoding: screen.endFrame(), as: UTF8.self)
        #expect(freed.contains("\u{1B}Ptmux;\u{0}\u{1B}\u{1B}_Ga=d,d=I,i="))
        #expect(screen.heldCount == 4)
        // Nothing hides a virtual placement; leaving frees the rest one by one, never all.
        #expect(screen.hideAll().isEmpty)
        let leave = String(decoding: screen.leave(), as: UTF8.self)
        #expect(leave.components(separatedBy: "d=I,i=").count - 1 == 4)
        #expect(!leave.contains("d=A") && !freed.contains("d=A"))
    }

    @Test func theSharpTileTakesItsPreviewsIdSoItsTextShowsIt() {
        let screen = KittyScreen(placeholders: true)
        let preview = request(0).preview
        let soft = screen.placeholderTile(preview, picture(1), columns: 4, rows: 2, shownRows: 2)
        _ = screen.endFrame()
        let sharp = screen.placeholderTile(request(0), picture(2), columns: 4, rows: 2, shownRows: 2)
        #expect(sharp.lines == soft.lines)
        #expect(String(decoding: sharp.sent, as: UTF8.self).contains("a=T,U=1,i="))
    }

    @Test func tmuxSaysWhatItIsShownIn() {
        let a = TmuxClient.parse("bpaste,ccolour,focus|xterm-kitty|kitty(0.32.2)|1\n")
        #expect(a.features == ["bpaste", "ccolour", "focus"] && a.termName == "xterm-kitty" && a.termType == "kitty(0.32.2)" && a.passthrough)
        // The type is the terminal's own words: a bar in them is kept, an escape is not.
        let b = TmuxClient.parse("RGB|xterm|odd|name\u{1B}[2J|off")
        #expect(b.termType.contains("odd|name") && !b.termType.contains("\u{1B}") && !b.passthrough)
        // tmux before 3.3 has no such option: no passthrough, and no type to wait for.
        let old = TmuxClient.parse("||kitty(0.35.1)|")
        #expect(!old.passthrough && !old.knowsPassthrough && a.knowsPassthrough)
        #expect(TmuxClient.drawsPlaceholders("kitty(0.28.0)") && TmuxClient.drawsPlaceholders("kitty(1.0)"))
        #expect(!TmuxClient.drawsPlaceholders("kitty(0.26.5)") && !TmuxClient.drawsPlaceholders("WezTerm 20240203")
                && !TmuxClient.drawsPlaceholders("kitty(x.y)"))
    }

    @Test func insideTmuxAKittyWithPlaceholdersAndPassthroughGetsPictures() {
        let environment = ["TMUX": "/tmp/tmux-0/default,1,0", "TERM": "tmux-256color"]
        var replies = TerminalReplies.parse(Array("\u{1B}[?1;2c".utf8)).replies
        replies.tmuxClientFeatures = ["bpaste", "focus"]
        replies.tmuxClientType = "kitty(0.32.2)"
        replies.tmuxPassthrough = true
        let shown = Capabilities.decide(replies: replies, window: nil, environment: environment, choice: .auto)
        #expect(shown.mode == .kitty(.tmux) && shown.modeReason.contains("Unicode placeholders"))
        // Other panes' pictures stay when photogrid leaves: no delete-all at exit.
        #expect(!String(decoding: shown.exitSequence, as: UTF8.self).contains("d=A"))
        // The setting is all that is missing: said, in --probe and on the first status line.
        replies.tmuxPassthrough = false
        let off = Capabilities.decide(replies: replies, window: nil, environment: environment, choice: .auto)
        #expect(off.mode == .halfBlock(.trueColor) && off.modeReason.contains("set -g allow-passthrough on"))
        #expect(off.pictureHint?.contains("allow-passthrough") == true)
        // A kitty from before placeholders draws nothing through tmux.
        replies.tmuxPassthrough = true
        replies.tmuxClientType = "kitty(0.26.5)"
        let old = Capabilities.decide(replies: replies, window: nil, environment: environment, choice: .auto)
        #expect(old.mode == .halfBlock(.trueColor) && old.modeReason.contains("0.28") && old.pictureHint == nil)
        // Asked for, kitty inside tmux is always placeholders.
        #expect(Capabilities.decide(replies: replies, window: nil, environment: environment, choice: .kitty).mode == .kitty(.tmux))
        // Outside tmux nothing changes.
        #expect(Capabilities.decide(replies: replies, window: nil, environment: ["TERM": "xterm-kitty"], choice: .kitty).mode == .kitty(.inline))
    }
}
