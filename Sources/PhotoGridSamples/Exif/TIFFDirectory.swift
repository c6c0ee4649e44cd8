/// One image file directory (IFD) of a TIFF structure being written.
///
/// Sizes are known before offsets: an entry's value is either inline (4 bytes or less) or in the
/// data area right after the directory, so the builder can lay out every directory first and fill
/// in the pointers between them afterwards.
struct TIFFDirectory {
    /// TIFF field values, by the TIFF type they are written as.
    enum Value {
        case byte([UInt8])
        case ascii(String)
        case short([UInt16])
        case long([UInt32])
        case rational([(numerator: UInt32, denominator: UInt32)])
        case undefined([UInt8])
        case signedRational([(numerator: Int32, denominator: Int32)])

        var type: UInt16 {
            switch self {
            case .byte: 1
            case .ascii: 2
            case .short: 3
            case .long: 4
            case .rational: 5
            case .undefined: 7
            case .signedRational: 10
            }
        }

        var count: Int {
            switch self {
            case .byte(let v), .undefined(let v): v.count
            case .ascii(let s): s.utf8.count + 1          // the count includes the terminating NUL
            case .short(let v): v.count
            case .long(let v): v.count
            case .rational(let v): v.count
            case .signedRational(let v): v.count
            }
        }

        func bytes(_ order: ByteOrder) -> [UInt8] {
            var out: [UInt8] = []
            switch self {
            case .byte(let v), .undefined(let v): out = v
            case .ascii(let s): out = Array(s.utf8) + [0]
            case .short(let v): for n in v { order.append16(n, to: &out) }
            case .long(let v): for n in v { order.append32(n, to: &out) }
            case .rational(let v):
                for r in v { order.append32(r.numerator, to: &out); order.append32(r.denominator, to: &out) }
            case .signedRational(let v):
                for r in v { order.append32(UInt32(bitPattern: r.numerator), to: &out); order.append32(UInt32(bitPattern: r.denominator), to: &out) }
            }
            return out
        }
    }

    private(set) var entries: [(tag: UInt16, value: Value)] = []

    /// Adds or replaces a tag; entries are kept in ascending tag order, as TIFF requires.
    mutating func set(_ tag: UInt16, _ value: Value) {
        entries.removeAll { $0.tag == tag }
        let index = entries.firstIndex { $0.tag > tag } ?? entries.count
        entries.insert((tag, value), at: index)
    }

    /// The directory, its next-IFD pointer and its out-of-line values, each padded to an even length
    /// so that every value starts on a word boundary.
    func byteSize(_ order: ByteOrder) -> Int {
        var size = 2 + entries.count * 12 + 4
        for entry in entries {
            let n = entry.value.bytes(order).count
            if n > 4 { size += n + (n & 1) }
        }
        return size
    }

    /// The directory as it lies at `offset` from the start of the TIFF data.
    func encoded(at offset: Int, next: Int, _ order: ByteOrder) -> [UInt8] {
        var out: [UInt8] = []
        var data: [UInt8] = []
        let dataStart = offset + 2 + entries.count * 12 + 4
        order.append16(UInt16(entries.count), to: &out)
        for entry in entries {
            let bytes = entry.value.bytes(order)
            order.append16(entry.tag, to: &out)
            order.append16(entry.value.type, to: &out)
            order.append32(UInt32(entry.value.count), to: &out)
            if bytes.count <= 4 {
                // Inline values are left-justified in the 4-byte field whatever the byte order.
                out += bytes + [UInt8](repeating: 0, count: 4 - bytes.count)
            } else {
                order.append32(UInt32(dataStart + data.count), to: &out)
                data += bytes
                if bytes.count & 1 == 1 { data.append(0) }
            }
        }
        order.append32(UInt32(next), to: &out)
        return out + data
    }
}

/// How multi-byte numbers are written: "II" little-endian or "MM" big-endian.
struct ByteOrder {
    let bigEndian: Bool

    /// The first four bytes of a TIFF header: the order mark and the magic number 42.
    var mark: [UInt8] { bigEndian ? [0x4D, 0x4D, 0, 42] : [0x49, 0x49, 42, 0] }

    func append16(_ value: UInt16, to out: inout [UInt8]) {
        let hi = UInt8(value >> 8), lo = UInt8(value & 0xFF)
        out += bigEndian ? [hi, lo] : [lo, hi]
    }

    func append32(_ value: UInt32, to out: inout [UInt8]) {
        let bytes = [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
        out += bigEndian ? bytes : bytes.reversed()
    }
}
