import Testing
@testable import PhotoGridTerminal

/// The key reader on the sequences terminals send: each whole, mapped or dropped, never read as
/// the keys its bytes spell.
@Suite struct KeyDecoderTests {
    /// The keys of `text` fed at once, then (for a lone ESC) once its time has passed.
    func keys(_ text: String, mouse: Bool = false) -> [Key] {
        var decoder = KeyDecoder()
        decoder.mouse = mouse
        return decoder.feed(Array(text.utf8), now: 0) + decoder.expire(now: 10_000)
    }

    @Test func altKeysAreDroppedWhole() {
        #expect(keys("\u{1B}x").isEmpty)
        #expect(keys("\u{1B}j").isEmpty)
        #expect(keys("\u{1B}d\u{1B}R").isEmpty)
        // Alt with a character outside ASCII, with Enter, with Backspace.
        #expect(keys("\u{1B}é").isEmpty)
        #expect(keys("\u{1B}\r\u{1B}\u{7F}").isEmpty)
        // Alt with an arrow (ESC ESC [ A) is not Esc then Up.
        #expect(keys("\u{1B}\u{1B}[A").isEmpty)
    }

    @Test func theEscKeyAloneAfterItsDelay() {
        var decoder = KeyDecoder()
        #expect(decoder.feed([0x1B], now: 1000).isEmpty)
        #expect(decoder.due == 1000 + KeyDecoder.escapeDelay)
        #expect(decoder.expire(now: 1010).isEmpty)
        #expect(decoder.expire(now: 1000 + KeyDecoder.escapeDelay) == [.escape])
        #expect(decoder.due == nil)
        // Twice, quickly: two Escs.
        #expect(decoder.feed([0x1B, 0x1B], now: 2000).isEmpty)
        #expect(decoder.expire(now: 3000) == [.escape, .escape])
    }

    @Test func kittysKeyboardProtocolMapsTheKeysPhotogridBinds() {
        #expect(keys("\u{1B}[106u") == [.character("j")])
        #expect(keys("\u{1B}[106;2u") == [.character("J")])
        #expect(keys("\u{1B}[114;5u") == [.control("r")])
        #expect(keys("\u{1B}[13u\u{1B}[27u\u{1B}[127u\u{1B}[9u") == [.enter, .escape, .backspace, .control("i")])
        // Ctrl+a is not bound: dropped, not `5` (columns) then `u` (put back).
        #expect(keys("\u{1B}[97;5u") == [.control("a")])
        // Alt+x, Ctrl+Shift+x, Super+j, a key let go, Shift+Enter, a keypad key: not keys of ours.
        #expect(keys("\u{1B}[120;3u\u{1B}[120;6u\u{1B}[106;9u\u{1B}[106;1:3u\u{1B}[13;2u\u{1B}[57399u").isEmpty)
        // Caps Lock and Num Lock held change nothing.
        #expect(keys("\u{1B}[106;65u\u{1B}[106;129u") == [.character("j"), .character("j")])
        // A letter of another alphabet, for the search.
        #expect(keys("\u{1B}[233u") == Array("é".utf8).map { .byte($0) })
    }

    @Test func xtermsModifyOtherKeys() {
        // Ctrl+Tab, Shift+Enter: no key of photogrid's (they changed the columns before).
        #expect(keys("\u{1B}[27;5;9~").isEmpty)
        #expect(keys("\u{1B}[27;2;13~").isEmpty)
        #expect(keys("\u{1B}[27;5;114~") == [.control("r")])
        #expect(keys("\u{1B}[27;2;43~") == [.character("+")])
        #expect(keys("\u{1B}[27;2;65~") == [.character("A")])
    }

    @Test func cursorAndEditingKeysInEitherMode() {
        #expect(keys("\u{1B}[A\u{1B}[B\u{1B}[C\u{1B}[D") == [.up, .down, .right, .left])
        #expect(keys("\u{1B}OA\u{1B}OB\u{1B}OC\u{1B}OD\u{1B}OH\u{1B}OF\u{1B}OM") == [.up, .down, .right, .left, .home, .end, .enter])
        #expect(keys("\u{1B}[H\u{1B}[F\u{1B}[1~\u{1B}[4~\u{1B}[7~\u{1B}[8~") == [.home, .end, .home, .end, .home, .end])
        #expect(keys("\u{1B}[5~\u{1B}[6~") == [.pageUp, .pageDown])
        // F1-F12, Insert, Delete, Ctrl+Left, Shift+PgDn, the Linux console's F1, focus reports: dropped.
        #expect(keys("\u{1B}OP\u{1B}[15~\u{1B}[24~\u{1B}[2~\u{1B}[3~\u{1B}[1;5D\u{1B}[6;2~\u{1B}[[A\u{1B}[I\u{1B}[O\u{1B}[Z").isEmpty)
    }

    @Test func plainBytes() {
        #expect(keys("jk+\r\n\t\u{7F}\u{08}\u{0C}") == [.character("j"), .character("k"), .character("+"), .enter, .enter,
                                                      .control("i"), .backspace, .backspace, .control("l")])
        #expect(keys("é") == Array("é".utf8).map { .byte($0) })
        #expect(keys("\u{0}\u{1C}").isEmpty)
    }

    @Test func terminalAnswersAndStringsAreNotKeys() {
        // A late answer to the probe (OSC 11, DA1, a cursor report, DECRQM, an APC from kitty)
        // between two keys.
        let answers = "\u{1B}]11;rgb:0000/0000/0000\u{1B}\\\u{1B}[?62;4c\u{1B}[12;40R\u{1B}[?2026;2$y\u{1B}_Gi=31;OK\u{1B}\\\u{1B}]52;c;?\u{07}"
        #expect(keys("j" + answers + "k") == [.character("j"), .character("k")])
        #expect(keys("\u{1B}P>|xterm(390)\u{1B}\\q") == [.character("q")])
    }

    @Test func sequencesCutAnywhereReadTheSame() {
        let text = Array("j\u{1B}[97;5u\u{1B}x\u{1B}[<0;45;5M\u{1B}]0;title\u{07}\u{1B}OA\u{1B}[27;2;13~k\u{1B}[<64;3;3M".utf8)
        var whole = KeyDecoder(), split = KeyDecoder()
        whole.mouse = true
        split.mouse = true
        let expected = whole.feed(text, now: 0)
        for cut in 0...text.count {
            split.reset()
            let keys = split.feed(text[..<cut], now: 0) + split.feed(text[cut...], now: 0)
            #expect(keys == expected, "cut at \(cut)")
        }
        var bytewise = KeyDecoder()
        bytewise.mouse = true
        #expect(text.flatMap { bytewise.feed([$0], now: 0) } == expected)
    }

    @Test func anUnfinishedSequenceIsDroppedNotTyped() {
        var decoder = KeyDecoder()
        #expect(decoder.feed(Array("\u{1B}[97;".utf8), now: 0).isEmpty)
        #expect(decoder.due == KeyDecoder.sequenceDelay)
        #expect(decoder.expire(now: KeyDecoder.sequenceDelay).isEmpty)
        #expect(decoder.feed(Array("5uj".utf8), now: 1000) == [.character("5"), .character("u"), .character("j")])
        // One too long to keep: skipped to its end, what follows read.
        let long = "\u{1B}[" + String(repeating: "1;", count: 5000) + "A" + "j"
        #expect(keys(long) == [.character("j")])
        let string = "\u{1B}]" + String(repeating: "x", count: 100_000) + "\u{07}" + "k"
        #expect(keys(string) == [.character("k")])
        // A number too long to read makes the sequence no key (not Up).
        #expect(keys("\u{1B}[99999999999A").isEmpty)
    }

    @Test func mouseReportsOnlyWhenAskedFor() {
        let press = "\u{1B}[<0;45;5M", release = "\u{1B}[<0;45;5m"
        #expect(keys(press + release).isEmpty)
        #expect(keys(press + release, mouse: true) == [.mouse(.click, column: 44, row: 4)])
        // Wheel, a second click soon after on the same cell, a click with Ctrl, a drag.
        var decoder = KeyDecoder()
        decoder.mouse = true
        #expect(decoder.feed(Array("\u{1B}[<65;10;3M\u{1B}[<64;10;3M".utf8), now: 0)
                == [.mouse(.wheelDown, column: 9, row: 2), .mouse(.wheelUp, column: 9, row: 2)])
        #expect(decoder.feed(Array((press + release + press + release).utf8), now: 100)
                == [.mouse(.click, column: 44, row: 4), .mouse(.doubleClick, column: 44, row: 4)])
        #expect(decoder.feed(Array((press + release).utf8), now: 2000) == [.mouse(.click, column: 44, row: 4)])
        #expect(decoder.feed(Array("\u{1B}[<16;45;5M\u{1B}[<32;46;5M\u{1B}[<2;45;5M".utf8), now: 5000).isEmpty)
        // X10's encoding, from a terminal without SGR's: three bytes, whatever they are.
        let x10 = "\u{1B}[M" + String(UnicodeScalar(32)) + String(UnicodeScalar(33 + 10)) + String(UnicodeScalar(33 + 3))
        #expect(keys(x10 + "\u{1B}[M#+$", mouse: true) == [.mouse(.click, column: 10, row: 3)])
        // Unasked, its bytes are not keys either (a space would page down).
        #expect(keys(x10).isEmpty)
    }
}
