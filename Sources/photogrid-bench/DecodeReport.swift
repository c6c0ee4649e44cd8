import PhotoGridCore

/// `photogrid-bench decode DIR [SIZE]`: for each photo, the time of a full libjpeg decode at the
/// scale a SIZE-pixel tile needs against photogrid's (fast IDCT, partial progressive scans), and
/// how far apart their pixels are. Shows what the shortcuts buy and what they cost.
enum DecodeReport {
    package static func run(folder: String, size: Int) throws {
        let photos = try FolderScanner().scan(RawPath(folder)).filter { $0.format == .jpeg }
        print("decode \(photos.count) photos of \(folder) for \(size)-pixel tiles")
        print(Table.row(["photo", "pixels", "prog", "scale", "full ms", "fast ms", "scans", "mean error"]))
        var totalFull = 0.0, totalFast = 0.0
        for photo in photos {
            guard let file = photo.file, let data = try? FileReader.read(file), let header = try? JPEG.readHeader(data) else { continue }
            let scale = PhotoDecoder.scaleEighths(forFactor: Double(size) / Double(min(header.width, header.height)))
            var fullImage: RGBImage? = nil, fastImage: RGBImage? = nil, scans = 0
            let full = Timing.best(of: 3) { fullImage = try? JPEG.decode(data, options: .init(scaleEighths: scale)) }
            let fast = Timing.best(of: 3) {
                let result = try? JPEG.decodeCountingScans(data, options: .init(scaleEighths: scale, fast: scale <= 2, partialScans: scale <= 2))
                fastImage = result?.image
                scans = result?.scans ?? 0
            }
            totalFull += full; totalFast += fast
            var error = "-"
            if let a = fullImage, let b = fastImage, a.width == b.width, a.height == b.height {
                var sum = 0
                for i in 0..<a.pixels.count { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
                error = Table.fixed(Double(sum) / Double(a.pixels.count), 2)
            }
            print(Table.row([photo.name, "\(header.width)x\(header.height)", header.isProgressive ? "yes" : "no", "\(scale)/8",
                             Table.fixed(full * 1000, 1), Table.fixed(fast * 1000, 1), "\(scans)", error]))
        }
        print(Table.row(["total", "", "", "", Table.fixed(totalFull * 1000, 1), Table.fixed(totalFast * 1000, 1), "", ""]))
    }
}
