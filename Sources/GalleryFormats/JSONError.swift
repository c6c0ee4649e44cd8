/// Why a JSON text was refused, and where: the line and column of the offending byte.
///
/// Lines are counted by "\n" (so "\r\n" counts once, a lone "\r" not at all) and start at 1.
/// Columns start at 1 and count Unicode scalars, not bytes, so they match what an editor shows
/// for text written in any language (a tab counts as one; a byte-order mark is not counted).
package struct JSONError: Error, CustomStringConvertible, Sendable, Equatable {
    package let line: Int
    package let column: Int
    /// The byte offset of the fault from the start of the text.
    package let offset: Int
    package let message: String

    package init(line: Int, column: Int, offset: Int, message: String) {
        self.line = line
        self.column = column
        self.offset = offset
        self.message = message
    }

    /// An error at byte `offset` of `bytes`, its line and column counted as described above.
    init<Bytes: RandomAccessCollection<UInt8>>(at offset: Int, in bytes: Bytes, _ message: String) where Bytes.Index == Int {
        let (line, column) = JSONError.location(of: offset, in: bytes)
        self.init(line: line, column: column, offset: offset, message: message)
    }

    /// `14:9: expected ',' or '}' after an object member`.
    package var description: String { "\(line):\(column): \(message)" }

    /// Linear in `offset`; only ever run once, for the error being reported.
    static func location<Bytes: RandomAccessCollection<UInt8>>(of offset: Int, in bytes: Bytes) -> (line: Int, column: Int)
    where Bytes.Index == Int {
        var line = 1
        var column = 1
        let end = min(offset, bytes.count)
        var i = bytes.count >= 3 && bytes[0] == 0xEF && bytes[1] == 0xBB && bytes[2] == 0xBF ? min(3, end) : 0
        while i < end {
            let byte = bytes[i]
            if byte == UInt8(ascii: "\n") {
                line += 1
                column = 1
            } else if byte & 0xC0 != 0x80 {
                // Continuation bytes are part of the scalar already counted.
                column += 1
            }
            i += 1
        }
        return (line, column)
    }
}

/// How much JSON a parse may take on: a hostile or broken server must not be able to make
/// photogrid allocate without bound or recurse off its stack.
///
/// Memory is bounded by these: besides the text itself, a parse holds 8 bytes per value and
/// per object member name, so at most about `16 × maxValues` bytes of table.
package struct JSONLimits: Sendable, Equatable {
    /// Longer texts are refused before anything is read. At most 256 MB (2^28 bytes), which is
    /// what the value table can address.
    package var maxBytes: Int
    /// Arrays and objects nested deeper than this are refused; the top-level value is level 1.
    package var maxDepth: Int
    /// Values of any kind (member names are not counted).
    package var maxValues: Int

    /// The largest `maxBytes` can be.
    package static let addressableBytes = 1 << 28

    /// 64 MB, 64 levels, 2 million values: far more than any configuration or API document.
    package init(maxBytes: Int = 64 << 20, maxDepth: Int = 64, maxValues: Int = 2_000_000) {
        self.maxBytes = min(maxBytes, JSONLimits.addressableBytes)
        self.maxDepth = maxDepth
        self.maxValues = maxValues
    }
}
