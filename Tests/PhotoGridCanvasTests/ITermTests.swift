import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridSystem
@testable import PhotoGridTerminal
import PhotoGridTestFixtures

/// iTerm2's inline images, and how the probe finds a terminal that draws them.
@Suite struct ITermTests {
    func parse(_ s: String) -> TerminalReplies { TerminalReplies.parse(Array(s.utf8)).replies }

    @Test func aTileIsAJPEGOfItsSizeInOneOSC1337() throws {
        let image = TestImages.gradient(width: 120, height: 80)
        let bytes = ITerm.picture(image)
        let text = String(decoding: bytes, as: UTF8.self)
        #expect(text.hasPrefix("\u{1B}]1337;File=inline=1;size="))
        #expect(text.contains(";width=120px;height=80px;preserveAspectRatio=0;doNotMoveCursor=1:"))
        #expect(bytes.last == 0x07)
        let colon = try #require(bytes.firstIndex(of: UInt8(ascii: ":")))
        let jpeg = try #require(Base64.decode(Array(bytes[(colon + 1)..<(bytes.count - 1)])))
        #expect(text.contains("size=\(jpeg.count);"))
        let decoded = try JPEG.decode(jpeg)
        #expect(decoded.width == 120 && decoded.height == 80)
        #expect(TestImages.meanAbsoluteError(decoded, image) < 3)
        // Drawn from the cursor and overwritten by text, as sixel is.
        #expect(EncodedTile.iterm(bytes).sixelParts?.first?.bytes == bytes)
    }

    @Test func theProbeReadsXTVERSIONAndITermsCellSize() {
        let wezterm = parse("\u{1B}P>|WezTerm 20240203-110809-5046fc22\u{1B}\\\u{1B}[?65;4;6;18;22c")
        #expect(wezterm.terminalName == "WezTerm 20240203-110809-5046fc22")
        let iterm = parse("\u{1B}]1337;ReportCellSize=17.0;8.0;2.0\u{1B}\\\u{1B}P>|iTerm2 3.5.0\u{1B}\\\u{1B}[?62;4c")
        #expect(iterm.iTermCellSize! == (16, 34) && iterm.terminalName == "iTerm2 3.5.0")
        // BEL ends an OSC too; absurd sizes and sequences in the name are not taken.
        #expect(parse("\u{1B}]1337;ReportCellSize=20;10\u{07}\u{1B}[?62c").iTermCellSize! == (10, 20))
        #expect(parse("\u{1B}]1337;ReportCellSize=1e9;nan\u{07}\u{1B}[?62c").iTermCellSize == nil)
        let hostile = parse("\u{1B}P>|evil\u{1B}]0;title\u{07}\u{1B}\\\u{1B}[?62c")
        #expect(hostile.terminalName.map { !$0.contains("\u{1B}") && !$0.contains("\u{07}") } ?? true)
        // A reply cut inside its string is completed by the next read.
        let whole = Array("\u{1B}P>|XTerm(379)\u{1B}\\\u{1B}[?63;4c".utf8)
        let (first, rest) = TerminalReplies.parse(Array(whole.prefix(8)))
        var merged = first
        merged.merge(TerminalReplies.parse(rest + whole.dropFirst(8)).replies)
        #expect(merged.terminalName == "XTerm(379)" && merged.supportsSixel)
    }

    @Test func kittyThenITermThenSixel() {
        let window = TTY.WindowSize(columns: 100, rows: 30, pixelWidth: 0, pixelHeight: 0)
        // WezTerm answers kitty's query: kitty wins.
        let both = parse("\u{1B}_Gi=31;OK\u{1B}\\\u{1B}_Gi=33;OK\u{1B}\\\u{1B}P>|WezTerm 2024\u{1B}\\\u{1B}[?65;4c")
        #expect(Capabilities.decide(replies: both, window: window, environment: ["TERM_PROGRAM": "WezTerm"], choice: .auto).mode == .kitty(.inline))
        // iTerm2: inline images before sixel, cell size from its own answer.
        let iterm = parse("\u{1B}]1337;ReportCellSize=17.0;8.0;2.0\u{1B}\\\u{1B}[?62;4c")
        let caps = Capabilities.decide(replies: iterm, window: window, environment: ["TERM_PROGRAM": "iTerm.app"], choice: .auto)
        #expect(caps.mode == .iterm && caps.cellWidth == 16 && caps.cellHeight == 34 && caps.cellSizeSource == "iTerm2 ReportCellSize")
        #expect(caps.modeReason.contains("iTerm2 inline images"))
        // mintty by XTVERSION alone.
        #expect(Capabilities.decide(replies: parse("\u{1B}P>|mintty 3.6.1\u{1B}\\\u{1B}[?62c"), window: nil, environment: [:], choice: .auto).mode == .iterm)
        // VS Code only with its images on (sixel in DA1); inside tmux never.
        #expect(Capabilities.decide(replies: parse("\u{1B}[?62c"), window: nil, environment: ["TERM_PROGRAM": "vscode"], choice: .auto).mode != .iterm)
        #expect(Capabilities.decide(replies: parse("\u{1B}[?62;4c"), window: nil, environment: ["TERM_PROGRAM": "vscode"], choice: .auto).mode == .iterm)
        #expect(Capabilities.decide(replies: parse("\u{1B}P>|iTerm2 3.5\u{1B}\\\u{1B}[?62c"), window: nil,
                                    environment: ["TMUX": "/tmp/t,1,0"], choice: .auto).mode == .halfBlock(.trueColor))
        #expect(Capabilities.decide(replies: parse("\u{1B}[?62c"), window: nil, environment: [:], choice: .iterm).mode == .iterm)
        // GNU screen says what it can do.
        let screen = Capabilities.decide(replies: parse("\u{1B}[?1;2c"), window: nil, environment: ["TERM": "screen", "STY": "1.x"], choice: .auto)
        #expect(screen.modeReason.contains("GNU screen"))
    }
}
