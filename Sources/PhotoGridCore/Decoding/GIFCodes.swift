/// A GIF frame's LZW codes turned back into colour indices, fed the code blocks giflib reads out
/// of the file (`DGifGetCode`). giflib's own decompressor pushes every pixel of a string onto a
/// stack and pops it off again, through a function call a code: two thirds of a GIF's decode.
/// Here each string is written straight to its place in the output, walked back from its end
/// (each code knows its length), so a pixel costs two table reads and a store.
struct GIFCodes {
    /// The indices decoded so far, at most `limit` of them.
    private(set) var output: [UInt8]
    private(set) var count = 0
    let limit: Int
    /// The stream's end code was read: no more pixels will come.
    private(set) var ended = false

    private let clear: Int
    private var codeSize: Int, next: Int, previous = -1
    private var bits: UInt64 = 0, bitCount = 0
    // For each code: the code before its last index, its last index, its first, its length.
    private var prefix = [UInt16](repeating: 0, count: 4096)
    private var suffix = [UInt8](repeating: 0, count: 4096)
    private var first = [UInt8](repeating: 0, count: 4096)
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
        for code in 0..<clear {
            suffix[code] = UInt8(truncatingIfNeeded: code)
            first[code] = UInt8(truncatingIfNeeded: code)
            length[code] = 1
        }
    }

    /// Decodes what `block` completes. Throws for a code the table does not have yet. The tables
    /// and state are taken once a block, into locals: this loop is most of a GIF's decode.
    mutating func add(_ block: UnsafeBufferPointer<UInt8>) throws(DecodeError) {
        guard !ended, count < limit else { ended = true; return }
        var (bits, bitCount, codeSize, next, previous, count) = (self.bits, self.bitCount, self.codeSize, self.next, self.previous, self.count)
        let (clear, limit) = (self.clear, self.limit)
        var ended = false, damaged = false
        output.withUnsafeMutableBufferPointer { out in
        prefix.withUnsafeMutableBufferPointer { prefix in
        suffix.withUnsafeMutableBufferPointer { suffix in
        first.withUnsafeMutableBufferPointer { first in
        length.withUnsafeMutableBufferPointer { length in
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
                            // The previous string and the first index of this one (of the previous
                            // one, when this code is the entry being made).
                            prefix[next] = UInt16(previous)
                            suffix[next] = code < next ? first[code] : first[previous]
                            first[next] = first[previous]
                            length[next] = length[previous] &+ 1
                            next += 1
                            if next == 1 << codeSize, codeSize < 12 { codeSize += 1 }
                        }
                    }
                    // The string, written back from its end; indices past `limit` are dropped.
                    let end = count + Int(length[code])
                    var at = end - 1, c = code
                    while at >= limit { c = Int(prefix[c]); at -= 1 }
                    while at > count { out[at] = suffix[c]; c = Int(prefix[c]); at -= 1 }
                    out[count] = suffix[c]
                    count = min(end, limit)
                    previous = code
                    if count >= limit { ended = true; break bytes }
                }
            }
        } } } } }
        (self.bits, self.bitCount, self.codeSize, self.next, self.previous, self.count) = (bits, bitCount, codeSize, next, previous, count)
        self.ended = ended
        if damaged { throw .corruptFile(format: "GIF", "LZW code past the table") }
    }
}
