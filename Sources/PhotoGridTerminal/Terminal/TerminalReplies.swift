import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// What a terminal answered to the capability queries, parsed from raw bytes.
///
/// The replies are CSI sequences; anything else that arrived meanwhile (keys the user typed)
/// is kept apart in `other`, to be handed to the key input rather than lost or misread.
package struct TerminalReplies: Equatable, Sendable {
    /// DA1 attributes; its arrival ends the probe, since terminals answer in order.
    package var deviceAttributes: [Int]?
    /// `CSI 16 t`: the cell size in pixels.
    package var cellSize: (width: Int, height: Int)? { cellSizeValue.map { ($0[0], $0[1]) } }
    /// `CSI 14 t`: the text area in pixels.
    package var textAreaSize: (width: Int, height: Int)? { textAreaValue.map { ($0[0], $0[1]) } }
    /// XTSMGRAPHICS: sixel colour registers, and the largest sixel image in pixels.
    package var colorRegisters: Int?
    package var graphicsSize: (width: Int, height: Int)? { graphicsValue.map { ($0[0], $0[1]) } }
    /// DECRPM answers: mode number to 1 (set) or 2 (reset).
    package var privateModes: [Int: Int] = [:]
    /// The kitty graphics protocol's answer to the start-up query: true for OK, false for an
    /// error (the terminal knows the protocol but cannot take pictures so), nil for no answer.
    package var kittyGraphics: Bool?
    /// Its answer to a picture sent for real after the query (`Kitty.transmitCheck`): nil when
    /// none came, as from a terminal that answers the query and ignores pictures.
    package var kittyTransmits: Bool?
    /// XTVERSION's answer: the terminal's name and version ("XTerm(379)", "WezTerm 20240203"...),
    /// sanitized, at most 80 characters.
    package var terminalName: String?
    /// iTerm2's `OSC 1337;ReportCellSize` answer: a cell in pixels.
    package var iTermCellSize: (width: Int, height: Int)? { iTermCellValue.map { ($0[0], $0[1]) } }
    var iTermCellValue: [Int]?
    /// OSC 11's answer: the terminal's default background colour.
    package var background: RGB?
    /// DECRPM for mode 2026: the terminal shows what comes between `CSI ? 2026 h` and `l` at once.
    package var synchronizedOutput: Bool { privateModes[2026] == 1 || privateModes[2026] == 2 }
    /// Its answer to the same asked through a file: true when it read the file (it runs on this
    /// machine and pictures can go as files), false when it could not, nil for no answer.
    package var kittyFiles: Bool?
    /// Inside tmux: the features tmux found in the terminal it is shown in
    /// (`client_termfeatures`), nil when not asked or tmux did not say.
    package var tmuxClientFeatures: [String]?
    /// Inside tmux: what that terminal said it is (`client_termtype`, "kitty(0.32.2)"), and
    /// whether the pane passes sequences through to it (`allow-passthrough`).
    package var tmuxClientType: String?
    package var tmuxPassthrough: Bool?
    package var other: [UInt8] = []

    var cellSizeValue: [Int]?
    var textAreaValue: [Int]?
    var graphicsValue: [Int]?

    package init() {}

    /// DA1 lists sixel, and inside tmux, the terminal tmux is shown in has it too (tmux lists
    /// sixel for itself and draws `+` boxes where the terminal lacks it).
    package var supportsSixel: Bool { (deviceAttributes?.contains(4) ?? false) && tmuxClientFeatures.map { $0.contains("sixel") } ?? true }
    package var supportsKitty: Bool { kittyGraphics == true && kittyTransmits == true }
    /// It answered the query, then not the picture sent after it (or refused it).
    package var kittyIgnoresPictures: Bool { kittyGraphics == true && kittyTransmits != true }

    /// The queries, in one batch ending with DA1. Terminals answer in order, so DA1's answer
    /// ends the wait; one that does not know a query ignores it (xterm and VTE drop an APC, the
    /// kitty query, whole). Not the kitty query inside tmux or GNU screen: they take an APC as
    /// a title for the pane, and would not pass the answer through anyway.
    /// Nor the string queries on the Linux console, which prints what it does not know of them.
    package static func query(environment: [String: String]) -> [UInt8] {
        if environment["TERM"] == "linux" { return query }
        return (Capabilities.isMultiplexer(environment) ? [] : Kitty.query + Kitty.transmitCheck) + iTermQuery + backgroundQuery + query
    }

    /// iTerm2's cell size.
    static let iTermQuery = Array("\u{1B}]1337;ReportCellSize\u{1B}\\".utf8)
    /// The default background colour (OSC 11), for `Blanking`.
    static let backgroundQuery = Array("\u{1B}]11;?\u{1B}\\".utf8)

    /// The queries every terminal is asked.
    package static let query: [UInt8] = Array((
        "\u{1B}[?1;1;0S" +      // XTSMGRAPHICS: read the number of colour registers
        "\u{1B}[?2;1;0S" +      // XTSMGRAPHICS: read the sixel geometry
        "\u{1B}[16t" +          // cell size in pixels
        "\u{1B}[14t" +          // text area in pixels
        "\u{1B}[?80$p" +        // DECRQM: sixel display mode
        "\u{1B}[?1070$p" +      // DECRQM: private colour registers per image
        "\u{1B}[?2026$p" +      // DECRQM: synchronized output
        "\u{1B}[>0q" +          // XTVERSION: the terminal's name
        "\u{1B}[c"              // DA1
    ).utf8)

    /// The longest string answer taken: the kitty answer is a few dozen bytes, XTVERSION's and
    /// iTerm2's a few more. A longer one is not ours.
    static let maxAPC = 512

    /// Parses everything in `bytes`. A sequence cut off at the end is left in `incomplete`.
    package static func parse(_ bytes: [UInt8]) -> (replies: TerminalReplies, incomplete: [UInt8]) {
        var replies = TerminalReplies()
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B else { replies.other.append(bytes[i]); i += 1; continue }
            guard i + 1 < bytes.count else { return (replies, Array(bytes[i...])) }
            if let kind = StringSequence(introducer: bytes[i + 1]) {
                // APC, DCS or OSC up to ST (ESC \, or BEL after an OSC): kitty's graphics answer,
                // XTVERSION's, iTerm2's cell size. Never a key: one that is not ours, or too long
                // to be, is dropped.
                switch kind.end(in: bytes, from: i + 2, limit: i + maxAPC) {
                case .incomplete: return (replies, Array(bytes[i...]))
                case .tooLong(let at): i = at
                case .found(let bodyEnd, let next):
                    replies.absorb(kind, Array(bytes[(i + 2)..<bodyEnd]))
                    i = next
                }
                continue
            }
            guard bytes[i + 1] == UInt8(ascii: "[") else { replies.other.append(bytes[i]); i += 1; continue }
            var j = i + 2
            while j < bytes.count, (0x20...0x3F).contains(bytes[j]) { j += 1 }
            guard j < bytes.count else { return (replies, Array(bytes[i...])) }
            let sequence = Array(bytes[i...j])
            if !replies.absorb(body: Array(bytes[(i + 2)..<j]), final: bytes[j]) { replies.other += sequence }
            i = j + 1
        }
        return (replies, [])
    }

    /// Takes one CSI reply; false if it is not one of ours (an arrow key, say).
    mutating func absorb(body: [UInt8], final: UInt8) -> Bool {
        let text = String(decoding: body, as: UTF8.self)
        let isPrivate = text.hasPrefix("?")
        let core = isPrivate ? String(text.dropFirst()) : text
        switch (isPrivate, Character(UnicodeScalar(final))) {
        case (true, "c"):
            deviceAttributes = numbers(core)
            return deviceAttributes != nil
        case (true, "S"):
            // An error status (n[1] != 0) is still our reply: the terminal lacks the feature.
            guard let n = numbers(core) else { return false }
            guard n.count >= 3, n[1] == 0 else { return true }
            if n[0] == 1 { colorRegisters = n[2] }
            if n[0] == 2, n.count >= 4 { graphicsValue = [n[2], n[3]] }
            return true
        case (true, "y") where core.hasSuffix("$"):
            guard let n = numbers(String(core.dropLast())), n.count == 2 else { return false }
            privateModes[n[0]] = n[1]
            return true
        case (false, "t"):
            guard let n = numbers(core), n.count == 3 else { return false }
            if n[0] == 6 { cellSizeValue = [n[2], n[1]] }      // CSI 6 ; height ; width t
            if n[0] == 4 { textAreaValue = [n[2], n[1]] }      // CSI 4 ; height ; width t
            return n[0] == 6 || n[0] == 4
        default:
            return false
        }
    }

    /// The string sequences a terminal answers with.
    enum StringSequence {
        case apc, dcs, osc
        init?(introducer: UInt8) {
            switch introducer {
            case UInt8(ascii: "_"): self = .apc
            case UInt8(ascii: "P"): self = .dcs
            case UInt8(ascii: "]"): self = .osc
            default: return nil
            }
        }

        enum End { case incomplete, tooLong(at: Int), found(bodyEnd: Int, next: Int) }

        /// Where the sequence whose body starts at `from` ends: ST, or BEL for an OSC.
        func end(in bytes: [UInt8], from: Int, limit: Int) -> End {
            var j = from
            while j < bytes.count {
                if j >= limit { return .tooLong(at: j) }
                if self == .osc && bytes[j] == 0x07 { return .found(bodyEnd: j, next: j + 1) }
                if bytes[j] == 0x1B {
                    guard j + 1 < bytes.count else { return .incomplete }
                    if bytes[j + 1] == UInt8(ascii: "\\") { return .found(bodyEnd: j, next: j + 2) }
                }
                j += 1
            }
            return .incomplete
        }
    }

    mutating func absorb(_ kind: StringSequence, _ body: [UInt8]) {
        switch kind {
        case .apc: _ = absorbAPC(body)
        case .dcs: absorbDCS(body)
        case .osc: absorbOSC(body)
        }
    }

    /// Takes an APC body; false if it is not the answer to our kitty query (`G`, our id, then
    /// `;OK` or `;` and an error).
    mutating func absorbAPC(_ body: [UInt8]) -> Bool {
        guard body.first == UInt8(ascii: "G"), let semicolon = body.firstIndex(of: UInt8(ascii: ";")) else { return false }
        let keys = String(decoding: body[1..<semicolon], as: UTF8.self).split(separator: ",")
        let ok = body[(semicolon + 1)...].elementsEqual("OK".utf8)
        if keys.contains("i=\(Kitty.queryID)") { kittyGraphics = ok; return true }
        if keys.contains("i=\(Kitty.fileQueryID)") { kittyFiles = ok; return true }
        if keys.contains("i=\(Kitty.transmitCheckID)") { kittyTransmits = ok; return true }
        return false
    }

    /// XTVERSION's answer, `> | name`.
    mutating func absorbDCS(_ body: [UInt8]) {
        guard body.starts(with: Array(">|".utf8)) else { return }
        terminalName = TerminalText.sanitize(String(decoding: body.dropFirst(2).prefix(80), as: UTF8.self))
    }

    /// iTerm2's `1337;ReportCellSize=height;width[;scale]`, in points: pixels are points times
    /// scale; or OSC 11's `11;rgb:RRRR/GGGG/BBBB` (one to four hex digits a component).
    mutating func absorbOSC(_ body: [UInt8]) {
        let text = String(decoding: body, as: UTF8.self)
        if text.hasPrefix("11;rgb:") {
            let parts = text.dropFirst(7).split(separator: "/")
            let values = parts.compactMap { part -> UInt8? in
                guard (1...4).contains(part.count), let v = Int(part, radix: 16) else { return nil }
                let max = (1 << (4 * part.count)) - 1
                return UInt8((v * 255 + max / 2) / max)
            }
            if parts.count == 3, values.count == 3 { background = RGB(values[0], values[1], values[2]) }
            return
        }
        let key = "1337;ReportCellSize="
        guard text.hasPrefix(key) else { return }
        let values = text.dropFirst(key.count).split(separator: ";").compactMap { Double($0) }
        guard values.count >= 2, values.allSatisfy({ $0.isFinite && $0 > 0 && $0 < 1000 }) else { return }
        let scale = values.count >= 3 ? values[2] : 1
        let (height, width) = (Int((values[0] * scale).rounded()), Int((values[1] * scale).rounded()))
        if (1...1000).contains(width), (1...1000).contains(height) { iTermCellValue = [width, height] }
    }

    private func numbers(_ text: String) -> [Int]? {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        let values = parts.map { Int($0) ?? 0 }
        return values.isEmpty ? nil : values
    }

    /// Merges a later batch of parsed replies into this one.
    package mutating func merge(_ later: TerminalReplies) {
        deviceAttributes = later.deviceAttributes ?? deviceAttributes
        cellSizeValue = later.cellSizeValue ?? cellSizeValue
        textAreaValue = later.textAreaValue ?? textAreaValue
        colorRegisters = later.colorRegisters ?? colorRegisters
        graphicsValue = later.graphicsValue ?? graphicsValue
        privateModes.merge(later.privateModes) { $1 }
        kittyGraphics = later.kittyGraphics ?? kittyGraphics
        kittyFiles = later.kittyFiles ?? kittyFiles
        kittyTransmits = later.kittyTransmits ?? kittyTransmits
        terminalName = later.terminalName ?? terminalName
        iTermCellValue = later.iTermCellValue ?? iTermCellValue
        background = later.background ?? background
        other += later.other
    }
}
