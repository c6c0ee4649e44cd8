import PhotoGridSystem

/// Baseline and extended sequential files (SOF0, SOF1) at 1/8: a sequential scan carries each
/// block whole, its DC coefficient first and then its AC ones, so the AC codes must be read to
/// find the next block, but their values are never needed. They are passed over two or three at
/// a table lookup (`SkipTable`), where libjpeg decodes, dequantises and stores every one of them
/// for its 1x1 IDCT to use none: that Huffman reading is most of a camera JPEG's decode at 1/8.
///
/// The colour of a 4:2:0 file is the one place the picture is not libjpeg's: libjpeg draws each
/// chroma block at 1/8 through a 2x2 IDCT (its coefficients 0, 1, 3, 5 and 7 each way), so the
/// three lowest AC coefficients of those blocks are kept here (`keepLowAC`) and each quarter
/// drawn from them (`Parser.detailedPlane`). 4:2:2 and 4:4:0 colour libjpeg draws from the DC
/// alone, as here; brightness is always libjpeg's.
extension JPEGEighth {
    /// What a scan's loop needs of each member, by pointer: a copy of `Component` and the
    /// arrays of tables at every block cost more than the block's bits (`decodeSequential`).
    struct Lane {
        let dc: Codes, ac: Codes, skip: UnsafePointer<UInt16>, values: UnsafePointer<UInt16>
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
        var restarts = Restarts(restartInterval)
        // The tables are kept alive to the end of the scan; the lanes point into them.
        defer { withExtendedLifetime((dc, ac)) {} }
        let lanes = UnsafeMutablePointer<Lane>.allocate(capacity: members.count)
        defer { lanes.deallocate() }
        for (k, c) in members.enumerated() {
            (lanes + k).initialize(to: Lane(dc: dc[k].codes, ac: ac[k].codes.codes, skip: UnsafePointer(ac[k].entries),
                                            values: UnsafePointer(ac[k].values), out: out + c.base,
                                            details: c.detail ? details.map { $0 + c.detailBase } : nil, stride: c.stride,
                                            h: single ? 1 : c.h, v: single ? 1 : c.v))
        }
        let count = members.count
        for row in 0..<down {
            if cancel?.isCancelled == true { return .cancelled }
            for column in 0..<across {
                switch restarts.beforeMCU(&bits) {
                case .broken: return .broken
                case .restarted: for k in 0..<count { lanes[k].prediction = 0 }
                case .none: break
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
                            // The AC codes, written out here rather than called: `bits` stays in
                            // registers only while no call takes its address (copies go to the
                            // rare calls instead); called, the loop ran no faster than libjpeg.
                            var position = 1
                            let skip = lane.pointee.skip
                            if let kept = lane.pointee.details {
                                // Most colour blocks end at once: their end code alone, from the table.
                                bits.refill()
                                let entry = Int(skip[Int(truncatingIfNeeded: bits.peek(SkipTable.bits))])
                                if entry & SkipTable.endsBlock != 0 && entry & 0x7F0 == 0 {
                                    bits.skip(entry & 15)
                                    continue
                                }
                                // Its lowest coefficients, each code and value from one lookup
                                // where they fit in `SkipTable.valueBits`; else one code at a time.
                                let low = kept + 3 &* (first &+ x), values = lane.pointee.values
                                while position <= 4 {
                                    bits.refill()
                                    let found = Int(values[Int(truncatingIfNeeded: bits.peek(SkipTable.valueBits))])
                                    guard found != 0 else {
                                        var copy = bits
                                        guard let next = keepLowAC(&copy, lane.pointee.ac, into: low, from: position) else { return .broken }
                                        bits = copy
                                        position = next
                                        break
                                    }
                                    let used = found & 15, run = (found &>> 4) & 15, size = found &>> 8
                                    if size == 0 {
                                        bits.skip(used)
                                        position = run == 15 ? position &+ 16 : 64
                                        continue
                                    }
                                    position &+= run
                                    let raw = Int32(truncatingIfNeeded: bits.peek(used)) & (Int32(1) &<< Int32(size) &- 1)
                                    bits.skip(used)
                                    let value = raw < Int32(1) &<< Int32(size &- 1) ? raw &- (Int32(1) &<< Int32(size)) &+ 1 : raw
                                    switch position {
                                    case 1: low[0] = value
                                    case 2: low[1] = value
                                    case 4: low[2] = value
                                    default: break
                                    }
                                    position &+= 1
                                }
                            }
                            while position < 64 {
                                bits.refill()
                                let entry = Int(skip[Int(truncatingIfNeeded: bits.peek(SkipTable.bits))])
                                let advance = (entry &>> 4) & 127
                                if entry & SkipTable.endsBlock != 0 {
                                    // The block's end, unless the block filled up before it: then
                                    // those bits are the next block's, and the codes go one at a time.
                                    if position &+ advance < 64 {
                                        bits.skip(entry & 15)
                                        break
                                    }
                                } else if entry != 0, position &+ advance <= 64 {
                                    bits.skip(entry & 15)
                                    position &+= advance
                                    continue
                                }
                                // A code longer than the table's bits or one whose value runs past
                                // them, or the block's last coefficients: one code.
                                var copy = bits
                                guard let k1 = passOneAC(&copy, lane.pointee.ac, at: position) else { return .broken }
                                bits = copy
                                position = k1
                            }
                        }
                    }
                }
            }
            // A file cut short runs into zeros: said at the row, not after the whole picture.
            if bits.overran { return .broken }
        }
        return bits.overran ? .broken : .ok
    }

    /// One AC code passed over at zigzag position `k`: where the next begins, 64 at the block's
    /// end, or nil for a code the table lacks. (A run past 63 only in a broken file, which libjpeg
    /// reads on in the same way.)
    static func passOneAC(_ bits: inout BitReader, _ codes: Codes, at k: Int) -> Int? {
        guard let symbol = codes.decode(&bits) else { return nil }
        let run = symbol >> 4, size = symbol & 15
        if size == 0 { return run == 15 ? k + 16 : 64 }
        bits.refill()
        bits.skip(size)
        return k + run + 1
    }

    /// A `Component.detail` block's first AC coefficients from zigzag position `start`, one code
    /// at a time, until the position passes 4: the values at 1, 2 and 4 into `low` (left zero
    /// where the run passes them). Where the rest begins (64 at the block's end), or nil for a
    /// code the table lacks. The codes `SkipTable.values` holds are read in the scan's loop.
    @inline(__always)
    static func keepLowAC(_ bits: inout BitReader, _ codes: Codes, into low: UnsafeMutablePointer<Int32>, from start: Int) -> Int? {
        var k = start
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

    /// An AC Huffman table for passing coefficients over: for each 13-bit prefix of the bits, the
    /// whole coefficients it holds (each a code and its value's bits): how many bits they take,
    /// how far they move along the block (each its run of zeros and itself, 16 for a run of
    /// sixteen zeros), and whether the block's end code follows them. 0 where the first code and
    /// its value do not fit. At 4-7 bits a coefficient, two or three go at a lookup.
    final class SkipTable {
        static let bits = 13
        static let endsBlock = 0x800
        let codes: HuffmanTable
        let entries: UnsafeMutablePointer<UInt16>
        /// For each 10-bit prefix, one code and its value's bits: how many bits both take (bits
        /// 0-3), the code's run (4-7) and its value's size (8-11); 0 where they do not fit. For
        /// the coefficients whose values are kept (`keepLowAC`).
        static let valueBits = 10
        let values: UnsafeMutablePointer<UInt16>

        init(_ codes: HuffmanTable) {
            self.codes = codes
            values = .allocate(capacity: 1 << Self.valueBits)
            for index in 0..<(1 << Self.valueBits) {
                let found = Int(codes.codes.fast[index >> (Self.valueBits - 9)])
                let length = found >> 8, run = (found & 0xFF) >> 4, size = found & 15
                values[index] = found != 0 && length + size <= Self.valueBits ? UInt16(length + size | run << 4 | size << 8) : 0
            }
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

        deinit {
            entries.deallocate()
            values.deallocate()
        }
    }
}

extension JPEGEighth.BitReader {
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
