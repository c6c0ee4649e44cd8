import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Lays out a whole frame for `--print`, where the position on screen is not known: half-block
/// frames become plain lines (what file-manager previewers expect), sixel frames move the cursor
/// only relative to where the frame starts.
package enum PrintComposer {
    /// `rows` lines of cells, each op placed at its column, spaces between.
    package static func lines(_ ops: [PaintOp], rows: Int) -> [UInt8] {
        var byRow = [[PaintOp]](repeating: [], count: rows)
        for op in ops where op.row >= 0 && op.row < rows { byRow[op.row].append(op) }
        var out: [UInt8] = []
        out.reserveCapacity(ops.reduce(rows * 8) { $0 + $1.bytes.count + $1.column })
        for row in byRow {
            var column = 0
            for op in row.sorted(by: { $0.column < $1.column }) where op.column >= column {
                out += repeatElement(UInt8(ascii: " "), count: op.column - column)
                out += op.bytes
                column = op.column + op.cells
            }
            out += "\u{1B}[0m\n".utf8
        }
        return out
    }

    /// Makes room for `rows` lines below the cursor, then draws every op relative to the first of
    /// them (DECSC, down, across, draw, DECRC) and leaves the cursor below the frame.
    package static func relative(_ ops: [PaintOp], rows: Int) -> [UInt8] {
        guard rows > 0 else { return [] }
        // Built in one buffer of the right size: a sixel frame is megabytes, and growing it and
        // joining pieces copied it several times over.
        var out: [UInt8] = []
        out.reserveCapacity(rows + 32 + ops.reduce(0) { $0 + $1.bytes.count + 24 })
        out += start(rows: rows)
        for op in ops { append(op, rows: rows, to: &out) }
        out += end(rows: rows)
        return out
    }

    /// A relative frame in pieces, for writing it as its tiles are made: the room below the
    /// cursor (the cursor left on its first line), each op, then the cursor below the frame.
    package static func start(rows: Int) -> [UInt8] {
        guard rows > 0 else { return [] }
        var out = [UInt8](repeating: UInt8(ascii: "\n"), count: rows - 1)
        out.append(UInt8(ascii: "\r"))
        if rows > 1 { out += "\u{1B}[\(rows - 1)A".utf8 }
        return out
    }

    package static func append(_ op: PaintOp, rows: Int, to out: inout [UInt8]) {
        guard op.row >= 0 && op.row < rows else { return }
        out += "\u{1B}7".utf8
        if op.row > 0 { out += "\u{1B}[\(op.row)B".utf8 }
        if op.column > 0 { out += "\u{1B}[\(op.column)C".utf8 }
        out += op.bytes
        out += "\u{1B}[0m\u{1B}8".utf8
    }

    package static func end(rows: Int) -> [UInt8] {
        guard rows > 0 else { return [] }
        return Array(((rows > 1 ? "\u{1B}[\(rows - 1)B" : "") + "\r\n").utf8)
    }
}
