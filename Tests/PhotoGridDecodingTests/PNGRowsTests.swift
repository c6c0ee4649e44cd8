import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
import PhotoGridTestFixtures

/// 8-bit RGB and RGBA PNGs have their rows inflated and unfiltered by photogrid (PNG.readRows),
/// not libspng. The files here are written byte by byte, each row with the filter a case names,
/// so that every filter is read; each must come out as the source and as libspng reads it.
@Suite struct PNGRowsTests {
    static func source(width: Int, height: Int, channels: Int) -> [UInt8] {
        var random = SeededGenerator(seed: 11)
        return (0..<(width * height * channels)).map { i in
            // Smooth parts and noise, so that each filter has work to do; alpha from 0 to 255.
            let x = (i / channels) % width, y = i / channels / width
            if channels == 4 && i % 4 == 3 { return UInt8((x * 255) / max(1, width - 1)) }
            return UInt8(truncatingIfNeeded: x * 5 + y * 3 + Int(random.next() % 24))
        }
    }

    /// A PNG of `pixels`, row `y` filtered with `filter(y)` (0 None ... 4 Paeth).
    static func png(_ pixels: [UInt8], width: Int, height: Int, channels: Int, filter: (Int) -> UInt8) -> [UInt8] {
        let bpp = channels, stride = width * channels
        var stream: [UInt8] = []
        for y in 0..<height {
            let f = filter(y)
            stream.append(f)
            for i in 0..<stride {
                let raw = Int(pixels[y * stride + i])
                let a = i >= bpp ? Int(pixels[y * stride + i - bpp]) : 0
                let b = y > 0 ? Int(pixels[(y - 1) * stride + i]) : 0
                let c = y > 0 && i >= bpp ? Int(pixels[(y - 1) * stride + i - bpp]) : 0
                let predicted: Int
                switch f {
                case 1: predicted = a
                case 2: predicted = b
                case 3: predicted = (a + b) / 2
                case 4:
                    let p = a + b - c, pa = abs(p - a), pb = abs(p - b), pc = abs(p - c)
                    predicted = pa <= pb && pa <= pc ? a : pb <= pc ? b : c
                default: predicted = 0
                }
                stream.append(UInt8(truncatingIfNeeded: raw - predicted))
            }
        }
        func chunk(_ type: String, _ body: [UInt8]) -> [UInt8] {
            let typed = Array(type.utf8) + body
            let crc = typed.withUnsafeBytes { Zlib.crc32($0) }
            return bigEndian(UInt32(body.count)) + typed + bigEndian(crc)
        }
        func bigEndian(_ v: UInt32) -> [UInt8] { [UInt8(v >> 24), UInt8(v >> 16 & 0xFF), UInt8(v >> 8 & 0xFF), UInt8(v & 0xFF)] }
        let ihdr = bigEndian(UInt32(width)) + bigEndian(UInt32(height)) + [8, channels == 4 ? 6 : 2, 0, 0, 0]
        let compressed = Zlib.compress(stream, level: 6)!
        // The image data in two chunks, split unevenly, as writers do.
        let cut = compressed.count / 3
        return [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A] + chunk("IHDR", ihdr)
            + chunk("IDAT", Array(compressed[..<cut])) + chunk("IDAT", Array(compressed[cut...])) + chunk("IEND", [])
    }

    @Test(arguments: [3, 4], [0, 1, 2, 3, 4, 5])
    func everyFilterReadsAsTheSourceAndAsLibspngReadsIt(channels: Int, filter: Int) throws {
        let (width, height) = (37, 23)
        let pixels = Self.source(width: width, height: height, channels: channels)
        // Filter 5 stands for each row its own, in turn.
        let data = Self.png(pixels, width: width, height: height, channels: channels) { UInt8(filter == 5 ? $0 % 5 : filter) }
        let mine = try PNG.decode(data)
        let theirs = try PNG.decodeWhatThereIs(data, libspngsRows: true).image
        #expect(mine == theirs, "filter \(filter), \(channels) channels")
        if channels == 3 { #expect(mine.pixels == pixels) }
        for shrink in [2, 3] {
            #expect(try PNG.decode(data, shrink: shrink) == PNG.decodeWhatThereIs(data, shrink: shrink, libspngsRows: true).image)
        }
    }

    /// Cut in its image data: the rows there are, the rest grey. A damaged CRC or deflate stream,
    /// or an unknown filter, is a corrupt file.
    @Test func cutAndDamagedFiles() throws {
        let (width, height) = (64, 48)
        let pixels = Self.source(width: width, height: height, channels: 3)
        let data = Self.png(pixels, width: width, height: height, channels: 3) { UInt8($0 % 5) }
        let (image, partial) = try PNG.decodeWhatThereIs(Array(data.prefix(data.count * 2 / 3)))
        #expect(partial)
        let rowBytes = width * 3
        #expect(Array(image.pixels[..<rowBytes]) == Array(pixels[..<rowBytes]))
        #expect(image[0, height - 1] == RGB(UInt8(PNG.background.r), UInt8(PNG.background.g), UInt8(PNG.background.b)))

        var crc = data
        crc[data.count - 20] ^= 0x01                 // in the second image data chunk
        #expect(throws: DecodeError.self) { try PNG.decode(crc) }
        #expect((try? PNG.decode(crc)) == nil)

        let unknown = Self.png(pixels, width: width, height: height, channels: 3) { $0 == 5 ? 9 : 0 }
        #expect(throws: DecodeError.corruptFile(format: "PNG", "unknown row filter")) { try PNG.decode(unknown) }
    }
}
