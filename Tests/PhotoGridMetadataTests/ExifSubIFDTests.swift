import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridMetadata
import PhotoGridSamples
import PhotoGridTestFixtures

/// The Exif sub-IFD fields (exposure, lens) against TIFF data written by hand: the generator
/// only writes what is valid, and these are the cases a reader must survive.
@Suite struct ExifSubIFDTests {
    /// A little-endian TIFF: IFD0 with Make "Mak" and a pointer to the Exif IFD at offset 38,
    /// which holds `entries` (or claims `count` of them), then `extra` at `extraOffset(entries)`.
    private func tiff(_ entries: [[UInt8]], count: Int? = nil, exifPointer: UInt32 = 38, extra: [UInt8] = []) -> [UInt8] {
        var out: [UInt8] = [0x49, 0x49, 42, 0, 8, 0, 0, 0, 2, 0]
        out += entry(0x010F, type: 2, count: 4, value: 0x006B_614D)        // "Mak\0", inline
        out += entry(0x8769, type: 4, count: 1, value: exifPointer)
        out += [0, 0, 0, 0]
        let n = count ?? entries.count
        out += [UInt8(n & 0xFF), UInt8(n >> 8)]
        for entry in entries { out += entry }
        out += [0, 0, 0, 0]
        out += extra
        return out
    }

    private func extraOffset(_ entries: Int) -> UInt32 { UInt32(38 + 2 + 12 * entries + 4) }

    private func entry(_ tag: UInt16, type: UInt16, count: UInt32, value: UInt32) -> [UInt8] {
        func le16(_ v: UInt16) -> [UInt8] { [UInt8(v & 0xFF), UInt8(v >> 8)] }
        func le32(_ v: UInt32) -> [UInt8] { [0, 8, 16, 24].map { UInt8((v >> UInt32($0)) & 0xFF) } }
        return le16(tag) + le16(type) + le32(count) + le32(value)
    }

    private func rational(_ n: UInt32, _ d: UInt32) -> [UInt8] {
        [n, d].flatMap { v in [0, 8, 16, 24].map { UInt8((v >> UInt32($0)) & 0xFF) } }
    }

    @Test func handWrittenFieldsReadLikeGeneratedOnes() {
        let entries = [entry(0x829A, type: 5, count: 1, value: extraOffset(3)),
                       entry(0x8827, type: 4, count: 1, value: 3200),                 // a LONG is taken too
                       entry(0x920A, type: 10, count: 1, value: extraOffset(3) + 8)]  // and an SRATIONAL
        let info = ExifInfo.parse(tiff(entries, extra: rational(1, 60) + rational(50, 1)))
        #expect(info.make == "Mak" && info.exposureTime == 1.0 / 60 && info.iso == 3200 && info.focalLength == 50)
    }

    @Test func hostileExifIFDsReadNothingFromThem() {
        let exposure = [entry(0x829A, type: 5, count: 1, value: extraOffset(1))]
        // An IFD claiming 65535 entries: refused whole, IFD0 still read.
        let many = ExifInfo.parse(tiff(exposure, count: 65535, extra: rational(1, 60)))
        #expect(many.make == "Mak" && many.exposureTime == nil)
        // The Exif pointer pointing back at IFD0, and past the end.
        #expect(ExifInfo.parse(tiff(exposure, exifPointer: 8, extra: rational(1, 60))).exposureTime == nil)
        #expect(ExifInfo.parse(tiff(exposure, exifPointer: 0xFFFF_FFF0, extra: rational(1, 60))).make == "Mak")
        // Zero denominators, a negative SRATIONAL, a value offset outside the data, a count too large for it.
        #expect(ExifInfo.parse(tiff(exposure, extra: rational(1, 0))).exposureTime == nil)
        let negative = [entry(0x829D, type: 10, count: 1, value: extraOffset(1))]
        #expect(ExifInfo.parse(tiff(negative, extra: rational(UInt32(bitPattern: -28), 10))).fNumber == nil)
        #expect(ExifInfo.parse(tiff([entry(0x829A, type: 5, count: 1, value: 0xFFFF_FFF0)])).exposureTime == nil)
        #expect(ExifInfo.parse(tiff([entry(0x829A, type: 5, count: 0x7FFF_FFFF, value: extraOffset(1))],
                                    extra: rational(1, 60))).exposureTime == nil)
        #expect(ExifInfo.parse(tiff([entry(0x829A, type: 5, count: 0, value: 0)])).exposureTime == nil)
        // Wrong types: exposure as ASCII, ISO as a RATIONAL, a lens model as a SHORT, an unknown type.
        #expect(ExifInfo.parse(tiff([entry(0x829A, type: 2, count: 4, value: 0x0035_2F31)])).exposureTime == nil)
        #expect(ExifInfo.parse(tiff([entry(0x8827, type: 5, count: 1, value: extraOffset(1))], extra: rational(100, 1))).iso == nil)
        #expect(ExifInfo.parse(tiff([entry(0xA434, type: 3, count: 2, value: 0x4241)])).lensModel == nil)
        #expect(ExifInfo.parse(tiff([entry(0x829A, type: 99, count: 1, value: 0)])).exposureTime == nil)
    }

    @Test(arguments: [false, true])
    func everyTruncationReadsCorrectOrAbsentFields(bigEndian: Bool) {
        let tiff = ExifBuilder.tiff(MetadataFixtures.allFields(bigEndian: bigEndian))
        let full = ExifInfo.parse(tiff)
        #expect(full.exposureTime != nil && full.lensModel != nil)
        func agrees<T: Equatable>(_ part: T?, _ whole: T?) -> Bool { part == nil || part == whole }
        for length in 0..<tiff.count {
            let info = ExifInfo.parse(Array(tiff.prefix(length)))
            #expect(agrees(info.exposureTime, full.exposureTime) && agrees(info.fNumber, full.fNumber), "cut at \(length)")
            #expect(agrees(info.iso, full.iso) && agrees(info.focalLength, full.focalLength), "cut at \(length)")
            #expect(agrees(info.lensMake, full.lensMake) && agrees(info.lensModel, full.lensModel), "cut at \(length)")
            #expect(agrees(info.dateTimeOriginal, full.dateTimeOriginal) && agrees(info.imageDescription, full.imageDescription))
        }
    }
}
