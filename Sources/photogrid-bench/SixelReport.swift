import PhotoGridCore

/// `photogrid-bench sixel DIR [SIZE]`: libsixel's diffusion methods on real tiles: bytes written
/// (what the terminal must parse), encode time, and the mean error against the tile's pixels.
enum SixelReport {
    static func run(folder: String, size: Int) throws {
        let photos = try FolderScanner().scan(RawPath(folder)).filter { $0.format == .jpeg }.prefix(18)
        let tiles = photos.compactMap { photo -> RGBImage? in
            guard let image = try? PhotoDecoder().image(of: photo, covering: size, atMost: size) else { return nil }
            return PhotoDecoder.shape(image.image, width: size, height: size, fit: .fill)
        }
        print("sixel encoding of \(tiles.count) tiles of \(size)x\(size) from \(folder)")
        print(Table.row(["diffusion", "KB per tile", "ms per tile", "mean error"]))
        print(Table.rule(4))
        for diffusion in Sixel.Diffusion.allCases {
            var bytes = 0, seconds = 0.0, error = 0.0
            for tile in tiles {
                var encoded: [UInt8] = []
                seconds += Clock.best(of: 2) { encoded = (try? Sixel.encode(tile, diffusion: diffusion)) ?? [] }
                bytes += encoded.count
                if let back = Sixel.decode(encoded), back.width == tile.width, back.height == tile.height {
                    var sum = 0
                    for i in 0..<tile.pixels.count { sum += abs(Int(tile.pixels[i]) - Int(back.pixels[i])) }
                    error += Double(sum) / Double(tile.pixels.count)
                }
            }
            let n = Double(max(1, tiles.count))
            print(Table.row([diffusion.rawValue, Table.fixed(Double(bytes) / n / 1024, 1), Table.fixed(seconds / n * 1000, 1),
                             Table.fixed(error / n, 2)]))
        }
    }
}
