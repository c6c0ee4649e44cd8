/// Writes the IPTC APP13 segment of a sample photo: "Photoshop 3.0\0", then one 8BIM image
/// resource (0x0404, IPTC-NAA) holding IIM datasets with a caption (record 2, dataset 120).
///
/// The datasets are the ones Photoshop and exiftool write around a caption: the record versions
/// (1:00 and 2:00) and, for UTF-8 text, the coded character set (1:90, ESC % G) that tells
/// readers so. Without that marker readers take IIM text for Latin-1.
package enum IPTCBuilder {
    /// How the caption's text is encoded.
    package enum Encoding: Sendable, Equatable {
        /// UTF-8, declared in dataset 1:90.
        case utf8
        /// ISO 8859-1, undeclared, as older software writes it; characters past U+00FF become "?".
        case latin1
    }

    /// The identifier that starts a Photoshop APP13 payload, NUL included.
    package static let identifier: [UInt8] = Array("Photoshop 3.0".utf8) + [0]

    /// The whole APP13 payload.
    package static func app13(caption: String, encoding: Encoding = .utf8) -> [UInt8] {
        app13(iim: iim(caption: caption, encoding: encoding))
    }

    /// An APP13 payload around IIM data of any content (for tests that need odd datasets).
    package static func app13(iim: [UInt8]) -> [UInt8] {
        identifier + resource(id: 0x0404, data: iim)
    }

    /// The IIM datasets alone, as `IPTCReader.caption` takes them.
    package static func iim(caption: String, encoding: Encoding = .utf8) -> [UInt8] {
        var out = dataset(record: 1, number: 0, [0, 4])
        let text: [UInt8]
        switch encoding {
        case .utf8:
            out += dataset(record: 1, number: 90, [0x1B, 0x25, 0x47])
            text = Array(caption.utf8)
        case .latin1:
            text = caption.unicodeScalars.map { $0.value <= 0xFF ? UInt8($0.value) : UInt8(ascii: "?") }
        }
        out += dataset(record: 2, number: 0, [0, 4])
        out += dataset(record: 2, number: 120, text)
        return out
    }

    /// One dataset: the 0x1C marker, the record and dataset numbers, the length and the value.
    /// Values of 32 KB and more take the extended form: a length of 0x8004, then 4 length bytes.
    package static func dataset(record: UInt8, number: UInt8, _ value: [UInt8]) -> [UInt8] {
        var out: [UInt8] = [0x1C, record, number]
        if value.count < 0x8000 {
            out += [UInt8(value.count >> 8), UInt8(value.count & 0xFF)]
        } else {
            out += [0x80, 0x04] + bigEndian32(UInt32(value.count))
        }
        return out + value
    }

    /// A Photoshop image resource: "8BIM", the id, a Pascal name padded to an even length, the
    /// data's size, and the data padded to an even length.
    package static func resource(id: UInt16, name: String = "", data: [UInt8]) -> [UInt8] {
        let nameBytes = Array(name.utf8.prefix(255))
        var out = Array("8BIM".utf8) + [UInt8(id >> 8), UInt8(id & 0xFF)]
        out += [UInt8(nameBytes.count)] + nameBytes
        if (1 + nameBytes.count) & 1 == 1 { out.append(0) }
        out += bigEndian32(UInt32(data.count)) + data
        if data.count & 1 == 1 { out.append(0) }
        return out
    }

    static func bigEndian32(_ value: UInt32) -> [UInt8] {
        [UInt8(value >> 24), UInt8((value >> 16) & 0xFF), UInt8((value >> 8) & 0xFF), UInt8(value & 0xFF)]
    }
}
