import PhotoGridSystem

/// Baseline and extended sequential files (SOF0, SOF1) at 1/8: a sequential scan carries each
/// block whole, its DC coefficient first and then its AC ones, so the AC codes must be read to
/// find the next block, but their values are never needed: each is passed over with one table
/// lookup (`SkipTable`), where libjpeg decodes, dequantises and stores every one of them. That
/// Huffman reading is most of a camera JPEG's decode at 1/8.
///
/// The picture differs from libjpeg's in one way: libjpeg makes the colour planes of a 4:2:0 or
/// 4:2:2 file at 1/8 through a 2x2 IDCT of each chroma block, so it has a little more colour
/// detail than a block's average; here each chroma block is its average, repeated over the
/// pixels it covers, as in any 4:2:0 picture. The brightness is libjpeg's, and a file without
/// subsampled colour is libjpeg's picture.
extension ProgressiveDC {
    /// What a scan's loop needs of each member, by pointer: a copy of `Component` and the
    /// arrays of tables at every block cost more than the block's bits (`decodeSequential`).
    struct Lane {
        let dc: Codes, ac: Codes, skip: UnsafePointer<UInt16>
        let out: UnsafeMutablePointer<Int32>, details: UnsafeMutablePointer<Int32>?
        let stride: Int, h: Int, v: Int
        var prediction: Int32 = 0
    }

    /// One sequential scan: each block's DC difference as `decodeDC` reads it, then its AC codes
    /// passed over (a `Component.detail` plane's lowest three kept).
    static func decodeSequential(_ start: BitReader, into out: UnsafeMutablePointer<Int32>, details: UnsafeMutablePointer<Int32>?,
                                 members: [Component], dc: [HuffmanTable], ac: [SkipTable], restartInterval: Int,
                                 cancel: CancelFlag?) -> Outcome {
        var bits = start
        let single = members.count == 1
        let across = single ? members[0].blocksWide : members[0].stride / members[0].h
        let down = single ? members[0].blocksHigh : members[0].rows / members[0].v
        var left = restartInterval
        var expected: UInt8 = 0
        // The tables are kept alive to the end of the scan; the lanes point into them.
        defer { withExtendedLifetime((dc, ac)) {} }
        let lanes = UnsafeMutablePointer<Lane>.allocate(capacity: members.count)
        defer { lanes.deallocate() }
        for (k, c) in members.enumerated() {
            lanes[k] = Lane(dc: dc[k].codes, ac: ac[k].codes.codes, skip: UnsafePointer(ac[k].entries), out: out + c.base,
                            details: c.detail ? details.map { $0 + c.detailBase } : nil, stride: c.stride,
                            h: single ? 1 : c.h, v: single ? 1 : c.v)
        }
        let count = members.count
        for row in 0..<down {
            if cancel?.isCancelled == true { return .cancelled }
            for column in 0..<across {
                if restartInterval > 0 {
                    if left == 0 {
                        guard bits.restart(expected) else { return .broken }
                        expected = (expected + 1) & 7
                        for k in 0..<count { lanes[k].prediction = 0 }
                        left = restartInterval
                    }
                    left -= 1
                }
                for k in 0..<count {
                    let lane = lanes + k
                    let (h, v, stride) = (lane.pointee.h, lane.pointee.v, lane.pointee.stride)
                    for y in 0..<v {
                        let first = (row &* v &+ y) &* stride &+ column &* h
                        for x in 0..<h {
                            guard let size = lane.pointee.dc.decode(&bits), size <= 11 else { return .broken }
                            if size > 0 {
                                let raw = bits.take(size)
                                lane.pointee.prediction &+= raw < Int32(1) << Int32(size - 1) ? raw - (Int32(1) << Int32(size)) + 1 : raw
                            }
                            lane.pointee.out[first &+ x] = lane.pointee.prediction
                            var at = 1
                            if let kept = lane.pointee.details {
                                guard let next = keepLowAC(&bits, lane.pointee.ac, into: kept + 3 * (first + x)) else { return .broken }
                                at = next
                            }
                            guard passAC(&bits, lane.pointee.skip, lane.pointee.ac, from: at) else { return .broken }
                        }
                    }
                }
            }
            // A file cut short runs into zeros: said at the row, not after the whole picture.
            if bits.overran { return .broken }
        }
        return bits.overran ? .broken : .ok
    }

    /// A block's 63 AC coefficients passed over: run-length codes until the end of block or the
    /// last coefficient, several at a time where `SkipTable` has them. False for a code the table
    /// lacks.
    @inline(__always)
    static func passAC(_ reader: inout BitReader, _ skip: UnsafePointer<UInt16>, _ codes: Codes, from start: Int) -> Bool {
        // A copy the loop can keep in registers: through `inout` each step's bits went to memory
        // and back, which halved the speed.
        var bits = reader
        defer { reader = bits }
        var k = start
        if k >= 64 { return true }
        while true {
            bits.refill()
            let entry = Int(skip[Int(truncatingIfNeeded: bits.peek(SkipTable.bits))])
            let advance = (entry &>> 4) & 127
            if entry & SkipTable.endsBlock != 0 {
                // The block's end, unless the block filled up before it: then those bits are the
                // next block's, and the codes are taken one at a time below.
                if k &+ advance < 64 {
                    bits.skip(entry & 15)
                    return true
                }
            } else if entry != 0, k &+ advance <= 64 {
                bits.skip(entry & 15)
                k &+= advance
                if k == 64 { return true }
                continue
            }
            // A code longer than the table's bits or one whose value runs past them, or the
            // block's last coefficients.
            guard let symbol = codes.decode(&bits) else { return false }
            let run = symbol >> 4, size = symbol & 15
            if size == 0 {
                guard run == 15 else { return true }
                k += 16
            } else {
                bits.refill()
                bits.skip(size)
                k += run + 1
            }
            // Past the end only in a broken file, which libjpeg reads on in the same way.
            if k >= 64 { return true }
        }
    }

    /// A `Component.detail` block's first AC coefficients, one code at a time, until the zigzag
    /// position passes 4: the values at 1, 2 and 4 into `low` (zero where the run passes them).
    /// Where the rest begins (64 at the block's end), or nil for a code the table lacks.
    @inline(__always)
    static func keepLowAC(_ bits: inout BitReader, _ codes: Codes, into low: UnsafeMutablePointer<Int32>) -> Int? {
        (low[0], low[1], low[2]) = (0, 0, 0)
        var k = 1
        while k <= 4 {
            guard let symbol = codes.decode(&bits) else { return nil }
            let run = symbol >> 4, size = symbol & 15
            if size == 0 {
                guard run == 15 else { return 64 }
                k += 16
                continue
            }
            k += run
            let raw = bits.take(size)
            let value = raw < Int32(1) << Int32(size - 1) ? raw - (Int32(1) << Int32(size)) + 1 : raw
            switch k {
            case 1: low[0] = value
            case 2: low[1] = value
            case 4: low[2] = value
            default: break
            }
            k += 1
        }
        return k
    }

    /// An AC Huffman table for passing coefficients over: for each 12-bit prefix of the bits, the
    /// whole coefficients it holds (each a code and its value's bits): how many bits they take,
    /// how far they move along the block (each its run of zeros and itself, 16 for a run of
    /// sixteen zeros), and whether the block's end code follows them. 0 where the first code and
    /// its value do not fit. At 4-7 bits a coefficient, two or three go at a lookup.
    final class SkipTable {
        static let bits = 13
        static let endsBlock = 0x800
        let codes: HuffmanTable
        let entries: UnsafeMutablePointer<UInt16>

        init(_ codes: HuffmanTable) {
            self.codes = codes
            entries = .allocate(capacity: 1 << Self.bits)
            for index in 0..<(1 << Self.bits) {
                var used = 0, advance = 0, ends = false
                while used < Self.bits {
                    // The next nine bits after those used, zeros past the prefix's end.
                    let found = Int(codes.codes.fast[((index << used) & ((1 << Self.bits) - 1)) >> (Self.bits - 9)])
                    let length = found >> 8, symbol = found & 0xFF
                    let run = symbol >> 4, size = symbol & 15
                    guard found != 0, length + size <= Self.bits - used else { break }
                    if size == 0 && run != 15 {
                        used += length
                        ends = true
                        break
                    }
                    let step = size == 0 ? 16 : run + 1
                    guard advance + step <= 63 else { break }
                    advance += step
                    used += length + size
                }
                entries[index] = used == 0 ? 0 : UInt16(used | advance << 4 | (ends ? Self.endsBlock : 0))
            }
        }

        deinit { entries.deallocate() }
    }
}

extension ProgressiveDC.BitReader {
    /// At least 32 bits in hand, eight bytes at a time where none of them is 0xFF (nearly
    /// always); otherwise byte by byte (`fill`), which takes the stuffed zeros out and stops at
    /// a marker.
    @inline(__always)
    mutating func refill() {
        guard count < 32 else { return }
        if at + 8 <= end {
            let word = UInt64(bigEndian: UnsafeRawPointer(data + at).loadUnaligned(as: UInt64.self))
            let flipped = ~word
            // No byte of `flipped` is zero: no byte of `word` is 0xFF.
            if (flipped &- 0x0101_0101_0101_0101) & ~flipped & 0x8080_8080_8080_8080 == 0 {
                let taken = (64 &- count) &>> 3
                buffer |= (word &>> UInt64(64 &- 8 &* taken)) &<< UInt64(64 &- count &- 8 &* taken)
                at &+= taken
                count &+= 8 &* taken
                return
            }
        }
        fill()
    }
}
