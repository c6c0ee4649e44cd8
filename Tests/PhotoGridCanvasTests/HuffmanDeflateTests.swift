import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// photogrid's deflater for kitty's PNG rows (`HuffmanDeflate`): what zlib inflates is what went
/// in, on every kind of input a tile can give and some it cannot.
struct HuffmanDeflateTests {
    static func roundTrip(_ bytes: [UInt8], _ name: String) -> [UInt8] {
        let stream = bytes.withUnsafeBufferPointer { HuffmanDeflate.zlib($0) }
        let back = Zlib.decompress(stream, limit: max(1, bytes.count))
        let same = back == bytes
        #expect(same, "\(name): \(bytes.count) bytes in, \(back?.count ?? -1) back")
        return stream
    }

    @Test func zlibInflatesWhatWentIn() {
        var state: UInt64 = 11
        func next() -> UInt64 { state = state &* 6364136223846793005 &+ 1442695040888963407; return state >> 33 }
        _ = Self.roundTrip([], "nothing")
        _ = Self.roundTrip([7], "one byte")
        _ = Self.roundTrip([0, 0, 0], "a run the first byte cannot start")
        // Runs of every length around deflate's 258, and one over three blocks.
        for length in [3, 4, 10, 11, 257, 258, 259, 516, 1000] {
            _ = Self.roundTrip([9] + [UInt8](repeating: 4, count: length) + [1], "a run of \(length)")
        }
        _ = Self.roundTrip([UInt8](repeating: 0, count: 3 * HuffmanDeflate.blockSize + 17), "zeros over four blocks")
        // A run that goes on from one block into the next.
        var across = (0..<(HuffmanDeflate.blockSize - 5)).map { _ in UInt8(truncatingIfNeeded: next()) }
        across += [UInt8](repeating: 200, count: 40) + (0..<100).map { _ in UInt8(truncatingIfNeeded: next()) }
        _ = Self.roundTrip(across, "a run across a block's end")
        // Two and three byte values at random: runs begin at every place of the eight the
        // counting looks at together, beside pairs and triples that begin none, and cross blocks.
        for values in [2, 3] as [UInt64] {
            _ = Self.roundTrip((0..<(2 * HuffmanDeflate.blockSize + 999)).map { _ in UInt8(next() % values) }, "\(values) values at random")
        }
        // Every byte value equally often: no shorter code to be had.
        _ = Self.roundTrip((0..<100_000).map { _ in UInt8(truncatingIfNeeded: next()) }, "noise")
        // Counts that double from symbol to symbol: a Huffman code 20 and more bits long, limited to 15.
        var skewed: [UInt8] = []
        for symbol in 0..<22 { skewed += [UInt8](repeating: UInt8(symbol * 11), count: 1 << min(symbol, 16)) }
        for k in skewed.indices where k % 3 == 1 { skewed[k] = UInt8(truncatingIfNeeded: skewed[k] &+ UInt8(k % 2)) }
        _ = Self.roundTrip(skewed, "skewed counts")
    }

    /// A code's lengths make a whole code (Kraft's sum is one) and keep to the limit, however
    /// skewed the counts; one symbol used gets a second, as deflate's code-length code needs.
    /// The check 16 bytes at a time is zlib's, at the lengths around its 16s and its stretches,
    /// and with every byte 255 (the largest sums a stretch can hold).
    @Test func adler32IsZlibs() {
        var generator = SystemRandomNumberGenerator()
        let lengths = Array(0...40) + [5535, 5536, 5537, 5552, 11072, 11090, 65536, 300_001]
        for length in lengths {
            for bytes in [(0..<length).map { _ in UInt8.random(in: 0...255, using: &generator) }, [UInt8](repeating: 255, count: length)] {
                let ours = bytes.withUnsafeBytes { HuffmanDeflate.adler32($0) }
                let zlib = bytes.withUnsafeBytes { Zlib.adler32($0) }
                #expect(ours == zlib, "\(length) bytes")
            }
        }
    }

    @Test func codesAreWholeAndWithinTheirLimit() {
        let doubling = (0..<30).map { 1 << $0 }
        for (counts, limit) in [(doubling, 15), (doubling.map { $0 + 1 }, 7), ([5] + [Int](repeating: 0, count: 18), 7), ([1, 1], 15)] {
            let lengths = HuffmanDeflate.codeLengths(counts, limit: limit)
            #expect(lengths.allSatisfy { $0 <= limit })
            #expect(lengths.filter { $0 > 0 }.count >= 2)
            let kraft = lengths.filter { $0 > 0 }.reduce(0.0) { $0 + 1 / Double(1 << Int($1)) }
            #expect(abs(kraft - 1) < 1e-12, "\(lengths)")
            for (symbol, count) in counts.enumerated() where count > 0 { #expect(lengths[symbol] > 0) }
        }
    }

    /// A photo's tile as kitty gets it: the PNG's rows come back, and they take fewer bytes than
    /// zlib's level 1 makes of them (what a general deflater spends its time on finds little).
    @Test func aTilesRowsComeBackSmallerThanZlibsLevelOne() throws {
        let photo = Photo(path: RawPath(Paths.gallery + "/landscapes/hills-01.jpg"), relativePath: RawPath("hills-01.jpg"))
        let image = try PhotoDecoder().image(of: photo, covering: 400, atMost: 400).image
        var rows: [UInt8] = []
        for y in 0..<image.height {
            rows.append(1)
            for i in 0..<(image.width * 3) {
                let at = (y * image.width) * 3 + i
                rows.append(i < 3 ? image.pixels[at] : image.pixels[at] &- image.pixels[at - 3])
            }
        }
        let ours = Self.roundTrip(rows, "a tile's rows")
        let zlib = try #require(Zlib.compress(rows, level: 1))
        #expect(ours.count < zlib.count, "\(ours.count) bytes against zlib's \(zlib.count)")
        let png = try #require(KittyPNG.encode(image))
        #expect(png.starts(with: [0x89, 0x50, 0x4E, 0x47]))
    }
}
