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
        let adler = adler32(UnsafeRawBufferPointer(data))
        // A run takes at least 3 bytes: at most a third of a block's places begin one.
        let runs = UnsafeMutablePointer<UInt32>.allocate(capacity: 2 * (blockSize / 3 + 1))
        defer { runs.deallocate() }
        return [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
            var out = BitWriter(buffer.baseAddress!)
            // CMF 0x78 (deflate, a 32 KB window), FLG 0x01: the check bits, no dictionary.
            out.bytes(0x78, 0x01)
            var start = 0
            repeat {
                let end = min(data.count, start + blockSize)
                block(data, start: start, end: end, final: end == data.count, runs: runs, to: &out)
                start = end
            } while start < data.count
            out.align()
            out.bytes(UInt8(adler >> 24), UInt8((adler >> 16) & 0xFF), UInt8((adler >> 8) & 0xFF), UInt8(adler & 0xFF))
            count = out.position
        }
    }

    /// The Adler-32 of `bytes` (RFC 1950), 16 bytes at a time: zlib's loop takes them one by one,
    /// 0.9% of a kitty sheet's CPU. A lane of `sums` adds the bytes at its place in each 16;
    /// `weighted` adds `sums` before each 16 is added, which counts each byte once for every 16
    /// after it in the stretch. So b gains 16 times `weighted`'s lanes, plus each lane's sum times
    /// the bytes from its place to the end of its 16; every stretch ends before the sums can
    /// overflow (5,536 bytes: zlib's NMAX, 5,552, rounded down to 16s).
    static func adler32(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let modulus: UInt64 = 65521
        var a: UInt64 = 1, b: UInt64 = 0
        var at = 0
        let blocks = bytes.count / 16 * 16
        while at < blocks {
            let end = min(blocks, at + 5536)
            var sums = SIMD16<UInt32>(), weighted = SIMD16<UInt32>()
            var i = at
            while i < end {
                weighted &+= sums
                sums &+= SIMD16<UInt32>(truncatingIfNeeded: bytes.loadUnaligned(fromByteOffset: i, as: SIMD16<UInt8>.self))
                i += 16
            }
            var tail: UInt64 = 0
            for lane in 0..<16 { tail += UInt64(sums[lane]) * UInt64(16 - lane) }
            b = (b + a * UInt64(end - at) + 16 * UInt64(weighted.wrappedSum()) + tail) % modulus
            a = (a + UInt64(sums.wrappedSum())) % modulus
            at = end
        }
        while at < bytes.count {
            a = (a + UInt64(bytes[at])) % modulus
            b = (b + a) % modulus
            at += 1
        }
        return UInt32(b << 16 | a)
    }

    /// One dynamic-code block (BTYPE 10) of `data[start..<end]`: its literal/length code,
    /// described through the code-length code, then its bytes (a run of one byte as the byte and
    /// a repeat of it) and the end of the block. A run may go on from the byte before `start`.
    private static func block(_ data: UnsafeBufferPointer<UInt8>, start: Int, end: Int, final: Bool, runs: UnsafeMutablePointer<UInt32>,
                              to out: inout BitWriter) {
        // First the runs (where each begins, its length) and how often each symbol comes: a
        // literal (0-255), a run's length (257-285, distance 1), the end (256).
        var counts = [Int](repeating: 0, count: 286)
        var found = 0
        counts.withUnsafeMutableBufferPointer { counts in
            runSymbols.withUnsafeBufferPointer { runSymbols in
                let bytes = data.baseAddress!
                // Literals are counted in two tables, by the parity of their place, then added:
                // equal bytes side by side (common in filtered rows) would otherwise wait on each
                // other's count.
                let odd = UnsafeMutablePointer<Int>.allocate(capacity: 256)
                odd.initialize(repeating: 0, count: 256)
                defer { odd.deallocate() }
                let even = counts.baseAddress!
                var i = start
                while i < end {
                    // Eight places at once where none begins a run: a run begins at i where the
                    // byte before, i and the next two are the same (the repeat is of the byte
                    // before, distance 1).
                    if i >= 1 && i &+ 10 <= end {
                        let w0 = UInt64(littleEndian: UnsafeRawPointer(bytes + (i &- 1)).loadUnaligned(as: UInt64.self))
                        let w1 = UInt64(littleEndian: UnsafeRawPointer(bytes + i).loadUnaligned(as: UInt64.self))
                        let w2 = UInt64(littleEndian: UnsafeRawPointer(bytes + (i &+ 1)).loadUnaligned(as: UInt64.self))
                        let w3 = UInt64(littleEndian: UnsafeRawPointer(bytes + (i &+ 2)).loadUnaligned(as: UInt64.self))
                        let x = (w0 ^ w1) | (w1 ^ w2) | (w2 ^ w3)
                        // A zero byte of x: a run begins there. The lowest one found this way is
                        // exact (a borrow only runs upwards from a zero byte).
                        let zeros = (x &- 0x0101_0101_0101_0101) & ~x & 0x8080_8080_8080_8080
                        if zeros == 0 {
                            even[Int(w1 & 0xFF)] &+= 1
                            odd[Int((w1 &>> 8) & 0xFF)] &+= 1
                            even[Int((w1 &>> 16) & 0xFF)] &+= 1
                            odd[Int((w1 &>> 24) & 0xFF)] &+= 1
                            even[Int((w1 &>> 32) & 0xFF)] &+= 1
                            odd[Int((w1 &>> 40) & 0xFF)] &+= 1
                            even[Int((w1 &>> 48) & 0xFF)] &+= 1
                            odd[Int(w1 &>> 56)] &+= 1
                            i &+= 8
                            continue
                        }
                        // The literals before the run; the run itself below.
                        let literals = zeros.trailingZeroBitCount &>> 3
                        var rest = w1
                        for _ in 0..<literals {
                            even[Int(rest & 0xFF)] &+= 1
                            rest &>>= 8
                        }
                        i &+= literals
                    }
                    let byte = bytes[i]
                    if i >= 1, i &+ 2 < end, bytes[i &- 1] == byte, bytes[i &+ 1] == byte, bytes[i &+ 2] == byte {
                        var run = 3
                        while run < 258, i &+ run < end, bytes[i &+ run] == byte { run &+= 1 }
                        runs[found &* 2] = UInt32(i)
                        runs[found &* 2 &+ 1] = UInt32(run)
                        found &+= 1
                        even[Int(runSymbols[run] & 0x1FF)] &+= 1
                        i &+= run
                        continue
                    }
                    even[Int(byte)] &+= 1
                    i &+= 1
                }
                for k in 0..<256 { even[k] &+= odd[k] }
            }
        }
        counts[256] = 1
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
        // Each literal's code and its length in one word; the writer in a local copy (through
        // `inout` its bits went to memory and back at every symbol).
        let coded = (0..<286).map { UInt32(codes[$0]) | UInt32(lengths[$0]) << 16 }
        var writer = out
        coded.withUnsafeBufferPointer { coded in
            let bytes = data.baseAddress!
            var at = start
            for r in 0...found {
                let (runStart, run) = r < found ? (Int(runs[r &* 2]), Int(runs[r &* 2 &+ 1])) : (end, 0)
                writer.literals(bytes + at, count: runStart &- at, codes: coded.baseAddress!)
                if run > 0 {
                    let token = runSymbols[run], code = coded[Int(token & 0x1FF)]
                    writer.put(code & 0xFFFF, Int(code &>> 16))
                    // The run's extra bits, then distance code 0 (distance 1), a zero bit.
                    writer.put(token &>> 13, Int((token &>> 9) & 0xF) &+ 1)
                }
                at = runStart &+ run
            }
            let stop = coded[256]
            writer.put(stop & 0xFFFF, Int(stop &>> 16))
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
            // Sorted as one number each, the count above the symbol: a comparison of pairs in a
            // closure was most of the time a block's code took to make.
            let leaves = counts.indices.filter { counts[$0] > 0 }.map { counts[$0] << 9 | $0 }.sorted().map { $0 & 0x1FF }
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
            // Reversed through a byte table: a loop over the bits was 7% of the deflate's time.
            let wide = UInt32(reversedBytes[Int(value & 0xFF)]) << 8 | UInt32(reversedBytes[Int((value >> 8) & 0xFF)])
            return wide >> (16 - UInt32(length))
        }
    }

    /// Each byte with its bits in the opposite order.
    static let reversedBytes: [UInt8] = (0..<256).map { byte in
        var reversed: UInt8 = 0
        for bit in 0..<8 where byte & (1 << bit) != 0 { reversed |= 1 << (7 - bit) }
        return reversed
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

        /// `count` bytes as literals, each by its code (bits 0-15) and length (from bit 16) in
        /// `codes`, three at a time: the bits held go out as whole bytes in one 8-byte store,
        /// however many there are, rather than 32 at a time behind a branch that the codes'
        /// lengths made a guess (the output has 8 bytes to spare past its end).
        @inline(__always)
        mutating func literals(_ bytes: UnsafePointer<UInt8>, count n: Int, codes: UnsafePointer<UInt32>) {
            guard n > 0 else { return }
            var bits = self.bits, count = self.count, out = base + position
            var i = 0
            while i &+ 2 < n {
                // Held: under 8 bits after a store, under 32 on the way in; codes of at most 15.
                let a = codes[Int(bytes[i])], b = codes[Int(bytes[i &+ 1])], c = codes[Int(bytes[i &+ 2])]
                Self.add(a, to: &bits, &count)
                Self.add(b, to: &bits, &count)
                if count >= 32 { Self.store(&bits, &count, at: &out) }
                Self.add(c, to: &bits, &count)
                Self.store(&bits, &count, at: &out)
                i &+= 3
            }
            while i < n {
                Self.add(codes[Int(bytes[i])], to: &bits, &count)
                Self.store(&bits, &count, at: &out)
                i &+= 1
            }
            position = out - base
            self.bits = bits
            self.count = count
        }

        @inline(__always)
        private static func add(_ code: UInt32, to bits: inout UInt64, _ count: inout Int) {
            bits |= UInt64(code & 0xFFFF) &<< UInt64(count)
            count &+= Int(code &>> 16)
        }

        /// The whole bytes of what is held, out; fewer than 8 bits stay. Never more than 61 bits
        /// held, so never a shift by 64.
        @inline(__always)
        private static func store(_ bits: inout UInt64, _ count: inout Int, at out: inout UnsafeMutablePointer<UInt8>) {
            UnsafeMutableRawPointer(out).storeBytes(of: bits.littleEndian, as: UInt64.self)
            let whole = count &>> 3
            out += whole
            bits &>>= UInt64(whole &* 8)
            count &= 7
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
