import PhotoGridDecoding

/// A zlib stream (RFC 1950) of deflate blocks (RFC 1951) that hold literals and runs of one byte
/// (a repeat at distance 1), each block of 32 KB with its own Huffman code: kitty's PNG rows.
///
/// Why not a general deflater (libdeflate, zlib): a photo's Sub-filtered rows are small
/// differences that seldom repeat byte for byte, so the search for repeats costs most of a
/// deflater's time and finds little; what shrinks them is a code fitted to how often each
/// difference comes. On real-photos' 18 camera JPEGs (a kitty contact sheet, 6x3 at 400 pixels)
/// this wrote 2.30 MB of image data where libdeflate at level 1 wrote 2.42, with about two
/// thirds of its CPU (docs/decisions.md, "kitty's PNG deflated by photogrid"). Runs are kept
/// because flat areas (a letterboxed tile's bars, a clear sky) are long runs of zeros once
/// filtered: without them the same tiles took 2.78 MB.
enum HuffmanDeflate {
    /// Bytes a block: a code is fitted to each block's counts (a photo's differences change from
    /// sky to ground), and a block's code costs about 150 bytes to describe.
    static let blockSize = 32768

    /// `data` as one zlib stream.
    static func zlib(_ data: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        let blocks = max(1, (data.count + blockSize - 1) / blockSize)
        // At most 15 bits a byte, and a block's description under 320 bytes.
        let capacity = 2 + data.count * 2 + blocks * 320 + 8
        let adler = Zlib.adler32(UnsafeRawBufferPointer(data))
        let tokens = UnsafeMutablePointer<UInt32>.allocate(capacity: blockSize + 1)
        defer { tokens.deallocate() }
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var out = BitWriter(buffer.baseAddress!)
            // CMF 0x78 (deflate, a 32 KB window), FLG 0x01: the check bits, no dictionary.
            out.bytes(0x78, 0x01)
            var start = 0
            repeat {
                let end = min(data.count, start + blockSize)
                block(UnsafeBufferPointer(rebasing: data[start..<end]), before: start > 0 ? data[start - 1] : nil,
                      final: end == data.count, tokens: tokens, to: &out)
                start = end
            } while start < data.count
            out.align()
            out.bytes(UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF))
            count = out.position
        }
    }

    /// One dynamic-code block (BTYPE 10): its literal/length code, described through the
    /// code-length code, then its bytes (a run of one byte as the byte and a repeat of it) and
    /// the end of the block. `before` is the byte before the block, if any: a run may go on from it.
    private static func block(_ data: UnsafeBufferPointer<UInt8>, before: UInt8?, final: Bool, tokens: UnsafeMutablePointer<UInt32>,
                              to out: inout BitWriter) {
        // The block as symbols first, each with its extra bits: a literal (0-255), a run's
        // length (257-285, distance 1), the end (256).
        var counts = [Int](repeating: 0, count: 286)
        var taken = 0
        counts.withUnsafeMutableBufferPointer { counts in
            runSymbols.withUnsafeBufferPointer { runSymbols in
                let bytes = data.baseAddress!, n = data.count
                var i = 0
                var previous = before.map { Int($0) } ?? -1
                while i < n {
                    let byte = Int(bytes[i])
                    // A run (of at least 3) only where the next two bytes are this one too: tested
                    // at once, as a pair of equal bytes is common in filtered rows and a branch on
                    // it alone was mispredicted about as often as taken.
                    let starts = i &+ 2 < n ? (byte ^ previous) | (Int(bytes[i &+ 1]) ^ byte) | (Int(bytes[i &+ 2]) ^ byte) == 0 : byte == previous
                    if starts {
                        var run = 1
                        while run < 258, i + run < n, Int(bytes[i + run]) == byte { run += 1 }
                        if run >= 3 {
                            let length = runSymbols[run]
                            tokens[taken] = length
                            taken &+= 1
                            counts[Int(length & 0x1FF)] &+= 1
                            i &+= run
                            continue
                        }
                    }
                    tokens[taken] = UInt32(byte)
                    taken &+= 1
                    counts[byte] &+= 1
                    previous = byte
                    i &+= 1
                }
            }
        }
        counts[256] = 1
        tokens[taken] = 256
        taken += 1
        let lengths = codeLengths(counts, limit: 15)
        let codes = canonicalCodes(lengths)

        // The lengths of the 286 literal/length codes, then of two distance codes of one bit
        // each: the first (distance 1) is the runs', the second unused but makes the code
        // complete, which every inflater accepts.
        let all = lengths + [1, 1]
        var symbols: [(symbol: Int, extra: Int)] = []
        var i = 0
        while i < all.count {
            var run = 1
            while i + run < all.count, all[i + run] == all[i] { run += 1 }
            if all[i] == 0 && run >= 3 {
                let taken = min(run, 138)
                symbols.append(taken >= 11 ? (18, taken - 11) : (17, taken - 3))
                i += taken
            } else if all[i] != 0 && run >= 4 {
                // The length once, then 16: "the previous length 3-6 times more".
                symbols.append((Int(all[i]), 0))
                let taken = min(run - 1, 6)
                symbols.append((16, taken - 3))
                i += 1 + taken
            } else {
                symbols.append((Int(all[i]), 0))
                i += 1
            }
        }
        var lengthCounts = [Int](repeating: 0, count: 19)
        for s in symbols { lengthCounts[s.symbol] += 1 }
        let lengthLengths = codeLengths(lengthCounts, limit: 7)
        let lengthCodes = canonicalCodes(lengthLengths)
        // The code-length code's lengths go in this order, the trailing zeros left out (at least 4).
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        var described = 19
        while described > 4 && lengthLengths[order[described - 1]] == 0 { described -= 1 }

        out.put(final ? 1 : 0, 1)
        out.put(2, 2)                                     // a dynamic code
        out.put(286 - 257, 5)                             // HLIT: 286 literal/length codes
        out.put(2 - 1, 5)                                 // HDIST: 2 distance codes
        out.put(UInt32(described - 4), 4)                 // HCLEN
        for k in 0..<described { out.put(UInt32(lengthLengths[order[k]]), 3) }
        for s in symbols {
            out.put(lengthCodes[s.symbol], Int(lengthLengths[s.symbol]))
            switch s.symbol {
            case 16: out.put(UInt32(s.extra), 2)
            case 17: out.put(UInt32(s.extra), 3)
            case 18: out.put(UInt32(s.extra), 7)
            default: break
            }
        }
        // Each symbol's code and its length in one word, and the writer in a local copy: through
        // `inout` its bits went to memory and back at every symbol.
        let coded = (0..<286).map { UInt64(codes[$0]) | UInt64(lengths[$0]) << 32 }
        var writer = out
        coded.withUnsafeBufferPointer { coded in
            for token in UnsafeBufferPointer(start: tokens, count: taken) {
                let symbol = Int(token & 0x1FF), code = coded[symbol]
                writer.put(UInt32(truncatingIfNeeded: code), Int(truncatingIfNeeded: code &>> 32))
                if symbol > 256 {
                    // The run's extra bits, then distance code 0 (distance 1), a zero bit.
                    writer.put(token &>> 13, Int((token &>> 9) & 0xF) &+ 1)
                }
            }
        }
        out = writer
    }

    /// For each run length 3-258, its length symbol (bits 0-8), the count of its extra bits
    /// (bits 9-12) and their value (from bit 13): RFC 1951, 3.2.5.
    static let runSymbols: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 259)
        var length = 3
        for symbol in 257...285 {
            let extra = symbol < 265 || symbol == 285 ? 0 : (symbol - 261) / 4
            let span = symbol == 285 ? 1 : 1 << extra
            let first = symbol == 285 ? 258 : length
            for k in 0..<span where first + k <= 258 {
                table[first + k] = UInt32(symbol) | UInt32(extra) << 9 | UInt32(k) << 13
            }
            length = first + span
        }
        return table
    }()

    /// The lengths of a Huffman code for `counts` (0 for a symbol never used), none longer than
    /// `limit`: where the code comes out longer, the counts are halved (rounding up, so a used
    /// symbol stays used) and the code made again, which flattens it. With one symbol used, a
    /// second is given a count, as deflate's code-length code must be complete.
    static func codeLengths(_ counts: [Int], limit: Int) -> [UInt8] {
        var counts = counts
        if counts.filter({ $0 > 0 }).count < 2 {
            for i in counts.indices where counts[i] == 0 { counts[i] = 1; if counts.filter({ $0 > 0 }).count >= 2 { break } }
        }
        while true {
            // Leaves by count (then by symbol, so the code is the same every run), then the
            // inner nodes as they are made: the two lightest of the two queues joined.
            let leaves = counts.indices.filter { counts[$0] > 0 }.sorted { (counts[$0], $0) < (counts[$1], $1) }
            let m = leaves.count
            var weight = [Int](repeating: 0, count: 2 * m - 1), parent = [Int](repeating: 0, count: 2 * m - 1)
            for k in 0..<m { weight[k] = counts[leaves[k]] }
            var leaf = 0, inner = m
            for node in m..<(2 * m - 1) {
                var pair = (0, 0)
                for j in 0..<2 {
                    let taken: Int
                    if leaf < m && (inner >= node || weight[leaf] <= weight[inner]) { taken = leaf; leaf += 1 } else { taken = inner; inner += 1 }
                    if j == 0 { pair.0 = taken } else { pair.1 = taken }
                }
                weight[node] = weight[pair.0] + weight[pair.1]
                parent[pair.0] = node
                parent[pair.1] = node
            }
            // Depths from the root (the last node) down: a node's parent comes after it.
            var depth = [Int](repeating: 0, count: 2 * m - 1)
            for node in stride(from: 2 * m - 3, through: 0, by: -1) { depth[node] = depth[parent[node]] + 1 }
            if (0..<m).allSatisfy({ depth[$0] <= limit }) {
                var lengths = [UInt8](repeating: 0, count: counts.count)
                for k in 0..<m { lengths[leaves[k]] = UInt8(depth[k]) }
                return lengths
            }
            for i in counts.indices where counts[i] > 0 { counts[i] = (counts[i] + 1) / 2 }
        }
    }

    /// Deflate's canonical codes for `lengths` (RFC 1951, 3.2.2), each bit-reversed: deflate
    /// writes a code's first bit first, and `BitWriter` writes from the lowest bit.
    static func canonicalCodes(_ lengths: [UInt8]) -> [UInt32] {
        var perLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { perLength[Int(length)] += 1 }
        var next = [UInt32](repeating: 0, count: 16)
        var code: UInt32 = 0
        for bits in 1..<16 {
            code = (code + UInt32(perLength[bits - 1])) << 1
            next[bits] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            let value = next[Int(length)]
            next[Int(length)] += 1
            var reversed: UInt32 = 0
            for bit in 0..<Int(length) where value & (1 << UInt32(bit)) != 0 { reversed |= 1 << UInt32(Int(length) - 1 - bit) }
            return reversed
        }
    }

    /// Bits written from the lowest up, as deflate packs them, 32 at a time.
    struct BitWriter {
        let base: UnsafeMutablePointer<UInt8>
        private(set) var position = 0
        private var bits: UInt64 = 0
        private var count = 0

        init(_ base: UnsafeMutablePointer<UInt8>) { self.base = base }

        /// The low `length` bits of `value` (at most 32 with what is held).
        @inline(__always)
        mutating func put(_ value: UInt32, _ length: Int) {
            bits |= UInt64(value) &<< UInt64(count)
            count &+= length
            if count >= 32 {
                UnsafeMutableRawPointer(base + position).storeBytes(of: UInt32(truncatingIfNeeded: bits).littleEndian, as: UInt32.self)
                position &+= 4
                bits &>>= 32
                count &-= 32
            }
        }

        /// The bits held, out to the next whole byte.
        mutating func align() {
            while count > 0 {
                base[position] = UInt8(truncatingIfNeeded: bits)
                position += 1
                bits >>= 8
                count -= 8
            }
            count = 0
            bits = 0
        }

        /// Whole bytes, once aligned.
        mutating func bytes(_ values: UInt8...) {
            for value in values { base[position] = value; position += 1 }
        }
    }
}
