import CGif
import PhotoGridCore

/// The test files' GIF encoder: tests and the sample gallery make their files with the library
/// that reads them. Kept out of the shipped library, which only decodes GIF.
extension GIF {
    private final class Sink { var bytes: [UInt8] = [] }

    private static let write: OutputFunc = { gif, buffer, length in
        guard let gif, let buffer, let user = gif.pointee.UserData, length > 0 else { return 0 }
        Unmanaged<Sink>.fromOpaque(user).takeUnretainedValue().bytes.append(contentsOf: UnsafeBufferPointer(start: buffer, count: Int(length)))
        return length
    }


    /// A GIF of `image`, whose colours must number 256 or fewer: for tests, which make their files
    /// with the library that reads them. Pixels whose `transparent` flag is set are written with
    /// a transparent index; `interlaced` writes rows in the four passes; `frames` more frames of
    /// one pixel follow the first. nil when giflib cannot, or the image has too many colours.
    package static func encode(_ image: RGBImage, transparent: [Bool]? = nil, interlaced: Bool = false, frames: Int = 0) -> [UInt8]? {
        var palette: [RGB] = [], index: [RGB: Int] = [:]
        var indices = [GifPixelType](repeating: 0, count: image.width * image.height)
        for i in 0..<indices.count {
            let colour = RGB(image.pixels[i * 3], image.pixels[i * 3 + 1], image.pixels[i * 3 + 2])
            if transparent?[i] == true { indices[i] = 255; continue }
            if index[colour] == nil { index[colour] = palette.count; palette.append(colour) }
            guard palette.count <= 255 else { return nil }
            indices[i] = GifPixelType(index[colour]!)
        }
        palette += Array(repeating: RGB(0, 0, 0), count: 256 - palette.count)
        let sink = Sink()
        var error: Int32 = 0
        guard let gif = EGifOpen(Unmanaged.passUnretained(sink).toOpaque(), write, &error) else { return nil }
        EGifSetGifVersion(gif, true)
        guard let map = GifMakeMapObject(256, nil) else { EGifCloseFile(gif, &error); return nil }
        defer { GifFreeMapObject(map) }
        for (i, colour) in palette.enumerated() { map.pointee.Colors[i] = GifColorType(Red: colour.r, Green: colour.g, Blue: colour.b) }
        var ok = EGifPutScreenDesc(gif, Int32(image.width), Int32(image.height), 8, 0, map) != GIF_ERROR
        var control: [GifByteType] = [transparent == nil ? 0 : 1, 10, 0, 255]  // flags, delay (1/100 s), transparent index
        ok = ok && EGifPutExtension(gif, GRAPHICS_EXT_FUNC_CODE, 4, &control) != GIF_ERROR
        ok = ok && EGifPutImageDesc(gif, 0, 0, Int32(image.width), Int32(image.height), interlaced, nil) != GIF_ERROR
        let rows: [Int] = interlaced
            ? [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: image.height, by: step)) }
            : Array(0..<image.height)
        for y in rows where ok {
            var line = Array(indices[(y * image.width)..<((y + 1) * image.width)])
            ok = EGifPutLine(gif, &line, Int32(image.width)) != GIF_ERROR
        }
        for _ in 0..<frames where ok {
            var pixel: [GifPixelType] = [0]
            ok = EGifPutImageDesc(gif, 0, 0, 1, 1, false, nil) != GIF_ERROR && EGifPutLine(gif, &pixel, 1) != GIF_ERROR
        }
        ok = EGifCloseFile(gif, &error) != GIF_ERROR && ok
        return ok ? sink.bytes : nil
    }
}
