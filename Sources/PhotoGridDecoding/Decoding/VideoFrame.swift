import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// A frame of a video for its tile, taken by `ffmpeg` when it is installed: the one Swift file
/// that runs it. ffmpeg is a program, not a library here: linking libavformat would make every
/// user install it, and a decoder that crashes on a hostile video takes down only its own process.
///
/// Bounded like every decode: one thread (the pipeline counts it as one CPU), a frame no larger
/// than asked for, at most `timeout` milliseconds and `maxOutput` bytes, and killed as soon as
/// nothing wants the tile any more. The frame is taken 1 s in (the first frame of a phone video is
/// often black), else at the start of a video shorter than that.
package enum VideoFrame {
    static let timeout = 10_000
    static let maxOutput = 64 << 20
    /// The largest short side asked of ffmpeg: a 4K frame's.
    static let maxShortSide = 2160

    /// Whether `ffmpeg` is on the PATH, looked for once.
    package static let isInstalled = ChildProcess.isRunnable("ffmpeg", path: Environment.value("PATH"))

    /// The frame, upright (ffmpeg applies a phone's rotation tag), its short side at most
    /// `shortSide` (its own when smaller); nil when ffmpeg read the file and found no frame to
    /// give. A file ffmpeg cannot read at all (a broken or fake video) is `corruptFile`.
    /// `program` and `timeout` are for tests (a program that hangs).
    static func frame(of path: RawPath, shortSide: Int, format: String = "video", program: String = "ffmpeg",
                      timeout: Int = timeout) throws(DecodeError) -> RGBImage? {
        let side = min(max(16, shortSide), maxShortSide)
        var readable = false
        for seek in ["1", nil] {
            switch try run(path, seek: seek, shortSide: side, program: program, timeout: timeout) {
            case .frame(let image): return image
            case .noFrame: readable = true
            case .failed: break
            }
        }
        if !readable { throw .corruptFile(format: format, "ffmpeg cannot read it") }
        return nil
    }

    enum Outcome { case frame(RGBImage), noFrame, failed }

    private static func run(_ path: RawPath, seek: String?, shortSide: Int, program: String, timeout: Int) throws(DecodeError) -> Outcome {
        // The short side brought down to `shortSide`, never up; -2 keeps the shape with an even size.
        let scale = "scale='if(lt(iw,ih),min(iw,\(shortSide)),-2)':'if(lt(iw,ih),-2,min(ih,\(shortSide)))'"
        // "file:" so that a name with a colon is not read as another protocol (http:, concat:...).
        var arguments = [program, "-nostdin", "-hide_banner", "-loglevel", "error", "-threads", "1", "-filter_threads", "1"]
        if let seek { arguments += ["-ss", seek] }
        let all = arguments.map { Array($0.utf8) } + [Array("-i".utf8), Array("file:".utf8) + path.bytes]
            + ["-an", "-sn", "-frames:v", "1", "-vf", scale, "-f", "image2pipe", "-c:v", "ppm", "-"].map { Array($0.utf8) }
        let flag = CancelFlag.current
        switch ChildProcess.output(all, timeout: timeout, limit: maxOutput, ownSession: true, cancelled: { flag?.isCancelled == true }) {
        case .success(let output): return parsePPM(output).map { .frame($0) } ?? .noFrame
        case .failure(.cancelled): throw .cancelled
        case .failure(.timedOut): throw .unreadable("ffmpeg took longer than \(timeout / 1000) s")
        case .failure(.tooLarge): throw .tooLarge
        case .failure(.notStarted(let reason)): throw .unreadable("ffmpeg: " + reason)
        case .failure(.failed): return .failed
        }
    }

    /// Whether `ffprobe` (ffmpeg's, in the same package) is on the PATH.
    package static let probeIsInstalled = ChildProcess.isRunnable("ffprobe", path: Environment.value("PATH"))

    /// A video's pixel size as shown (a phone's rotation applied) and its length, for the
    /// details panel; nil without ffprobe or when it cannot read the file.
    static func info(of path: RawPath, program: String = "ffprobe") -> PhotoInfo? {
        guard program != "ffprobe" || probeIsInstalled else { return nil }
        let arguments = [program, "-v", "error", "-select_streams", "v:0", "-show_entries",
                         "stream=width,height:stream_side_data=rotation:format=duration", "-of", "default=noprint_wrappers=1"]
        let all = arguments.map { Array($0.utf8) } + [Array("file:".utf8) + path.bytes]
        guard case .success(let output) = ChildProcess.output(all, timeout: timeout, limit: 64 << 10, ownSession: true) else { return nil }
        var values: [String: String] = [:]
        for line in String(decoding: output, as: UTF8.self).split(separator: "\n") {
            let parts = line.split(separator: "=", maxSplits: 1)
            if parts.count == 2, values[String(parts[0])] == nil { values[String(parts[0])] = String(parts[1]) }
        }
        var info = PhotoInfo()
        if let width = values["width"].flatMap({ Int($0) }), let height = values["height"].flatMap({ Int($0) }), width > 0, height > 0 {
            let turned = values["rotation"].flatMap { Int($0) }.map { abs($0) % 180 == 90 } ?? false
            (info.width, info.height) = turned ? (height, width) : (width, height)
        }
        if let seconds = values["duration"].flatMap({ Double($0) }), seconds.isFinite, seconds >= 0 { info.duration = seconds }
        return info.width == nil && info.duration == nil ? nil : info
    }

    /// A binary PPM (P6, 8 bits), as ffmpeg writes it: "P6\nW H\n255\n" and the pixels.
    package static func parsePPM(_ data: [UInt8]) -> RGBImage? {
        var fields: [Int] = [], at = 2
        guard data.starts(with: Array("P6".utf8)) else { return nil }
        while fields.count < 3 {
            while at < data.count, data[at] == 0x20 || data[at] == 0x0A || data[at] == 0x0D || data[at] == 0x09 { at += 1 }
            var value = 0, digits = 0
            while at < data.count, (0x30...0x39).contains(data[at]), digits < 6 {
                value = value * 10 + Int(data[at] - 0x30); at += 1; digits += 1
            }
            guard digits > 0 else { return nil }
            fields.append(value)
        }
        at += 1
        let (width, height) = (fields[0], fields[1])
        guard fields[2] == 255, width > 0, height > 0, at + width * height * 3 <= data.count else { return nil }
        return RGBImage(width: width, height: height, pixels: Array(data[at..<(at + width * height * 3)]))
    }
}
