import Glibc
import PhotoGridCore
import PhotoGridSamples

/// The folders the benchmark runs on, made in a scratch folder from a folder of real photos
/// (../shared/tools/real-photos): the first 18 photos, one first screen at 6 columns,
///  - `progressive/`: as shipped (the real-photos set is full of progressive JPEGs),
///  - `baseline/`: re-encoded as baseline JPEGs, quality 90, no EXIF, as `djpeg | cjpeg` would,
///  - `exif/`: those with an EXIF segment and a 160x120 thumbnail, as cameras and phones write,
///  - `camera/` and `camera-exif/`: the same two at 12 MP (4000x3000, 3000x4000 for portrait ones),
///    cropped and resampled to that size, the size the targets of issue 3 name,
///  - `preview/`: `exif/` with a camera's larger preview after each photo (Multi-Picture Format,
///    1616 pixels on the long side), as many cameras' JPEGs carry one,
///  - `scroll/`: 60 links to the baseline files, enough rows to scroll,
///  - `many/`: 10,000 links to the baseline files,
///  - `all/`: links to every photo at the source's top level, as shipped.
struct Inputs {
    let root: String
    let count: Int
    var progressive: String { root + "/progressive" }
    var baseline: String { root + "/baseline" }
    var exif: String { root + "/exif" }
    var camera: String { root + "/camera" }
    var cameraExif: String { root + "/camera-exif" }
    var preview: String { root + "/preview" }
    var scroll: String { root + "/scroll" }
    var many: String { root + "/many" }
    var all: String { root + "/all" }
    /// Photos in `all/`.
    var allCount = 0
    /// Size, pixels and kind of the 18 originals, for the report.
    var summary: [String] = []

    init(from source: String, firstScreen: Int = 18, many: Int = 10_000) throws {
        var template = Array("/tmp/photogrid-bench-XXXXXX".utf8CString)
        root = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        count = firstScreen
        let everything = try FolderScanner().scan(RawPath(source))
            .filter { $0.format == .jpeg && !$0.relativePath.description.contains("/") }
        let originals = everything.prefix(firstScreen)
        guard originals.count == firstScreen else { throw BenchError("\(source) has fewer than \(firstScreen) JPEGs at its top level") }
        for dir in [progressive, baseline, exif, camera, cameraExif, preview, scroll, self.many, all] { mkdir(dir, 0o755) }
        for photo in everything { link(photo.source.description, all + "/" + photo.name) }
        allCount = everything.count
        var megapixels = 0.0, progressiveCount = 0, bytes = 0
        for photo in originals {
            let name = photo.name
            guard let file = photo.file else { continue }
            let data = try FileReader.read(file)
            let header = try JPEG.readHeader(data)
            megapixels += Double(header.width * header.height) / 1e6
            if header.isProgressive { progressiveCount += 1 }
            bytes += data.count
            try Inputs.write(data, to: progressive + "/" + name)
            let pixels = try JPEG.decode(data)
            let plain = try JPEG.encode(pixels, quality: 90)
            try Inputs.write(plain, to: baseline + "/" + name)
            let withThumbnail = try Inputs.withExifThumbnail(plain, image: pixels)
            try Inputs.write(withThumbnail, to: exif + "/" + name)
            try Inputs.write(try Inputs.withPreview(withThumbnail, image: pixels), to: preview + "/" + name)
            let landscape = pixels.width >= pixels.height
            let twelve = Resampler.fill(pixels, width: landscape ? 4000 : 3000, height: landscape ? 3000 : 4000)
            let cameraLike = try JPEG.encode(twelve, quality: 90)
            try Inputs.write(cameraLike, to: camera + "/" + name)
            try Inputs.write(try Inputs.withExifThumbnail(cameraLike, image: twelve), to: cameraExif + "/" + name)
        }
        let names = originals.map { $0.name }
        for k in 0..<60 { link(baseline + "/" + names[k % names.count], scroll + "/" + String(format: k, digits: 3) + ".jpg") }
        for k in 0..<many { link(baseline + "/" + names[k % names.count], self.many + "/" + String(format: k, digits: 6) + ".jpg") }
        summary = ["\(firstScreen) photos from \(source): \(Table.fixed(megapixels / Double(firstScreen), 1)) MP on average, "
                   + "\(progressiveCount) progressive, \(bytes / 1_000_000) MB as shipped"]
    }

    package func remove() { _ = system("rm -rf '\(root)'") }

    /// The JPEG with an APP1 Exif segment in front, holding a 160x120 thumbnail of `image`
    /// (letterboxed, as cameras do for photos that are not 4:3) and the usual camera fields.
    static func withExifThumbnail(_ jpeg: [UInt8], image: RGBImage) throws -> [UInt8] {
        let thumbnail = try JPEG.encode(Resampler.fit(image, width: 160, height: 120), quality: 80)
        let app1 = ExifBuilder.app1(ExifFields(orientation: 1, dateTimeOriginal: "2024:05:01 10:00:00",
                                               make: "Benchmark", model: "Camera", thumbnail: thumbnail))
        let length = app1.count + 2
        return Array(jpeg[0..<2]) + [0xFF, 0xE1, UInt8(length >> 8), UInt8(length & 0xFF)] + app1 + Array(jpeg[2...])
    }

    /// The JPEG with a larger preview of `image` after it, indexed by an APP2 "MPF" segment:
    /// 1616 pixels on its long side, quality 85.
    static func withPreview(_ jpeg: [UInt8], image: RGBImage) throws -> [UInt8] {
        let factor = 1616 / Double(max(image.width, image.height))
        let width = Int((Double(image.width) * factor).rounded()), height = Int((Double(image.height) * factor).rounded())
        let whole = Resampler.Region(x: 0, y: 0, width: Double(image.width), height: Double(image.height))
        let small = try JPEG.encode(Resampler.resample(image, region: whole, width: width, height: height), quality: 85)
        return MultiPictureWriter.add(small, to: jpeg)
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard fd >= 0 else { throw BenchError("cannot write \(path)") }
        defer { close(fd) }
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
    }
}

struct BenchError: Error, CustomStringConvertible {
    package let description: String
    init(_ description: String) { self.description = description }
}

extension String {
    /// Zero-padded decimal.
    init(format value: Int, digits: Int) {
        let text = String(value)
        self = String(repeating: "0", count: Swift.max(0, digits - text.count)) + text
    }
}
