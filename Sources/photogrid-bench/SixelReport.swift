import PhotoGridCore

/// `photogrid-bench sixel DIR [SIZE] [COLORS]`: libsixel's diffusion methods on real tiles: bytes
/// written (what the terminal must parse), encode time, and the mean error against the tile's
/// pixels; at COLORS registers (256, or 128 as on a slow link).
enum SixelReport {
    package static func run(folder: String, size: Int, colors: Int = 256) throws {
        let photos = try FolderScanner().scan(RawPath(folder)).filter { $0.format == .jpeg }.prefix(18)
        let decoded = photos.compactMap { try? PhotoDecoder().image(of: $0, covering: size, atMost: size).image }
        // The resampling from the decoded image to the tile, best of 5 each: what photogrid adds
        // between libjpeg and libsixel.
        var tiles: [RGBImage] = [], resampling = 0.0
        for image in decoded {
            var tile = image
            resampling += Timing.best(of: 5) { tile = PhotoDecoder.shape(image, width: size, height: size, fit: .fill) }
            tiles.append(tile)
        }
        print("sixel encoding of \(tiles.count) tiles of \(size)x\(size) from \(folder), \(colors) colours")
        print("resampling the decoded photos to the tiles: \(Table.fixed(resampling * 1000 / Double(max(1, tiles.count)), 2)) ms per tile")
        print(Table.row(["diffusion", "pictures", "writer", "KB per tile", "ms per tile", "mean error"]))
        print(Table.rule(6))
        // Each method as one picture; Floyd-Steinberg, photogrid's, also in strips of one palette
        // and one dithering side by side (Sixel.encode(_:columns:)), 200 pixels being photogrid's;
        // all with libsixel writing the sixels, then photogrid's SixelWriter on the same palette
        // and dithering.
        let fs = Sixel.Diffusion.floydSteinberg
        let runs = Sixel.Diffusion.allCases.map { ($0, 0, Sixel.Writer.libsixel) } + [400, 200, 100].map { (fs, $0, Sixel.Writer.libsixel) }
            + [(Sixel.Diffusion.none, 200, Sixel.Writer.photogrid)] + [0, 200].map { (fs, $0, Sixel.Writer.photogrid) }
        // Every run but the last dithers Floyd-Steinberg through libsixel; the last is photogrid's
        // whole encode: its writer and its dithering.
        for (run, (diffusion, strip, writer)) in runs.enumerated() {
            let ditherer: Sixel.Ditherer = run == runs.count - 1 ? .photogrid : .libsixel
            var bytes = 0, seconds = 0.0, error = 0.0
            for tile in tiles {
                let edges = strip == 0 ? [0, tile.width] : Array(stride(from: 0, to: tile.width, by: strip)) + [tile.width]
                var parts: [[UInt8]] = []
                seconds += Timing.best(of: 2) {
                    parts = (try? Sixel.encode(tile, columns: edges, colors: colors, diffusion: diffusion, writer: writer, ditherer: ditherer)) ?? []
                }
                bytes += parts.reduce(0) { $0 + $1.count }
                var back = RGBImage(width: tile.width, height: tile.height)
                for (k, part) in parts.enumerated() { if let piece = Sixel.decode(part) { back.draw(piece, atX: edges[k], y: 0) } }
                var sum = 0
                for i in 0..<tile.pixels.count { sum += abs(Int(tile.pixels[i]) - Int(back.pixels[i])) }
                error += Double(sum) / Double(tile.pixels.count)
            }
            let n = Double(max(1, tiles.count))
            print(Table.row([diffusion.rawValue + (ditherer == .photogrid ? " (photogrid's)" : ""), strip == 0 ? "one" : "\(strip)-px strips",
                             writer.rawValue, Table.fixed(Double(bytes) / n / 1024, 1),
                             Table.fixed(seconds / n * 1000, 1), Table.fixed(error / n, 2)]))
        }
        // The two writers draw the same pixels: each tile through both, read back by libsixel.
        var same = 0
        for tile in tiles {
            let edges = Array(stride(from: 0, to: tile.width, by: 200)) + [tile.width]
            let ours = (try? Sixel.encode(tile, columns: edges, writer: .photogrid)) ?? []
            let theirs = (try? Sixel.encode(tile, columns: edges, writer: .libsixel)) ?? []
            if ours.count == theirs.count, zip(ours, theirs).allSatisfy({ a, b in
                guard let x = Sixel.decode(a), let y = Sixel.decode(b) else { return false }
                return x.width == y.width && x.height == y.height && x.pixels == y.pixels
            }) { same += 1 }
        }
        print("\ntiles whose pixels are the same from both writers: \(same) of \(tiles.count)")
        // And the two ditherers the same indices: the same bytes from the same writer.
        let alike = tiles.filter { tile in
            let ours = try? Sixel.encode(tile, colors: colors, ditherer: .photogrid), theirs = try? Sixel.encode(tile, colors: colors, ditherer: .libsixel)
            return ours != nil && ours == theirs
        }.count
        print("tiles dithered the same by photogrid and by libsixel: \(alike) of \(tiles.count)")
    }
}
