import PhotoGridCore

/// `photogrid-bench decode DIR [SIZE]`: for each photo, the time of a full libjpeg decode at the
/// scale a SIZE-pixel tile needs against photogrid's (fast IDCT, partial progressive scans), and
/// how far apart their pixels are; at 1/8, also photogrid's own reading of the DC coefficients
/// (`JPEGEighth`) and how far its pixels are from libjpeg's fast ones. Shows what the shortcuts
/// buy and what they cost.
enum DecodeReport {
    package static func run(folder: String, size: Int) throws {
        let photos = try FolderScanner().scan(RawPath(folder)).filter { $0.format == .jpeg }
        print("decode \(photos.count) photos of \(folder) for \(size)-pixel tiles")
        print(Table.row(["photo", "pixels", "prog", "scale", "full ms", "fast ms", "scans", "mean error", "DC ms", "DC error"]))
        var totalFull = 0.0, totalFast = 0.0, totalDC = 0.0
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
            var dcImage: RGBImage? = nil, dc = 0.0
            if scale == 1 {
                dc = Timing.best(of: 3) {
                    dcImage = (try? JPEGEighth.decode(maxPixels: JPEG.defaultMaxPixels, cancel: nil, prefix: { _ in data }))??.image
                }
                if dcImage == nil { dc = fast }
            }
            totalFull += full; totalFast += fast; totalDC += scale == 1 ? dc : fast
            print(Table.row([photo.name, "\(header.width)x\(header.height)", header.isProgressive ? "yes" : "no", "\(scale)/8",
                             Table.fixed(full * 1000, 1), Table.fixed(fast * 1000, 1), "\(scans)", meanError(fullImage, fastImage),
                             dcImage == nil ? "-" : Table.fixed(dc * 1000, 1), meanError(fastImage, dcImage)]))
        }
        print(Table.row(["total", "", "", "", Table.fixed(totalFull * 1000, 1), Table.fixed(totalFast * 1000, 1), "", "",
                         Table.fixed(totalDC * 1000, 1), ""]))
    }

    /// The mean difference of two pictures' channels, or "-".
    static func meanError(_ a: RGBImage?, _ b: RGBImage?) -> String {
        guard let a, let b, a.width == b.width, a.height == b.height else { return "-" }
        var sum = 0
        for i in 0..<a.pixels.count { sum += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Table.fixed(Double(sum) / Double(a.pixels.count), 2)
    }
}
