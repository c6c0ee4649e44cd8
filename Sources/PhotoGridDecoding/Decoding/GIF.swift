import CGif
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// giflib: the only Swift file that calls it. A GIF shows its first frame on its logical screen,
/// transparent pixels and the screen around the frame in `PNG.background`. Only the records up to
/// the first frame are read, so an animation of 100,000 frames costs what its first one does.
/// giflib reads the records and hands over the frame's LZW code blocks; GIFCodes decodes them.
package enum GIF {
    package struct Header: Sendable {
        /// The logical screen.
        package var width: Int, height: Int
        package var size: (width: Int, height: Int) { (width, height) }
    }

    /// The largest logical screen decoded: 16 MP, 48 MB of canvas. GIFs are small pictures; a
    /// header of 13 bytes must not make photogrid fill hundreds of megabytes.
    static let maxPixels = 16_000_000

    package static func isGIF(_ data: [UInt8]) -> Bool {
        data.count >= 6 && (data.prefix(6).elementsEqual("GIF87a".utf8) || data.prefix(6).elementsEqual("GIF89a".utf8))
    }

    package static func readHeader(_ data: [UInt8], maxPixels: Int = JPEG.defaultMaxPixels) throws(DecodeError) -> Header {
        try withFile(data, maxPixels: maxPixels) { _, header throws(DecodeError) in header }
    }

    /// The first frame on the logical screen (grown to hold the frame, when a file's screen is
    /// smaller than it), each side divided by `shrink` as its rows are read (each pixel the mean
    /// of a block: nothing is kept at full size).
    package static func decode(_ data: [UInt8], shrink: Int = 1, maxPixels: Int = JPEG.defaultMaxPixels) throws(DecodeError) -> RGBImage {
        try withFile(data, maxPixels: maxPixels) { gif, header throws(DecodeError) -> RGBImage in
            var transparent = -1
            // Extensions before the frame: comments, application blocks, the graphic control
            // block that names the transparent colour. A file of nothing else ends with an error.
            while true {
                var type = UNDEFINED_RECORD_TYPE
                try check(DGifGetRecordType(gif, &type), gif)
                switch type {
                case EXTENSION_RECORD_TYPE:
                    var code: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    try check(DGifGetExtension(gif, &code, &block), gif)
                    if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4, block[1] & 1 != 0 { transparent = Int(block[4]) }
                    while block != nil { try check(DGifGetExtensionNext(gif, &block), gif) }
                case IMAGE_DESC_RECORD_TYPE:
                    return try firstFrame(gif, header: header, transparent: transparent, shrink: shrink, maxPixels: maxPixels)
                case TERMINATE_RECORD_TYPE:
                    throw .corruptFile(format: "GIF", "no frame")
                default:
                    throw .corruptFile(format: "GIF", "unknown record")
                }
            }
        }
    }

    private static func firstFrame(_ gif: UnsafeMutablePointer<GifFileType>, header: Header, transparent: Int,
                                   shrink: Int, maxPixels: Int) throws(DecodeError) -> RGBImage {
        try check(DGifGetImageDesc(gif), gif)
        let frame = gif.pointee.Image
        let (left, top, width, height) = (Int(frame.Left), Int(frame.Top), Int(frame.Width), Int(frame.Height))
        guard width > 0, height > 0 else { throw .corruptFile(format: "GIF", "empty frame") }
        // The frame is drawn on the logical screen and clipped to it, as browsers do; only a file
        // whose screen says 0 x 0 takes the frame's extent. Rows below the screen are not read.
        let canvasWidth = header.width > 0 ? header.width : left + width
        let canvasHeight = header.height > 0 ? header.height : top + height
        guard canvasWidth * canvasHeight <= min(maxPixels, GIF.maxPixels) else { throw .tooLarge }
        guard let map = frame.ColorMap ?? gif.pointee.SColorMap, let colours = map.pointee.Colors else {
            throw .corruptFile(format: "GIF", "no colour table")
        }
        let count = Int(map.pointee.ColorCount)
        // At most 4,096: a block's row of at most that many columns of 511 fits the 21 bits below.
        let step = max(1, min(shrink, canvasWidth, canvasHeight, 4096))
        let outWidth = canvasWidth / step, outHeight = canvasHeight / step
        // Each output pixel's sums start as a block of background; a frame pixel adds how far
        // its colour is from the background. Pixels the frame leaves out stay background.
        let background = [PNG.background.r, PNG.background.g, PNG.background.b]
        var sums = [Int](repeating: 0, count: outWidth * outHeight * 3)
        for i in sums.indices { sums[i] = background[i % 3] * step * step }
        // Each index's difference from the background, its three channels packed in one word
        // with 256 added to each (21 bits apiece), so that a row is summed with one addition a
        // pixel; transparent and unknown indices add the background.
        var packed = [UInt64](repeating: 256 | 256 << 21 | 256 << 42, count: 256)
        for index in 0..<min(count, 256) where index != transparent {
            let colour = colours[index]
            packed[index] = UInt64(Int(colour.Red) - background[0] + 256)
                | UInt64(Int(colour.Green) - background[1] + 256) << 21 | UInt64(Int(colour.Blue) - background[2] + 256) << 42
        }
        // The frame's columns that land in a whole block of the screen, and each one's block.
        let used = max(0, min(width, outWidth * step - left))
        let blockOf = (0..<used).map { (left + $0) / step }
        var added = [Int](repeating: 0, count: outWidth)     // how many of a row's columns each block sums
        for block in blockOf { added[block] += 1 }
        // Interlaced frames come in four passes (`interlacedRows`).
        let order: [Int] = frame.Interlace
            ? interlacedRows(height)
            : Array(0..<height)
        let visible = max(0, canvasHeight - top)
        let needed = (order.lastIndex { $0 < visible }).map { $0 + 1 } ?? 0
        // The indices of the rows needed, in the order the file stores them, by GIFCodes from
        // giflib's code blocks (GIFCodes.swift says why not through DGifGetLine).
        // A frame much wider than its screen is hostile: its rows are kept whole while decoded.
        guard width * needed <= min(maxPixels, GIF.maxPixels) else { throw .tooLarge }
        var codeSize: Int32 = 0
        var block: UnsafeMutablePointer<GifByteType>?
        try check(DGifGetCode(gif, &codeSize, &block), gif)
        guard var codes = GIFCodes(minimumCodeSize: Int(codeSize), limit: width * needed) else {
            throw .corruptFile(format: "GIF", "LZW code size \(codeSize)")
        }
        while let data = block, !codes.ended {
            try codes.add(UnsafeBufferPointer(start: data + 1, count: Int(data[0])))
            if codes.ended { break }
            try check(DGifGetCodeNext(gif, &block), gif)
        }
        guard codes.count == codes.limit else { throw .truncatedFile(format: "GIF") }
        var row = [UInt64](repeating: 0, count: outWidth)
        for (k, y) in order.prefix(needed).enumerated() {
            guard top + y < outHeight * step, used > 0 else { continue }
            codes.output.withUnsafeBufferPointer { indices in
                let line = indices.baseAddress! + k * width
                packed.withUnsafeBufferPointer { packed in
                    blockOf.withUnsafeBufferPointer { blockOf in
                        row.withUnsafeMutableBufferPointer { row in
                            for i in 0..<row.count { row[i] = 0 }
                            for x in 0..<used { row[blockOf[x]] &+= packed[Int(line[x])] }
                        }
                    }
                }
            }
            let base = (top + y) / step * outWidth * 3
            for block in 0..<outWidth where added[block] > 0 {
                let word = row[block], bias = 256 * added[block]
                sums[base + block * 3] += Int(word & 0x1FFFFF) - bias
                sums[base + block * 3 + 1] += Int(word >> 21 & 0x1FFFFF) - bias
                sums[base + block * 3 + 2] += Int(word >> 42 & 0x1FFFFF) - bias
            }
        }
        var image = RGBImage(width: outWidth, height: outHeight)
        let area = step * step
        for i in sums.indices { image.pixels[i] = UInt8(clamping: (sums[i] + area / 2) / area) }
        return image
    }

    /// One frame as the file stores it: its rectangle on the logical screen, its colour indices
    /// row by row (interlaced rows put in order), its colours, and how it is shown.
    struct StoredFrame {
        var left: Int, top: Int, width: Int, height: Int
        var indices: [UInt8]
        var colours: [RGB]
        var transparent: Int
        /// Hundredths of a second to show it; what to do with its rectangle after (1: leave,
        /// 2: background, 3: what was there before).
        var delay: Int, disposal: Int
    }

    /// Every frame in the file's order, handed to `each` until it returns false; frames whose
    /// rectangle is hostile (larger than `GIF.maxPixels`) end the reading with an error, a file
    /// that ends early ends it quietly after the last whole frame.
    static func storedFrames(_ data: [UInt8], maxPixels: Int, each: (Header, StoredFrame) -> Bool) throws(DecodeError) {
        try withFile(data, maxPixels: maxPixels) { gif, header throws(DecodeError) in
            var (transparent, delay, disposal) = (-1, 0, 0)
            while true {
                var type = UNDEFINED_RECORD_TYPE
                do throws(DecodeError) { try check(DGifGetRecordType(gif, &type), gif) } catch .truncatedFile { return }
                switch type {
                case EXTENSION_RECORD_TYPE:
                    var code: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    try check(DGifGetExtension(gif, &code, &block), gif)
                    if code == GRAPHICS_EXT_FUNC_CODE, let block, block[0] >= 4 {
                        transparent = block[1] & 1 != 0 ? Int(block[4]) : -1
                        disposal = Int(block[1] >> 2 & 7)
                        delay = Int(block[2]) | Int(block[3]) << 8
                    }
                    while block != nil { try check(DGifGetExtensionNext(gif, &block), gif) }
                case IMAGE_DESC_RECORD_TYPE:
                    try check(DGifGetImageDesc(gif), gif)
                    let desc = gif.pointee.Image
                    let (width, height) = (Int(desc.Width), Int(desc.Height))
                    guard width > 0, height > 0, width * height <= min(maxPixels, GIF.maxPixels) else { throw .tooLarge }
                    guard let map = desc.ColorMap ?? gif.pointee.SColorMap, let table = map.pointee.Colors else {
                        throw .corruptFile(format: "GIF", "no colour table")
                    }
                    var colours = [RGB](repeating: RGB(0, 0, 0), count: 256)
                    for i in 0..<min(256, Int(map.pointee.ColorCount)) { colours[i] = RGB(table[i].Red, table[i].Green, table[i].Blue) }
                    var codeSize: Int32 = 0
                    var block: UnsafeMutablePointer<GifByteType>?
                    try check(DGifGetCode(gif, &codeSize, &block), gif)
                    guard var codes = GIFCodes(minimumCodeSize: Int(codeSize), limit: width * height) else {
                        throw .corruptFile(format: "GIF", "LZW code size \(codeSize)")
                    }
                    // The whole of the frame's blocks is read, so that the next record follows.
                    while let data = block {
                        if !codes.ended { try codes.add(UnsafeBufferPointer(start: data + 1, count: Int(data[0]))) }
                        do throws(DecodeError) { try check(DGifGetCodeNext(gif, &block), gif) } catch .truncatedFile { return }
                    }
                    guard codes.count == codes.limit else { return }
                    var indices = codes.output
                    if desc.Interlace {
                        let order = interlacedRows(height)
                        var rows = [UInt8](repeating: 0, count: width * height)
                        for (k, y) in order.enumerated() { rows[y * width..<(y + 1) * width] = indices[k * width..<(k + 1) * width] }
                        indices = rows
                    }
                    let frame = StoredFrame(left: Int(desc.Left), top: Int(desc.Top), width: width, height: height, indices: indices,
                                            colours: colours, transparent: transparent, delay: delay, disposal: disposal)
                    guard each(header, frame) else { return }
                    (transparent, delay, disposal) = (-1, 0, 0)
                case TERMINATE_RECORD_TYPE:
                    return
                default:
                    throw .corruptFile(format: "GIF", "unknown record")
                }
            }
        }
    }

    /// The rows of an interlaced frame in the order the file stores them: four passes, every
    /// 8th row from 0, every 8th from 4, every 4th from 2, every 2nd from 1.
    static func interlacedRows(_ height: Int) -> [Int] {
        [(0, 8), (4, 8), (2, 4), (1, 2)].flatMap { start, step in Array(stride(from: start, to: height, by: step)) }
    }

    /// giflib reads through this callback from the bytes a `Source` points at.
    private final class Source {
        let bytes: UnsafeRawBufferPointer
        var offset = 0
        init(_ bytes: UnsafeRawBufferPointer) { self.bytes = bytes }
    }

    private static let read: InputFunc = { gif, buffer, length in
        guard let gif, let buffer, let user = gif.pointee.UserData, length > 0 else { return 0 }
        let source = Unmanaged<Source>.fromOpaque(user).takeUnretainedValue()
        let n = min(Int(length), source.bytes.count - source.offset)
        guard n > 0, let base = source.bytes.baseAddress else { return 0 }
        UnsafeMutableRawPointer(buffer).copyMemory(from: base + source.offset, byteCount: n)
        source.offset += n
        return Int32(n)
    }

    private static func withFile<T>(_ data: [UInt8], maxPixels: Int,
                                    _ body: (UnsafeMutablePointer<GifFileType>, Header) throws(DecodeError) -> T) throws(DecodeError) -> T {
        guard !data.isEmpty else { throw .empty }
        guard isGIF(data) else { throw .unsupportedFormat("") }
        let result = data.withUnsafeBytes { bytes in
            Result(catching: { () throws(DecodeError) -> T in
                let source = Source(bytes)
                var error: Int32 = 0
                guard let gif = withExtendedLifetime(source, { DGifOpen(Unmanaged.passUnretained(source).toOpaque(), read, &error) }) else {
                    throw error == D_GIF_ERR_READ_FAILED || error == D_GIF_ERR_NO_SCRN_DSCR ? .truncatedFile(format: "GIF")
                                                                                            : .corruptFile(format: "GIF", "error \(error)")
                }
                defer { DGifCloseFile(gif, &error) }
                let header = Header(width: Int(gif.pointee.SWidth), height: Int(gif.pointee.SHeight))
                guard header.width * header.height <= maxPixels else { throw .tooLarge }
                return try withExtendedLifetime(source) { () throws(DecodeError) -> T in try body(gif, header) }
            })
        }
        return try result.get()
    }

    private static func check(_ status: Int32, _ gif: UnsafeMutablePointer<GifFileType>) throws(DecodeError) {
        guard status == GIF_ERROR else { return }
        switch Int32(gif.pointee.Error) {
        case D_GIF_ERR_READ_FAILED, D_GIF_ERR_EOF_TOO_SOON: throw .truncatedFile(format: "GIF")
        case D_GIF_ERR_NOT_ENOUGH_MEM: throw .outOfMemory
        case let code: throw .corruptFile(format: "GIF", GifErrorString(code).map { String(cString: $0) } ?? "error \(code)")
        }
    }
}
