/// What the terminal sends, read as whole keys. Every escape sequence (CSI, SS3, the OSC, DCS,
/// APC, PM and SOS strings, an ESC before a key, which is Alt) is one event, mapped to a key
/// photogrid binds or dropped whole: a key that rates or moves photos never comes from half of
/// another one (Alt+x is not Esc then `x`; `ESC [97;5u` is not `5` then `u`).
///
/// Read as terminals send them: xterm's and the VT220's cursor and editing keys, in either
/// cursor-key mode; kitty's keyboard protocol (`CSI code;mods u`) and xterm's modifyOtherKeys
/// (`CSI 27;mods;code ~`), mapped when the key with its modifiers is one photogrid binds (a
/// letter, Shift and a letter, Ctrl and a letter, Enter, Tab, Esc, Backspace); mouse reports in
/// SGR (`CSI < b;x;y M`) and X10 (`CSI M bxy`) encodings, taken only while the mouse is asked
/// for. An ESC with nothing after it for `escapeDelay` is the Esc key, as ncurses' ESCDELAY;
/// a sequence begun and never finished is dropped after `sequenceDelay`.
package struct KeyDecoder {
    /// Mouse reports were asked for: without it, a report is dropped like any unknown sequence.
    package var mouse = false
    /// The bytes of a sequence not yet whole, and when its first came.
    private var pending: [UInt8] = []
    private var pendingSince = 0
    /// Inside a sequence too long to keep (a hostile or broken one): its bytes are dropped
    /// until it ends.
    private var skipping: Skip?
    private enum Skip { case controlSequence, string(afterEscape: Bool) }
    /// The last click, to tell a double click.
    private var lastClick: (column: Int, row: Int, at: Int)?

    /// Milliseconds an ESC waits for what follows before it is the Esc key (ncurses' ESCDELAY,
    /// which photogrid set to 25 before it read keys itself).
    package static let escapeDelay = 25
    /// Milliseconds a sequence begun (`ESC [`, a string) waits for its end before it is dropped.
    package static let sequenceDelay = 400
    /// Milliseconds between two clicks on one cell that make a double click.
    package static let doubleClickMilliseconds = 400
    /// The longest sequence kept whole; past it the rest is skipped.
    static let longest = 512

    package init() {}

    /// The keys in `bytes`, read after what came before; an unfinished sequence waits for the
    /// next bytes or its deadline (`due`, then `expire`).
    package mutating func feed(_ bytes: some Sequence<UInt8>, now: Int) -> [Key] {
        var keys: [Key] = []
        for byte in bytes {
            if skip(byte) { continue }
            if pending.isEmpty { pendingSince = now }
            pending.append(byte)
            parsePending(final: false, now: now, into: &keys)
            if pending.count > KeyDecoder.longest { startSkipping() }
        }
        return keys
    }

    /// When an unfinished sequence is to be decided (monotonic ms), if one waits.
    package var due: Int? {
        guard !pending.isEmpty else { return nil }
        // Escs alone are keys soon; a sequence begun waits longer for the rest of it.
        return pendingSince + (pending.allSatisfy { $0 == 0x1B } ? KeyDecoder.escapeDelay : KeyDecoder.sequenceDelay)
    }

    /// Decides what waits once its time has passed: a lone ESC is the Esc key; a sequence
    /// left unfinished is dropped.
    package mutating func expire(now: Int) -> [Key] {
        guard let due, now >= due else { return [] }
        var keys: [Key] = []
        parsePending(final: true, now: now, into: &keys)
        pending = []
        return keys
    }

    /// Forgets a sequence half read (the terminal was handed to another program and back).
    package mutating func reset() {
        pending = []
        skipping = nil
        lastClick = nil
    }

    // MARK: - Reading

    private enum Parsed {
        case key(Key?, length: Int)
        case keys([Key], length: Int)
        case incomplete
    }

    private mutating func parsePending(final: Bool, now: Int, into keys: inout [Key]) {
        var start = 0
        while start < pending.count {
            switch parse(pending[start...], final: final, now: now) {
            case .key(let key, let length):
                if let key { keys.append(key) }
                start += length
            case .keys(let more, let length):
                keys += more
                start += length
            case .incomplete:
                pending.removeFirst(start)
                return
            }
        }
        pending = []
    }

    /// The first key of `bytes`; with `final`, nothing more is coming.
    private mutating func parse(_ bytes: ArraySlice<UInt8>, final: Bool, now: Int) -> Parsed {
        let i = bytes.startIndex
        let first = bytes[i]
        guard first == 0x1B else { return .key(KeyDecoder.plain(first), length: 1) }
        guard bytes.count > 1 else { return final ? .key(.escape, length: 1) : .incomplete }
        let second = bytes[i + 1]
        switch second {
        case UInt8(ascii: "["): return controlSequence(bytes, from: i + 2, final: final, now: now)
        case UInt8(ascii: "O"): return singleShift(bytes, from: i + 2, final: final)
        case UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X"):
            return string(bytes, from: i + 2, final: final)
        case 0x1B:
            // Esc twice, or Alt with a key that is itself a sequence (ESC ESC [ A): the latter
            // is dropped whole, the former is two Escs.
            let inner = parse(bytes.dropFirst(), final: final, now: now)
            switch inner {
            case .incomplete: return .incomplete
            case .key(let key, let length) where key == .escape && length == 1: return .key(.escape, length: 1)
            case .key(_, let length), .keys(_, let length):
                return bytes.count > 2 && [UInt8(ascii: "["), UInt8(ascii: "O")].contains(bytes[i + 2])
                    ? .key(nil, length: 1 + length) : .key(.escape, length: 1)
            }
        case 0xC2...0xF4:
            // Alt with a character outside ASCII: dropped with all of its bytes.
            let length = second >= 0xF0 ? 4 : second >= 0xE0 ? 3 : 2
            guard bytes.count >= 1 + length else { return final ? .key(nil, length: bytes.count) : .incomplete }
            return .key(nil, length: 1 + length)
        default:
            // Alt with a key (ESC x): no key of photogrid's is an Alt key.
            return .key(nil, length: 2)
        }
    }

    /// A byte outside any sequence.
    static func plain(_ byte: UInt8) -> Key? {
        switch byte {
        case 13, 10: return .enter
        case 127, 8: return .backspace
        case 1...26: return .control(Character(UnicodeScalar(byte + 96)))
        case 32...126: return .character(Character(UnicodeScalar(byte)))
        case 128...255: return .byte(byte)
        default: return nil          // NUL, Ctrl-\ ] ^ _
        }
    }

    /// `ESC [` and what follows to its final byte (0x40-0x7E), or an X10 mouse report, or the
    /// Linux console's `ESC [ [ A` function keys.
    private mutating func controlSequence(_ bytes: ArraySlice<UInt8>, from start: Int, final: Bool, now: Int) -> Parsed {
        let base = bytes.startIndex
        guard start < bytes.endIndex else { return final ? .key(nil, length: bytes.count) : .incomplete }
        if bytes[start] == UInt8(ascii: "M") {
            // X10 mouse: three bytes follow, each 32 more than its value, whatever they are.
            guard bytes.endIndex - start >= 4 else { return final ? .key(nil, length: bytes.count) : .incomplete }
            let b = Int(bytes[start + 1]) - 32, x = Int(bytes[start + 2]) - 33, y = Int(bytes[start + 3]) - 33
            return .key(mouseReport(button: b, column: x, row: y, press: (b & 3) != 3, now: now), length: start + 4 - base)
        }
        if bytes[start] == UInt8(ascii: "[") {
            guard start + 1 < bytes.endIndex else { return final ? .key(nil, length: bytes.count) : .incomplete }
            return .key(nil, length: start + 2 - base)
        }
        var k = start
        while k < bytes.endIndex {
            let b = bytes[k]
            switch b {
            case 0x20...0x3F: k += 1
            case 0x40...0x7E:
                let key = controlKey(parameters: Array(bytes[start..<k]), final: b, now: now)
                return .keys(key, length: k + 1 - base)
            default:
                // Not a control sequence after all (a control character, ESC, a high byte):
                // what came before it is dropped, it is read again on its own.
                return .key(nil, length: k - base)
            }
        }
        return final ? .key(nil, length: bytes.count) : .incomplete
    }

    /// `ESC O` and a final byte: the cursor keys in application mode, keypad Enter, F1-F4.
    private func singleShift(_ bytes: ArraySlice<UInt8>, from start: Int, final: Bool) -> Parsed {
        let base = bytes.startIndex
        var k = start
        // Some terminals put a modifier between (ESC O 5 A): such a key is not one of ours.
        while k < bytes.endIndex, (0x30...0x3F).contains(bytes[k]) { k += 1 }
        guard k < bytes.endIndex else { return final ? .key(nil, length: bytes.count) : .incomplete }
        let keys: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end, 0x4D: .enter]
        guard (0x40...0x7E).contains(bytes[k]) else { return .key(nil, length: k - base) }
        return .key(k == start ? keys[bytes[k]] : nil, length: k + 1 - base)
    }

    /// An OSC, DCS, APC, PM or SOS string, up to BEL or ST (`ESC \`): a terminal's late answer,
    /// never a key.
    private func string(_ bytes: ArraySlice<UInt8>, from start: Int, final: Bool) -> Parsed {
        let base = bytes.startIndex
        var k = start
        while k < bytes.endIndex {
            if bytes[k] == 0x07 { return .key(nil, length: k + 1 - base) }
            if bytes[k] == 0x1B, k + 1 < bytes.endIndex, bytes[k + 1] == UInt8(ascii: "\\") { return .key(nil, length: k + 2 - base) }
            k += 1
        }
        return final ? .key(nil, length: bytes.count) : .incomplete
    }

    // MARK: - Meaning

    /// A whole control sequence's key, if it is one photogrid binds.
    private mutating func controlKey(parameters: [UInt8], final: UInt8, now: Int) -> [Key] {
        if parameters.first == UInt8(ascii: "<") {
            // SGR mouse: CSI < button ; column ; row M (pressed) or m (let go), 1-based.
            guard final == UInt8(ascii: "M") || final == UInt8(ascii: "m") else { return [] }
            let numbers = KeyDecoder.numbers(parameters.dropFirst())
            guard numbers.count == 3, let b = numbers[0].first, let x = numbers[1].first, let y = numbers[2].first, x >= 1, y >= 1 else {
                return []
            }
            return mouseReport(button: b, column: x - 1, row: y - 1, press: final == UInt8(ascii: "M"), now: now).map { [$0] } ?? []
        }
        // Other private parameters (?, >, =) and intermediates are answers, not keys.
        guard parameters.allSatisfy({ (0x30...0x3B).contains($0) }) else { return [] }
        let numbers = KeyDecoder.numbers(parameters[...])
        guard parameters.isEmpty || !numbers.isEmpty else { return [] }
        func number(_ i: Int, default value: Int) -> Int { numbers.indices.contains(i) ? numbers[i].first ?? value : value }
        let modifiers = number(1, default: 1)
        switch final {
        case UInt8(ascii: "A"), UInt8(ascii: "B"), UInt8(ascii: "C"), UInt8(ascii: "D"), UInt8(ascii: "H"), UInt8(ascii: "F"):
            // Cursor keys, Home and End, with nothing held (`CSI 1;5D` is Ctrl+Left: not ours).
            guard modifiers == 1, number(0, default: 1) == 1 else { return [] }
            let keys: [UInt8: Key] = [0x41: .up, 0x42: .down, 0x43: .right, 0x44: .left, 0x48: .home, 0x46: .end]
            return keys[final].map { [$0] } ?? []
        case UInt8(ascii: "~"):
            let code = number(0, default: 0)
            if code == 27 {
                // xterm's modifyOtherKeys: CSI 27 ; modifiers ; code ~
                guard numbers.count == 3, let code = numbers[2].first else { return [] }
                return KeyDecoder.key(code: code, modifiers: modifiers)
            }
            guard modifiers == 1 else { return [] }
            let keys: [Int: Key] = [1: .home, 7: .home, 4: .end, 8: .end, 5: .pageUp, 6: .pageDown]
            return keys[code].map { [$0] } ?? []
        case UInt8(ascii: "u"):
            // kitty's keyboard protocol: CSI code[:alternates] ; modifiers[:event] ; text u.
            guard let code = numbers.first?.first else { return [] }
            // A key let go (event 3) is no key press.
            if numbers.count > 1, numbers[1].count > 1, numbers[1][1] == 3 { return [] }
            return KeyDecoder.key(code: code, modifiers: modifiers)
        default:
            return []               // F-keys, Insert, Delete, focus reports, answers
        }
    }

    /// A key named by its Unicode code and the modifiers (1 + Shift 1, Alt 2, Ctrl 4, Super 8,
    /// Hyper 16, Meta 32; Caps Lock 64 and Num Lock 128 ignored), if it is one photogrid binds.
    static func key(code: Int, modifiers: Int) -> [Key] {
        let held = (modifiers - 1) & ~(64 | 128)
        guard modifiers >= 1, held & ~(1 | 4) == 0, (0...0x10FFFF).contains(code) else { return [] }
        let shift = held & 1 != 0, ctrl = held & 4 != 0
        let letter = (97...122).contains(code) || (65...90).contains(code)
        switch (shift, ctrl) {
        case (false, true):
            return letter ? [.control(Character(UnicodeScalar(UInt8(code | 0x20))))] : []
        case (true, false):
            // kitty names the key unshifted (97 for Shift+a), xterm the character made (65):
            // either is that letter in capitals; other characters as given.
            if letter { return [.character(Character(UnicodeScalar(UInt8(code & ~0x20))))] }
            return (33...126).contains(code) ? [.character(Character(UnicodeScalar(UInt8(code))))] : []
        case (false, false):
            switch code {
            case 13: return [.enter]
            case 9: return [.control("i")]
            case 27: return [.escape]
            case 127, 8: return [.backspace]
            case 32...126: return [.character(Character(UnicodeScalar(UInt8(code))))]
            // kitty's own codes for keys with no character (keypad, media, modifiers alone).
            case 0xE000...0xF8FF: return []
            case 160...:
                guard let scalar = UnicodeScalar(code) else { return [] }
                return Array(String(Character(scalar)).utf8).map { .byte($0) }
            default: return []
            }
        case (true, true): return []
        }
    }

    /// A mouse report's key: a press of the first button (a click; a second on the same cell
    /// soon after, a double click) or a turn of the wheel, with nothing held; nil otherwise, or
    /// when reports were not asked for.
    private mutating func mouseReport(button b: Int, column: Int, row: Int, press: Bool, now: Int) -> Key? {
        guard mouse, press, b >= 0, column >= 0, row >= 0, b & (4 | 8 | 16 | 32 | 128) == 0 else { return nil }
        if b & 64 != 0 {
            switch b & 3 {
            case 0: return .mouse(.wheelUp, column: column, row: row)
            case 1: return .mouse(.wheelDown, column: column, row: row)
            default: return nil
            }
        }
        guard b & 3 == 0 else { return nil }
        if let last = lastClick, last.column == column, last.row == row, now - last.at <= KeyDecoder.doubleClickMilliseconds {
            lastClick = nil
            return .mouse(.doubleClick, column: column, row: row)
        }
        lastClick = (column, row, now)
        return .mouse(.click, column: column, row: row)
    }

    /// `1;5:3;12` as [[1], [5, 3], [12]]; an empty field is an empty list; a number past six
    /// digits makes the whole unreadable (empty).
    static func numbers(_ bytes: ArraySlice<UInt8>) -> [[Int]] {
        guard !bytes.isEmpty else { return [] }
        var fields: [[Int]] = []
        for field in bytes.split(separator: UInt8(ascii: ";"), omittingEmptySubsequences: false) {
            var values: [Int] = []
            for part in field.split(separator: UInt8(ascii: ":"), omittingEmptySubsequences: false) {
                guard !part.isEmpty, part.count <= 6, part.allSatisfy({ (0x30...0x39).contains($0) }) else {
                    if part.isEmpty { values.append(0); continue }
                    return []
                }
                values.append(part.reduce(0) { $0 * 10 + Int($1 - 0x30) })
            }
            fields.append(field.isEmpty ? [] : values)
        }
        return fields
    }

    // MARK: - Sequences too long to keep

    private mutating func startSkipping() {
        // Only a control sequence or a string grows this long unfinished.
        let isString = pending.count > 1 && [UInt8(ascii: "]"), UInt8(ascii: "P"), UInt8(ascii: "_"), UInt8(ascii: "^"), UInt8(ascii: "X")].contains(pending[1])
        skipping = isString ? .string(afterEscape: pending.last == 0x1B) : .controlSequence
        pending = []
    }

    /// Whether `byte` belongs to a sequence being skipped (and is dropped).
    private mutating func skip(_ byte: UInt8) -> Bool {
        switch skipping {
        case nil: return false
        case .controlSequence:
            if (0x20...0x3F).contains(byte) { return true }
            skipping = nil
            // The final byte ends it; anything else ends it too and is read on its own.
            return (0x40...0x7E).contains(byte)
        case .string(let afterEscape):
            if byte == 0x07 || (afterEscape && byte == UInt8(ascii: "\\")) { skipping = nil; return true }
            skipping = .string(afterEscape: byte == 0x1B)
            return true
        }
    }
}
