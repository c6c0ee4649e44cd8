/// What a terminal answered to the capability queries, parsed from raw bytes.
///
/// The replies are CSI sequences; anything else that arrived meanwhile (keys the user typed)
/// is kept apart in `other`, to be handed to the key input rather than lost or misread.
public struct TerminalReplies: Equatable, Sendable {
    /// DA1 attributes; its arrival ends the probe, since terminals answer in order.
    public var deviceAttributes: [Int]?
    /// `CSI 16 t`: the cell size in pixels.
    public var cellSize: (width: Int, height: Int)? { cellSizeValue.map { ($0[0], $0[1]) } }
    /// `CSI 14 t`: the text area in pixels.
    public var textAreaSize: (width: Int, height: Int)? { textAreaValue.map { ($0[0], $0[1]) } }
    /// XTSMGRAPHICS: sixel colour registers, and the largest sixel image in pixels.
    public var colorRegisters: Int?
    public var graphicsSize: (width: Int, height: Int)? { graphicsValue.map { ($0[0], $0[1]) } }
    /// DECRPM answers: mode number to 1 (set) or 2 (reset).
    public var privateModes: [Int: Int] = [:]
    /// The kitty graphics protocol's answer to the start-up query: true for OK, false for an
    /// error (the terminal knows the protocol but cannot take pictures so), nil for no answer.
    public var kittyGraphics: Bool?
    /// Its answer to the same asked through a file: true when it read the file (it runs on this
    /// machine and pictures can go as files), false when it could not, nil for no answer.
    public var kittyFiles: Bool?
    public var other: [UInt8] = []

    var cellSizeValue: [Int]?
    var textAreaValue: [Int]?
    var graphicsValue: [Int]?

    public init() {}

    public var supportsSixel: Bool { deviceAttributes?.contains(4) ?? false }
    public var supportsKitty: Bool { kittyGraphics == true }

    /// The queries, in one batch ending with DA1. Terminals answer in order, so DA1's answer
    /// ends the wait; one that does not know a query ignores it (xterm and VTE drop an APC, the
    /// kitty query, whole). Not the kitty query inside tmux or GNU screen: they take an APC as
    /// a title for the pane, and would not pass the answer through anyway.
    public static func query(environment: [String: String]) -> [UInt8] {
        Capabilities.isMultiplexer(environment) ? query : Kitty.query + query
    }

    /// The queries every terminal is asked.
    public static let query: [UInt8] = Array((
        "\u{1B}[?1;1;0S" +      // XTSMGRAPHICS: read the number of colour registers
        "\u{1B}[?2;1;0S" +      // XTSMGRAPHICS: read the sixel geometry
        "\u{1B}[16t" +          // cell size in pixels
        "\u{1B}[14t" +          // text area in pixels
        "\u{1B}[?80$p" +        // DECRQM: sixel display mode
        "\u{1B}[?1070$p" +      // DECRQM: private colour registers per image
        "\u{1B}[c"              // DA1
    ).utf8)

    /// The longest APC answer taken: the kitty answer is a few dozen bytes. A longer one is not ours.
    static let maxAPC = 512

    /// Parses everything in `bytes`. A CSI or APC sequence cut off at the end is left in `incomplete`.
    public static func parse(_ bytes: [UInt8]) -> (replies: TerminalReplies, incomplete: [UInt8]) {
        var replies = TerminalReplies()
        var i = 0
        while i < bytes.count {
            guard bytes[i] == 0x1B else { replies.other.append(bytes[i]); i += 1; continue }
            guard i + 1 < bytes.count else { return (replies, Array(bytes[i...])) }
            if bytes[i + 1] == UInt8(ascii: "_") {
                // APC ... ST (ESC \): the kitty graphics protocol's answer.
                var j = i + 2
                while j + 1 < bytes.count, !(bytes[j] == 0x1B && bytes[j + 1] == UInt8(ascii: "\\")), j - i < maxAPC { j += 1 }
                // An APC is never a key: one that is not ours, or too long to be, is dropped.
                if j - i >= maxAPC { i = j; continue }
                guard j + 1 < bytes.count else { return (replies, Array(bytes[i...])) }
                _ = replies.absorbAPC(Array(bytes[(i + 2)..<j]))
                i = j + 2
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

    /// Takes an APC body; false if it is not the answer to our kitty query (`G`, our id, then
    /// `;OK` or `;` and an error).
    mutating func absorbAPC(_ body: [UInt8]) -> Bool {
        guard body.first == UInt8(ascii: "G"), let semicolon = body.firstIndex(of: UInt8(ascii: ";")) else { return false }
        let keys = String(decoding: body[1..<semicolon], as: UTF8.self).split(separator: ",")
        let ok = body[(semicolon + 1)...].elementsEqual("OK".utf8)
        if keys.contains("i=\(Kitty.queryID)") { kittyGraphics = ok; return true }
        if keys.contains("i=\(Kitty.fileQueryID)") { kittyFiles = ok; return true }
        return false
    }

    private func numbers(_ text: String) -> [Int]? {
        let parts = text.split(separator: ";", omittingEmptySubsequences: false)
        let values = parts.map { Int($0) ?? 0 }
        return values.isEmpty ? nil : values
    }

    /// Merges a later batch of parsed replies into this one.
    mutating func merge(_ later: TerminalReplies) {
        deviceAttributes = later.deviceAttributes ?? deviceAttributes
        cellSizeValue = later.cellSizeValue ?? cellSizeValue
        textAreaValue = later.textAreaValue ?? textAreaValue
        colorRegisters = later.colorRegisters ?? colorRegisters
        graphicsValue = later.graphicsValue ?? graphicsValue
        privateModes.merge(later.privateModes) { $1 }
        kittyGraphics = later.kittyGraphics ?? kittyGraphics
        kittyFiles = later.kittyFiles ?? kittyFiles
        other += later.other
    }
}
