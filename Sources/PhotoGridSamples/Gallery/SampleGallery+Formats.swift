import PhotoGridCore

/// sample-gallery/other-formats/: the other formats a real ~/Pictures holds, made with the libraries
/// photogrid reads them with. A screenshot and a sticker with transparency (PNG), a photo saved
/// from the web (lossy WebP), phone photos (HEIC with a thumbnail, turned by its container;
/// AVIF), a GIF, and names in upper case. (No file without an extension: a web server's listing
/// cannot say what one is, and the remote tests browse this folder served.)
extension SampleGallery {
    package struct FormatSample: Sendable {
        package var path: String
        /// The upright size.
        package var width: Int, height: Int
        package var make: @Sendable () -> [UInt8]?
    }

    package static let formatSamples: [FormatSample] = [
        FormatSample(path: "other-formats/screenshot-01.png", width: 1600, height: 1000) { PNG.encode(screenshot(width: 1600, height: 1000)) },
        FormatSample(path: "other-formats/sticker-01.png", width: 600, height: 600) {
            let image = Scene.render(.sunset, width: 600, height: 600, seed: 7)
            return PNG.encode(image, alpha: disc(width: 600, height: 600))
        },
        FormatSample(path: "other-formats/beach-saved-from-the-web.webp", width: 1200, height: 800) {
            WebP.encode(Scene.render(.beach, width: 1200, height: 800, seed: 11), lossyQuality: 80)
        },
        FormatSample(path: "other-formats/IMG_4032.HEIC", width: 1512, height: 2016) {
            // Stored sideways, as phones store portrait photos, and turned by the container's `irot`;
            // the EXIF beside it says the same, as phones write it, and must not turn it again.
            let upright = Scene.render(.lake, width: 1512, height: 2016, seed: 13)
            let exif = ExifBuilder.tiff(ExifFields(orientation: 6, dateTimeOriginal: "2025:06:14 18:22:41", make: "Apple",
                                                   model: "iPhone 15", latitude: 46.3636, longitude: 14.0938))
            return HEIF.encode(Orientation.right.stored(from: upright), quality: 60, orientation: 6, thumbnail: 320, exif: exif)
        },
        FormatSample(path: "other-formats/mountains-01.avif", width: 1600, height: 1067) {
            HEIF.encode(Scene.render(.mountains, width: 1600, height: 1067, seed: 17), avif: true, quality: 60)
        },
        FormatSample(path: "other-formats/aurora-loop.gif", width: 480, height: 320) {
            GIF.encode(sixLevels(Scene.render(.aurora, width: 480, height: 320, seed: 19)), frames: 2)
        },
        FormatSample(path: "other-formats/LAVENDER-01.PNG", width: 900, height: 600) {
            PNG.encode(Scene.render(.lavender, width: 900, height: 600, seed: 29))
        },
    ]

    /// Writes `formatSamples` under `folder`.
    package static func writeFormats(to folder: String, progress: (String, Int) -> Void) throws {
        try GalleryFiles.makeDirectory(folder + "/other-formats")
        for sample in formatSamples {
            guard let bytes = sample.make() else { throw GalleryFiles.Failure(path: sample.path, reason: "its library could not encode it") }
            try GalleryFiles.write(bytes, to: folder + "/" + sample.path)
            progress(sample.path, bytes.count)
        }
    }

    /// A desktop screenshot: a window with a title bar, a sidebar, lines of "text" and a photo.
    static func screenshot(width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height, fill: RGB(236, 238, 242))
        func box(_ x0: Int, _ y0: Int, _ w: Int, _ h: Int, _ colour: RGB) {
            for y in max(0, y0)..<min(height, y0 + h) { for x in max(0, x0)..<min(width, x0 + w) { image[x, y] = colour } }
        }
        box(0, 0, width, 36, RGB(52, 56, 66))                       // title bar
        for (i, colour) in [RGB(237, 95, 87), RGB(245, 190, 79), RGB(98, 197, 84)].enumerated() { box(14 + i * 22, 12, 12, 12, colour) }
        box(0, 36, 260, height - 36, RGB(222, 225, 232))           // sidebar
        for row in 0..<14 { box(24, 70 + row * 44, 150 + (row * 37) % 60, 14, RGB(120, 126, 140)) }
        for row in 0..<18 { box(300, 80 + row * 30, 560 + (row * 53) % 300, 12, RGB(60, 64, 74)) }
        let photo = Scene.render(.hills, width: 520, height: 340, seed: 5)
        for y in 0..<photo.height { for x in 0..<photo.width { image[1000 + x, 90 + y] = photo[x, y] } }
        return image
    }

    /// Opaque inside a circle, transparent outside, with a soft edge.
    static func disc(width: Int, height: Int) -> [UInt8] {
        let radius = Double(min(width, height)) * 0.45
        return (0..<(width * height)).map { i in
            let dx = Double(i % width) - Double(width) / 2, dy = Double(i / width) - Double(height) / 2
            let edge = radius - (dx * dx + dy * dy).squareRoot()
            return UInt8(max(0, min(255, edge * 32)))
        }
    }

    /// At most 216 colours, six levels a channel: what a GIF's palette can hold.
    static func sixLevels(_ image: RGBImage) -> RGBImage {
        var copy = image
        for i in 0..<copy.pixels.count { copy.pixels[i] = UInt8((Int(copy.pixels[i]) + 25) / 51 * 51) }
        return copy
    }
}
