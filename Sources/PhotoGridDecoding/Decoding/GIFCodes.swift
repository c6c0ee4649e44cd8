import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A GIF frame's LZW codes turned back into colour indices, fed the code blocks giflib reads out
/// of the file (`DGifGetCode`). giflib's own decompressor pushes every pixel of a string onto a
/// stack and pops it off again, through a function call a code: two thirds of a GIF's decode.
/// Here a table entry is where its string already is in the output: an entry is the previous
/// code's string and the next index, and the next index is the first of what is written right
/// after it, so the string lies whole in the output from the previous code's start. A code is
/// then a copy from earlier in the output.
struct GIFCodes {
    /// The indices decoded so far, at most `limit` of them.
    private(set) var output: [UInt8]
    private(set) var count = 0
    let limit: Int
    /// The stream's end code was read: no more pixels will come.
    private(set) var ended = false

    private let clear: Int
    private var codeSize: Int, next: Int, previous = -1
    /// Where the previous code's string starts in the output.
    private var previousStart = 0
    private var bits: UInt64 = 0, bitCount = 0
    // For each entry: where its string is in the output, and its length.
    private var start = [Int32](repeating: 0, count: 4096)
    private var length = [UInt16](repeating: 0, count: 4096)

    /// `minimumCodeSize` as the frame's data starts with it (2 to 8 in the standard; 1 from some
    /// writers of two-colour files); nil past that range.
    init?(minimumCodeSize size: Int, limit: Int) {
        guard (1...8).contains(size) else { return nil }
        clear = 1 << size
        codeSize = size + 1
        next = clear + 2
        self.limit = limit
        output = [UInt8](repeating: 0, count: limit)
        for code in 0..<clear { length[code] = 1 }
    }

    /// Decodes what `block` completes. Throws for a code the table does not have yet. The tables
    /// and state are taken once a block, into locals: this loop is most of a GIF's decode.
    mutating func add(_ block: UnsafeBufferPointer<UInt8>) throws(DecodeError) {
        guard !ended, count < limit else { ended = true; return }
        var (bits, bitCount, codeSize, next, previous, count) = (self.bits, self.bitCount, self.codeSize, self.next, self.previous, self.count)
        let (clear, limit) = (self.clear, self.limit)
        var ended = false, damaged = false
        var previousStart = self.previousStart
        output.withUnsafeMutableBufferPointer { out in
        start.withUnsafeMutableBufferPointer { start in
        length.withUnsafeMutableBufferPointer { length in
            let base = out.baseAddress!
            bytes: for byte in block {
                bits |= UInt64(byte) << UInt64(bitCount)
                bitCount += 8
                while bitCount >= codeSize {
                    let code = Int(bits & ((1 << UInt64(codeSize)) - 1))
                    bits >>= UInt64(codeSize)
                    bitCount -= codeSize
                    if code == clear {
                        codeSize = clear.trailingZeroBitCount + 1
                        next = clear + 2
                        previous = -1
                        continue
                    }
                    if code == clear + 1 { ended = true; break bytes }
                    if previous < 0 {
                        // The first code after a clear is a single index.
                        guard code < clear else { damaged = true; break bytes }
                    } else {
                        // Every code below `next` is in the table; `next` is the one this code makes.
                        guard code <= next else { damaged = true; break bytes }
                        if next < 4096 {
                            // The previous string and the index after it: whole in the output
                            // from where the previous string starts, once this code is written.
                            start[next] = Int32(previousStart)
                            length[next] = length[previous] &+ 1
                            next += 1
                            if next == 1 << codeSize, codeSize < 12 { codeSize += 1 }
                        }
                    }
                    let total = Int(length[code]), kept = min(total, limit - count)
                    if code < clear {
                        base[count] = UInt8(truncatingIfNeeded: code)
                    } else {
                        // Earlier in the output, and ending before `count`: except for the code
                        // just made, whose last index is its own first, written by this loop.
                        let from = base + Int(start[code]), to = base + count
                        for i in 0..<kept { to[i] = from[i] }
                    }
                    previousStart = count
                    count += kept
                    previous = code
                    if count >= limit { ended = true; break bytes }
                }
            }
        } } }
        self.previousStart = previousStart
        (self.bits, self.bitCount, self.codeSize, self.next, self.previous, self.count) = (bits, bitCount, codeSize, next, previous, count)
        self.ended = ended
        if damaged { throw .corruptFile(format: "GIF", "LZW code past the table") }
    }
}
