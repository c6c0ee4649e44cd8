import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A JPEG at an eighth of its size from its DC coefficients: each 8x8 block is one pixel, its
/// average, which is the block's DC coefficient. Two kinds of file:
///
/// - Progressive (SOF2): the first DC scans alone. Why not libjpeg, which photogrid asks for the
///   same (`partialScans` at 1/8): reading a progressive file scan by scan, libjpeg keeps every
///   coefficient of the picture, zeroed before use (54 MB for an 18 MP photo), even when it reads
///   only the first scans. Over real-photos' first screen that memory's page faults were a fifth
///   of the CPU, and the gate let only one such decode run at a time. Here a block is one number.
/// - Sequential (SOF0, SOF1; baseline, as cameras write): every block's DC coefficient, its AC
///   ones passed over without being decoded (`JPEGEighth+Sequential`), which libjpeg decodes and
///   stores only for its 1x1 IDCT to ignore them.
///
/// The pixels are libjpeg's at 1/8 with its fast settings: a block's value is its DC coefficient
/// dequantised and divided by 8 (rounded), plus 128; smaller colour planes repeated over the
/// pixels they cover, then JFIF's YCbCr to RGB in 16-bit fixed point. One exception: a
/// sequential file's 4:2:0 colour, which libjpeg draws 2x2 a block, is drawn 2x2 from its three
/// lowest AC coefficients (`Parser.detailedPlane`), near libjpeg's but not the same.
///
/// What it reads: 8-bit Huffman frames, grey or three components (YCbCr; RGB where an Adobe
/// marker or the components' names say so), sampling factors that divide the largest, scans
/// interleaved or not, restart intervals. Anything else, and any file that breaks a rule or
/// ends before the scans it needs do, is left to libjpeg: `nil`.
package enum JPEGEighth {
    /// The picture when the file is one this reads, else nil. `prefix(n)` gives the file's first
    /// `n` bytes or more (all there is when it is shorter); it is asked for more as the scans run on.
    package static func decode(maxPixels: Int, cancel: CancelFlag?, prefix: (Int) -> [UInt8]?) throws(DecodeError) -> (image: RGBImage, scans: Int)? {
        let outcome = withoutActuallyEscaping(prefix) { prefix in
            var parser = Parser(prefix: prefix)
            return Result { () throws(DecodeError) in try parser.run(maxPixels: maxPixels, cancel: cancel) }
        }
        return try outcome.get()
    }

    struct Component {
        let id: UInt8
        let h: Int, v: Int, quantTable: Int
        /// Blocks a row and rows of blocks as stored: whole MCUs of an interleaved scan.
        var stride = 0, rows = 0
        /// The blocks the component has itself (what a scan of it alone covers).
        var blocksWide = 0, blocksHigh = 0
        /// Where its blocks start in `Parser.coefficients`.
        var base = 0
        var hasDC = false
        /// The dequantising factor of its DC coefficient, taken when its first scan starts.
        var quant = 0
        /// A colour plane of a sequential file at half the largest sampling both ways (4:2:0),
        /// which libjpeg draws 2x2 a block at 1/8: its three lowest AC coefficients are kept too
        /// (`Parser.details`, from `detailBase`, three a block), with their factors.
        var detail = false
        var detailBase = 0
        var quantLow = (0, 0, 0)
    }

    struct Parser {
        var bytes: [UInt8] = []
        var ended = false
        let prefix: (Int) -> [UInt8]?

        var components: [Component] = []
        /// Every component's DC coefficients, one after another.
        var coefficients: [Int32] = []
        var width = 0, height = 0, hMax = 1, vMax = 1
        var dcTables: [HuffmanTable?] = [nil, nil, nil, nil]
        /// The AC tables, and for those a sequential scan uses, their `SkipTable`s, made when a
        /// scan first needs them (a progressive file's AC scans are never read here).
        var acTables: [HuffmanTable?] = [nil, nil, nil, nil]
        var skipTables: [SkipTable?] = [nil, nil, nil, nil]
        /// Baseline or extended sequential (SOF0, SOF1) rather than progressive (SOF2).
        var sequential = false
        var quantDC: [Int?] = [nil, nil, nil, nil]
        /// Each table's factors for the AC coefficients 1, 2 and 4 in zigzag order (the lowest
        /// across, down, and both).
        var quantLow: [(Int, Int, Int)?] = [nil, nil, nil, nil]
        /// The kept AC coefficients of `Component.detail` planes.
        var details: [Int32] = []
        var restartInterval = 0
        var adobeTransform: Int?
        var sawJFIF = false
        var scans = 0

        init(prefix: @escaping (Int) -> [UInt8]?) {
            self.prefix = prefix
            // A DC scan of an 18 MP photo is about 250 KB; the headers before it are rarely more than 64 KB.
            grow(to: 256 * 1024)
        }

        /// Reads on until `count` bytes are in, doubling; false when the file is shorter.
        mutating func have(_ count: Int) -> Bool {
            while bytes.count < count && !ended { grow(to: max(count, bytes.count * 2)) }
            return bytes.count >= count
        }

        mutating func grow(to count: Int) {
            guard let more = prefix(count), more.count > bytes.count else { ended = true; return }
            bytes = more
            if more.count < count { ended = true }
        }

        func word(_ at: Int) -> Int { Int(bytes[at]) << 8 | Int(bytes[at + 1]) }

        mutating func run(maxPixels: Int, cancel: CancelFlag?) throws(DecodeError) -> (image: RGBImage, scans: Int)? {
            guard have(2), bytes[0] == 0xFF, bytes[1] == 0xD8 else { return nil }
            var at = 2
            while true {
                guard have(at + 2), bytes[at] == 0xFF else { return nil }
                var marker = bytes[at + 1]
                // Fill bytes before a marker.
                while marker == 0xFF {
                    at += 1
                    guard have(at + 2) else { return nil }
                    marker = bytes[at + 1]
                }
                at += 2
                switch marker {
                case 0x01, 0xD0...0xD7: continue        // no segment
                case 0xD8, 0xD9: return nil             // a second start, or the end before the DC scans
                default: break
                }
                guard have(at + 2) else { return nil }
                let length = word(at)
                guard length >= 2, have(at + length) else { return nil }
                let body = at + 2, end = at + length
                switch marker {
                case 0xC0, 0xC1, 0xC2:
                    sequential = marker != 0xC2
                    guard components.isEmpty, frame(body, end, maxPixels: maxPixels) else { return nil }
                case 0xC3, 0xC5...0xC7, 0xC8...0xCB, 0xCC, 0xCD...0xCF: return nil
                case 0xC4: guard huffmanTables(body, end) else { return nil }
                case 0xDB: guard quantTables(body, end) else { return nil }
                case 0xDD:
                    guard length == 4 else { return nil }
                    restartInterval = word(body)
                case 0xE0:
                    if end - body >= 5, Array(bytes[body..<(body + 5)]) == Array("JFIF\0".utf8) { sawJFIF = true }
                case 0xEE:
                    if end - body >= 12, Array(bytes[body..<(body + 5)]) == Array("Adobe".utf8) { adobeTransform = Int(bytes[body + 11]) }
                case 0xDA:
                    guard !components.isEmpty, let next = try scan(body, end, cancel: cancel) else { return nil }
                    scans += 1
                    if components.allSatisfy(\.hasDC) { return (picture(), scans) }
                    at = next
                    continue
                default: break
                }
                at = end
            }
        }

        /// SOF0, SOF1 or SOF2: the size and the components; for a sequential frame, which planes
        /// keep their lowest AC coefficients (`Component.detail`).
        mutating func frame(_ body: Int, _ end: Int, maxPixels: Int) -> Bool {
            guard end - body >= 6, bytes[body] == 8 else { return false }
            height = word(body + 1)
            width = word(body + 3)
            let count = Int(bytes[body + 5])
            guard width > 0, height > 0, width * height <= maxPixels, count == 1 || count == 3, end - body == 6 + 3 * count else { return false }
            for k in 0..<count {
                let p = body + 6 + 3 * k
                let h = Int(bytes[p + 1] >> 4), v = Int(bytes[p + 1] & 15), table = Int(bytes[p + 2])
                guard (1...4).contains(h), (1...4).contains(v), table < 4, !components.contains(where: { $0.id == bytes[p] }) else { return false }
                components.append(Component(id: bytes[p], h: h, v: v, quantTable: table))
            }
            hMax = components.map(\.h).max()!
            vMax = components.map(\.v).max()!
            // Planes that do not divide the largest are not repeated whole: libjpeg refuses them too.
            guard components.allSatisfy({ hMax % $0.h == 0 && vMax % $0.v == 0 }) else { return false }
            let mcusAcross = (width + 8 * hMax - 1) / (8 * hMax), mcusDown = (height + 8 * vMax - 1) / (8 * vMax)
            var total = 0
            for k in components.indices {
                let c = components[k]
                components[k].stride = mcusAcross * c.h
                components[k].rows = mcusDown * c.v
                components[k].blocksWide = ((width * c.h + hMax - 1) / hMax + 7) / 8
                components[k].blocksHigh = ((height * c.v + vMax - 1) / vMax + 7) / 8
                components[k].base = total
                total += components[k].stride * components[k].rows
            }
            coefficients = [Int32](repeating: 0, count: total)
            if sequential {
                var kept = 0
                for k in components.indices {
                    let (across, down) = (hMax / components[k].h, vMax / components[k].v)
                    // libjpeg draws a plane at 1/8 with an IDCT of 2, 4 or 8 a side where its
                    // sampling is half, a quarter or an eighth of the largest both ways; 2 is
                    // drawn here, 4 and 8 (no camera writes them) are left to libjpeg.
                    guard across == 1 || down == 1 || (across == 2 && down == 2) else { return false }
                    components[k].detail = across == 2 && down == 2
                    guard components[k].detail else { continue }
                    components[k].detailBase = kept
                    kept += 3 * components[k].stride * components[k].rows
                }
                details = [Int32](repeating: 0, count: kept)
            }
            return true
        }

        /// DHT: the DC and AC tables; a table given again replaces the one before.
        mutating func huffmanTables(_ body: Int, _ end: Int) -> Bool {
            var p = body
            while p < end {
                guard end - p >= 17 else { return false }
                let kind = bytes[p] >> 4, slot = Int(bytes[p] & 15)
                guard kind <= 1, slot < 4 else { return false }
                let counts = (0..<16).map { Int(bytes[p + 1 + $0]) }
                let total = counts.reduce(0, +)
                guard total <= 256, end - p >= 17 + total else { return false }
                let symbols = Array(bytes[(p + 17)..<(p + 17 + total)])
                if kind == 0 {
                    guard let table = HuffmanTable(counts: counts, symbols: symbols) else { return false }
                    dcTables[slot] = table
                } else {
                    // A broken AC table matters only to a scan that uses it (as in libjpeg).
                    acTables[slot] = HuffmanTable(counts: counts, symbols: symbols)
                    skipTables[slot] = nil
                }
                p += 17 + total
            }
            return true
        }

        /// DQT: the first (DC) entry of each table, and the three `quantLow` ones.
        mutating func quantTables(_ body: Int, _ end: Int) -> Bool {
            var p = body
            while p < end {
                let precision = Int(bytes[p] >> 4), slot = Int(bytes[p] & 15)
                guard precision <= 1, slot < 4, end - p >= 1 + 64 * (precision + 1) else { return false }
                let entries = (0..<5).map { precision == 0 ? Int(bytes[p + 1 + $0]) : word(p + 1 + 2 * $0) }
                quantDC[slot] = entries[0]
                quantLow[slot] = (entries[1], entries[2], entries[4])
                p += 1 + 64 * (precision + 1)
            }
            return true
        }

        /// SOS and its entropy-coded data: a DC scan decoded, any other passed over. The offset
        /// after the data, nil where the scan breaks a rule or the file ends inside it.
        mutating func scan(_ body: Int, _ end: Int, cancel: CancelFlag?) throws(DecodeError) -> Int? {
            guard end > body else { return nil }
            let count = Int(bytes[body])
            guard count >= 1, count <= components.count, end - body == 4 + 2 * count else { return nil }
            var members: [Int] = []
            var tables: [Int] = []
            for k in 0..<count {
                guard let index = components.firstIndex(where: { $0.id == bytes[body + 1 + 2 * k] }), !members.contains(index) else { return nil }
                members.append(index)
                tables.append(Int(bytes[body + 2 + 2 * k] >> 4))
            }
            let p = body + 1 + 2 * count
            let (start, stop, high, low) = (Int(bytes[p]), Int(bytes[p + 1]), Int(bytes[p + 2] >> 4), Int(bytes[p + 2] & 15))
            if sequential {
                return try sequentialScan(from: end, members: members, tables: tables, acTables: (0..<count).map { Int(bytes[body + 2 + 2 * $0] & 15) },
                                          spectrum: (start, stop, high, low), cancel: cancel)
            }
            // Where the data ends: at the first marker that is not a restart.
            guard let dataEnd = entropyEnd(from: end) else { return nil }
            guard start == 0, high == 0 else {
                // An AC scan, or a DC refinement: nothing a block's first DC needs.
                guard start > 0 || stop == 0 else { return nil }
                return dataEnd
            }
            guard stop == 0, low <= 13 else { return nil }
            for (k, index) in members.enumerated() {
                guard !components[index].hasDC, tables[k] < 4, dcTables[tables[k]] != nil,
                      let quant = quantDC[components[index].quantTable] else { return nil }
                components[index].quant = quant
            }
            let layout = members.map { components[$0] }
            let restarts = restartInterval
            let decoded = bytes.withUnsafeBufferPointer { data in
                coefficients.withUnsafeMutableBufferPointer { out in
                    JPEGEighth.decodeDC(BitReader(data: data.baseAddress!, at: end, end: dataEnd), into: out.baseAddress!, members: layout,
                                           tables: tables.map { dcTables[$0]! }, shift: low, restartInterval: restarts, cancel: cancel)
                }
            }
            return try finished(decoded, members: members, dataEnd: dataEnd)
        }

        /// A sequential scan: every coefficient of its components' blocks, of which the DC ones
        /// are kept and the AC ones passed over. Read where the whole file is in hand and the scan
        /// holds every component (nearly every file) without looking for its end first: the bits
        /// stop at the first marker, and a scan that runs past one is broken.
        mutating func sequentialScan(from end: Int, members: [Int], tables: [Int], acTables: [Int],
                                     spectrum: (Int, Int, Int, Int), cancel: CancelFlag?) throws(DecodeError) -> Int? {
            guard spectrum == (0, 63, 0, 0) else { return nil }
            var dc: [HuffmanTable] = [], ac: [SkipTable] = []
            for (k, index) in members.enumerated() {
                guard !components[index].hasDC, tables[k] < 4, acTables[k] < 4, let dcTable = dcTables[tables[k]],
                      let acTable = self.acTables[acTables[k]], let quant = quantDC[components[index].quantTable] else { return nil }
                components[index].quant = quant
                if components[index].detail {
                    guard let low = quantLow[components[index].quantTable] else { return nil }
                    components[index].quantLow = low
                }
                let skip = skipTables[acTables[k]] ?? SkipTable(acTable)
                skipTables[acTables[k]] = skip
                dc.append(dcTable)
                ac.append(skip)
            }
            // The scan is most of the file: all of it, at once where the caller has it.
            while !ended { grow(to: bytes.count * 2) }
            let dataEnd: Int
            if members.count == components.count {
                dataEnd = bytes.count
            } else {
                guard let found = entropyEnd(from: end) else { return nil }
                dataEnd = found
            }
            let layout = members.map { components[$0] }
            let restarts = restartInterval
            let decoded = bytes.withUnsafeBufferPointer { data in
                coefficients.withUnsafeMutableBufferPointer { out in
                    details.withUnsafeMutableBufferPointer { kept in
                        JPEGEighth.decodeSequential(BitReader(data: data.baseAddress!, at: end, end: dataEnd), into: out.baseAddress!,
                                                       details: kept.baseAddress, members: layout, dc: dc, ac: ac,
                                                       restartInterval: restarts, cancel: cancel)
                    }
                }
            }
            return try finished(decoded, members: members, dataEnd: dataEnd)
        }

        /// After a scan: its members have their DC coefficients, and the next segment is at
        /// `dataEnd`; nil for a broken scan.
        mutating func finished(_ outcome: Outcome, members: [Int], dataEnd: Int) throws(DecodeError) -> Int? {
            switch outcome {
            case .ok: break
            case .broken: return nil
            case .cancelled: throw .cancelled
            }
            for index in members { components[index].hasDC = true }
            return dataEnd
        }

        /// The offset of the first marker other than RSTn at or after `from`, reading on as needed.
        mutating func entropyEnd(from: Int) -> Int? {
            var p = from
            while true {
                guard have(p + 2) else { return nil }
                if let found = JPEGSegments.nextMarker(in: bytes, from: p) { return found }
                p = max(from, bytes.count - 2)
                guard !ended else { return nil }
                guard have(bytes.count + 1) else { return nil }
            }
        }
    }

    enum Outcome { case ok, broken, cancelled }

    /// One DC first scan: each block's difference from the last block of its component,
    /// Huffman-coded, times 2^`shift`, into `out` at each member's blocks.
    static func decodeDC(_ start: BitReader, into out: UnsafeMutablePointer<Int32>, members: [Component], tables: [HuffmanTable],
                         shift: Int, restartInterval: Int, cancel: CancelFlag?) -> Outcome {
        var bits = start
        var predictions = [Int32](repeating: 0, count: members.count)
        let scale = Int32(1) << Int32(shift)
        // A scan of one component goes over its own blocks, one at a time; of several, over whole MCUs.
        let single = members.count == 1
        let across = single ? members[0].blocksWide : members[0].stride / members[0].h
        let down = single ? members[0].blocksHigh : members[0].rows / members[0].v
        var restarts = Restarts(restartInterval)
        for row in 0..<down {
            if cancel?.isCancelled == true { return .cancelled }
            for column in 0..<across {
                switch restarts.beforeMCU(&bits) {
                case .broken: return .broken
                case .restarted: for k in predictions.indices { predictions[k] = 0 }
                case .none: break
                }
                for k in 0..<members.count {
                    let c = members[k], table = tables[k]
                    let (h, v) = single ? (1, 1) : (c.h, c.v)
                    for y in 0..<v {
                        let line = out + c.base + (row * v + y) * c.stride + column * h
                        for x in 0..<h {
                            guard let size = table.decode(&bits), size <= 11 else { return .broken }
                            var difference: Int32 = 0
                            if size > 0 {
                                let raw = bits.take(size)
                                difference = raw < Int32(1) << Int32(size - 1) ? raw - (Int32(1) << Int32(size)) + 1 : raw
                            }
                            predictions[k] &+= difference
                            line[x] = predictions[k] &* scale
                        }
                    }
                }
            }
        }
        return bits.overran ? .broken : .ok
    }

    /// A JPEG Huffman table (ITU T.81 Annex C): codes of up to 9 bits looked up at once, longer
    /// ones by the largest code of each length. It owns the tables that `codes` points into.
    final class HuffmanTable {
        let codes: Codes

        init?(counts: [Int], symbols: [UInt8]) {
            var fast = [UInt16](repeating: 0, count: 512)
            var maxCode = [Int32](repeating: -1, count: 18)
            var offset = [Int32](repeating: 0, count: 17)
            var code: Int32 = 0, k = 0
            for length in 1...16 {
                offset[length] = Int32(k) - code
                for _ in 0..<counts[length - 1] {
                    // More codes than a length has room for, the all-ones code left unused (as libjpeg checks).
                    guard code < (Int32(1) << Int32(length)) - 1 else { return nil }
                    if length <= 9 {
                        let first = Int(code) << (9 - length), last = (Int(code) + 1) << (9 - length)
                        for i in first..<last { fast[i] = UInt16(length) << 8 | UInt16(symbols[k]) }
                    }
                    code += 1
                    k += 1
                }
                if counts[length - 1] > 0 { maxCode[length] = code - 1 }
                code <<= 1
            }
            codes = Codes(fast: Codes.copy(fast), maxCode: Codes.copy(maxCode), offset: Codes.copy(offset),
                          symbols: Codes.copy(symbols), symbolCount: symbols.count)
        }

        deinit {
            codes.fast.deallocate()
            codes.maxCode.deallocate()
            codes.offset.deallocate()
            codes.symbols.deallocate()
        }

        @inline(__always)
        func decode(_ bits: inout BitReader) -> Int? { codes.decode(&bits) }
    }

    /// A Huffman table's lookups by pointer, alive while its `HuffmanTable` is: copied into the
    /// decoding loops without the reference counting a class costs at every block.
    struct Codes {
        /// For each 9-bit prefix: the symbol and its code's length, or 0 for a longer code.
        let fast: UnsafePointer<UInt16>
        let maxCode: UnsafePointer<Int32>
        let offset: UnsafePointer<Int32>
        let symbols: UnsafePointer<UInt8>
        let symbolCount: Int

        static func copy<T>(_ values: [T]) -> UnsafePointer<T> {
            let copy = UnsafeMutablePointer<T>.allocate(capacity: max(1, values.count))
            copy.initialize(from: values, count: values.count)
            return UnsafePointer(copy)
        }

        @inline(__always)
        func decode(_ bits: inout BitReader) -> Int? {
            bits.refill()
            let entry = fast[Int(bits.peek(9))]
            if entry != 0 {
                bits.skip(Int(entry >> 8))
                return Int(entry & 0xFF)
            }
            for length in 10...16 {
                let code = Int32(bits.peek(length))
                if code <= maxCode[length] {
                    bits.skip(length)
                    let k = Int(offset[length] + code)
                    return k >= 0 && k < symbolCount ? Int(symbols[k]) : nil
                }
            }
            return nil
        }
    }

    /// A scan's restart intervals (DRI): before each MCU, whether an interval ends there, and if
    /// so its marker read and checked. The DC predictions start again after one.
    struct Restarts {
        enum Step { case none, restarted, broken }
        let interval: Int
        private var left: Int
        private var expected: UInt8 = 0

        init(_ interval: Int) {
            self.interval = interval
            left = interval
        }

        @inline(__always)
        mutating func beforeMCU(_ bits: inout BitReader) -> Step {
            guard interval > 0 else { return .none }
            var step = Step.none
            if left == 0 {
                guard bits.restart(expected) else { return .broken }
                expected = (expected + 1) & 7
                left = interval
                step = .restarted
            }
            left -= 1
            return step
        }
    }

    /// The entropy-coded bits, most significant first, with the 0x00 after each 0xFF taken out;
    /// past the data (a marker), zeros, and `overran` says whether any were used.
    struct BitReader {
        let data: UnsafePointer<UInt8>
        var at: Int
        let end: Int
        var buffer: UInt64 = 0
        var count = 0
        var padding = 0

        init(data: UnsafePointer<UInt8>, at: Int, end: Int) {
            self.data = data
            self.at = at
            self.end = end
        }

        var overran: Bool { padding * 8 > count }

        @inline(__always)
        mutating func fill() {
            while count <= 56 {
                var byte: UInt64 = 0
                if at < end, data[at] != 0xFF {
                    byte = UInt64(data[at])
                    at += 1
                } else if at + 1 < end, data[at] == 0xFF, data[at + 1] == 0 {
                    byte = 0xFF
                    at += 2
                } else {
                    padding += 1
                }
                buffer |= byte << UInt64(56 - count)
                count += 8
            }
        }

        @inline(__always)
        func peek(_ n: Int) -> UInt64 { buffer &>> UInt64(64 &- n) }

        @inline(__always)
        mutating func skip(_ n: Int) {
            // n is at most 32 (a code and its value), never past what `fill` put in.
            buffer &<<= UInt64(n)
            count &-= n
        }

        @inline(__always)
        mutating func take(_ n: Int) -> Int32 {
            refill()
            let value = Int32(truncatingIfNeeded: peek(n))
            skip(n)
            return value
        }

        /// At a restart: what is left of the last byte is its padding, and the marker RSTn
        /// (`n` = `expected`) comes next; anything else is a broken scan.
        mutating func restart(_ expected: UInt8) -> Bool {
            guard !overran, count - padding * 8 < 8 else { return false }
            (buffer, count, padding) = (0, 0, 0)
            while at + 1 < end, data[at] == 0xFF, data[at + 1] == 0xFF { at += 1 }
            guard at + 1 < end, data[at] == 0xFF, data[at + 1] == 0xD0 + expected else { return false }
            at += 2
            return true
        }
    }
}
