import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// kitty's Unicode placeholders (https://sw.kovidgoyal.net/kitty/graphics-protocol/#unicode-placeholders,
/// kitty 0.28 and later): a picture shown through tmux. tmux keeps no pictures, but it keeps
/// text: the picture is sent once to the terminal outside tmux (each command inside tmux's
/// passthrough, which needs `allow-passthrough`), given a *virtual placement* of so many cells,
/// and then drawn by writing the character U+10EEEE in those cells, its foreground colour naming
/// the picture and combining marks naming the picture's row and column there. tmux
/// moves, redraws and erases that text like any other, and the terminal draws the picture's
/// part in each such cell.
package enum KittyPlaceholders {
    /// The placeholder character, U+10EEEE, in UTF-8.
    static let character: [UInt8] = Array("\u{10EEEE}".utf8)

    /// The combining marks that stand for 0, 1, 2...: the list the protocol defines
    /// (rowcolumn-diacritics.txt in kitty's sources: marks of combining class 230 from Unicode
    /// 6.0 that have no decomposition). A cell's row, its column and the high byte of its
    /// picture's id are each one of these.
    package static let diacritics: [UInt32] = [
        0x0305, 0x030D, 0x030E, 0x0310, 0x0312, 0x033D, 0x033E, 0x033F, 0x0346, 0x034A, 0x034B, 0x034C,
        0x0350, 0x0351, 0x0352, 0x0357, 0x035B, 0x0363, 0x0364, 0x0365, 0x0366, 0x0367, 0x0368, 0x0369,
        0x036A, 0x036B, 0x036C, 0x036D, 0x036E, 0x036F, 0x0483, 0x0484, 0x0485, 0x0486, 0x0487, 0x0592,
        0x0593, 0x0594, 0x0595, 0x0597, 0x0598, 0x0599, 0x059C, 0x059D, 0x059E, 0x059F, 0x05A0, 0x05A1,
        0x05A8, 0x05A9, 0x05AB, 0x05AC, 0x05AF, 0x05C4, 0x0610, 0x0611, 0x0612, 0x0613, 0x0614, 0x0615,
        0x0616, 0x0617, 0x0657, 0x0658, 0x0659, 0x065A, 0x065B, 0x065D, 0x065E, 0x06D6, 0x06D7, 0x06D8,
        0x06D9, 0x06DA, 0x06DB, 0x06DC, 0x06DF, 0x06E0, 0x06E1, 0x06E2, 0x06E4, 0x06E7, 0x06E8, 0x06EB,
        0x06EC, 0x0730, 0x0732, 0x0733, 0x0735, 0x0736, 0x073A, 0x073D, 0x073F, 0x0740, 0x0741, 0x0743,
        0x0745, 0x0747, 0x0749, 0x074A, 0x07EB, 0x07EC, 0x07ED, 0x07EE, 0x07EF, 0x07F0, 0x07F1, 0x07F3,
        0x0816, 0x0817, 0x0818, 0x0819, 0x081B, 0x081C, 0x081D, 0x081E, 0x081F, 0x0820, 0x0821, 0x0822,
        0x0823, 0x0825, 0x0826, 0x0827, 0x0829, 0x082A, 0x082B, 0x082C, 0x082D, 0x0951, 0x0953, 0x0954,
        0x0F82, 0x0F83, 0x0F86, 0x0F87, 0x135D, 0x135E, 0x135F, 0x17DD, 0x193A, 0x1A17, 0x1A75, 0x1A76,
        0x1A77, 0x1A78, 0x1A79, 0x1A7A, 0x1A7B, 0x1A7C, 0x1B6B, 0x1B6D, 0x1B6E, 0x1B6F, 0x1B70, 0x1B71,
        0x1B72, 0x1B73, 0x1CD0, 0x1CD1, 0x1CD2, 0x1CDA, 0x1CDB, 0x1CE0, 0x1DC0, 0x1DC1, 0x1DC3, 0x1DC4,
        0x1DC5, 0x1DC6, 0x1DC7, 0x1DC8, 0x1DC9, 0x1DCB, 0x1DCC, 0x1DD1, 0x1DD2, 0x1DD3, 0x1DD4, 0x1DD5,
        0x1DD6, 0x1DD7, 0x1DD8, 0x1DD9, 0x1DDA, 0x1DDB, 0x1DDC, 0x1DDD, 0x1DDE, 0x1DDF, 0x1DE0, 0x1DE1,
        0x1DE2, 0x1DE3, 0x1DE4, 0x1DE5, 0x1DE6, 0x1DFE, 0x20D0, 0x20D1, 0x20D4, 0x20D5, 0x20D6, 0x20D7,
        0x20DB, 0x20DC, 0x20E1, 0x20E7, 0x20E9, 0x20F0, 0x2CEF, 0x2CF0, 0x2CF1, 0x2DE0, 0x2DE1, 0x2DE2,
        0x2DE3, 0x2DE4, 0x2DE5, 0x2DE6, 0x2DE7, 0x2DE8, 0x2DE9, 0x2DEA, 0x2DEB, 0x2DEC, 0x2DED, 0x2DEE,
        0x2DEF, 0x2DF0, 0x2DF1, 0x2DF2, 0x2DF3, 0x2DF4, 0x2DF5, 0x2DF6, 0x2DF7, 0x2DF8, 0x2DF9, 0x2DFA,
        0x2DFB, 0x2DFC, 0x2DFD, 0x2DFE, 0x2DFF, 0xA66F, 0xA67C, 0xA67D, 0xA6F0, 0xA6F1, 0xA8E0, 0xA8E1,
        0xA8E2, 0xA8E3, 0xA8E4, 0xA8E5, 0xA8E6, 0xA8E7, 0xA8E8, 0xA8E9, 0xA8EA, 0xA8EB, 0xA8EC, 0xA8ED,
        0xA8EE, 0xA8EF, 0xA8F0, 0xA8F1, 0xAAB0, 0xAAB2, 0xAAB3, 0xAAB7, 0xAAB8, 0xAABE, 0xAABF, 0xAAC1,
        0xFE20, 0xFE21, 0xFE22, 0xFE23, 0xFE24, 0xFE25, 0xFE26, 0x10A0F, 0x10A38, 0x1D185, 0x1D186, 0x1D187,
        0x1D188, 0x1D189, 0x1D1AA, 0x1D1AB, 0x1D1AC, 0x1D1AD, 0x1D242, 0x1D243, 0x1D244
    ]

    /// Pictures one process can name: the id's low byte is the colour (1-255 of the 256-colour
    /// palette; 0 would be no id), its high byte a third mark. Colours go as 256-colour indexes
    /// because tmux passes those through as they are, while it maps 24-bit colours down for a
    /// terminal it does not list RGB for (tmux 3.3a listed none for kitty 0.32.2 here).
    static let idCount = 255 * 256

    /// The `n`th id (0 ..< idCount): low byte 1-255, high byte 0-255, the bytes between zero.
    static func id(_ n: Int) -> UInt32 {
        let n = ((n % idCount) + idCount) % idCount
        return UInt32(n / 255) << 24 | UInt32(n % 255 + 1)
    }

    /// One escape sequence inside tmux's passthrough (`ESC P tmux ; ... ESC \`), its ESCs doubled.
    /// tmux drops a passthrough larger than its input buffer: each kitty chunk (4 KB of
    /// payload) goes in one of its own.
    ///
    /// A NUL goes first, which terminals ignore. While photogrid's pane is not the active one,
    /// tmux wraps each passthrough in a synchronized update of its own (it moves the cursor
    /// back to the active pane after it). kitty 0.32 holds such an update's bytes and parses
    /// them when it ends; when one of its reads ended inside the update's first escape
    /// sequence, it parsed them from inside that sequence, and the chunk was lost ("Unrecognized
    /// APC code" in `kitty --dump-commands`): after a split, one to three tiles stayed blank.
    /// With a byte held before the sequence, kitty parses from the update's start.
    static func throughTmux(_ sequence: [UInt8]) -> [UInt8] {
        var out = Array("\u{1B}Ptmux;\u{0}".utf8)
        out.reserveCapacity(sequence.count + 16)
        for byte in sequence {
            out.append(byte)
            if byte == 0x1B { out.append(0x1B) }
        }
        return out + Array("\u{1B}\\".utf8)
    }

    /// The virtual placement of picture `id` over `columns` x `rows` cells, through tmux.
    /// Placement 1, so that placing it again replaces it (the text names no placement, and
    /// kitty would pick any of several).
    static func place(id: UInt32, columns: Int, rows: Int) -> [UInt8] {
        throughTmux(Array("\u{1B}_Ga=p,U=1,i=\(id),p=1,c=\(columns),r=\(rows),q=2\u{1B}\\".utf8))
    }

    /// The text of row `row` of picture `id`, `columns` cells from its left edge. Every cell
    /// names its row, its column and the id's high byte, although the protocol lets a cell take
    /// them from the cell to its left: the focus frame and the badges are written over a
    /// picture's cells, and a cell to the right of one of those would name nothing (the framed
    /// tile was black). Past the last mark (297 columns), cells follow on from their left.
    static func line(id: UInt32, row: Int, columns: Int) -> [UInt8] {
        guard columns > 0, diacritics.indices.contains(row) else { return [] }
        var out = Array("\u{1B}[0;38;5;\(id & 0xFF)m".utf8)
        let high = Int(id >> 24)
        let rowMark = mark(row), highMark = high != 0 ? mark(high) : []
        out.reserveCapacity(out.count + columns * 12 + 8)
        for column in 0..<columns {
            out += character
            if column < diacritics.count { out += rowMark + mark(column) + highMark }
        }
        return out + Array("\u{1B}[0m".utf8)
    }

    /// The marks in UTF-8, made once.
    private static let marks: [[UInt8]] = diacritics.map { Array(String(Unicode.Scalar($0)!).utf8) }

    private static func mark(_ n: Int) -> [UInt8] { marks[n] }
}
