import Foundation
import Glibc
import Testing
@testable import PhotoGridDecoding
@testable import PhotoGridModel
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Animated GIFs and WebPs, made here with ImageMagick and img2webp from frames of a sample photo
/// with a square moving over it: each frame decodes to the picture ImageMagick composes of it
/// (the GIF optimised so that its frames are rectangles with transparency and every way of
/// giving them back), at the file's timing; and in the photo view the picture moves.
@Suite(.serialized) struct AnimationTests {
    static let tools = ["convert", "img2webp"].allSatisfy { (try? Subprocess.run(["sh", "-c", "command -v \($0)"]))?.status == 0 }
    static let source = Paths.root + "/sample-gallery/landscapes/autumn-01.jpg"

    func run(_ arguments: [String]) throws { try TestImages.runTool(arguments) }
    func ppm(_ path: String) throws -> RGBImage { try TestImages.readPPM(path) }

    /// Six frames of 96x64: the photo, a red square a little further right in each.
    func makeFrames(_ folder: String) throws -> [String] {
        try run(["convert", Self.source, "-resize", "96x64!", folder + "/back.png"])
        return try (0..<6).map { i in
            let path = folder + "/f\(i).png"
            try run(["convert", folder + "/back.png", "-fill", "red", "-draw", "rectangle \(8 + i * 12),20 \(24 + i * 12),36", path])
            return path
        }
    }

    func frames(_ path: String) throws -> [Animation.Frame] {
        var frames: [Animation.Frame] = []
        let data = try #require(TestImages.read(path))
        try Animation.frames(data) { frames.append($0); return true }
        return frames
    }

    @Test(.enabled(if: AnimationTests.tools, "ImageMagick or webp (img2webp) is not installed"))
    func gifFramesAreComposedAsImageMagickComposesThem() throws {
        let folder = TestImages.scratchFolder("anim-gif")
        defer { TestImages.remove(folder) }
        let sources = try makeFrames(folder)
        // Optimize keeps only the rectangle that changes; OptimizeTransparency makes what does not
        // change transparent. Then a square drawn in small frames over the first, each given back
        // to what was there before, or to the background (a hole the grey shows through).
        try run(["convert", "-size", "17x17", "xc:red", folder + "/square.png"])
        let squares = [8, 20, 32].flatMap { ["-page", "+\($0)+20", folder + "/square.png"] }
        let files: [(String, [String], Int)] = [
            ("optimized.gif", sources + ["-layers", "Optimize"], 6),
            ("transparent.gif", sources + ["-layers", "OptimizeTransparency"], 6),
            ("previous.gif", ["-dispose", "None", folder + "/back.png", "-dispose", "Previous"] + squares, 4),
            ("background.gif", ["-dispose", "None", folder + "/back.png", "-dispose", "Background"] + squares, 4),
        ]
        for (name, options, count) in files {
            let path = folder + "/" + name
            try run(["convert", "-delay", "7"] + options + ["-loop", "0", path])
            let decoded = try frames(path)
            #expect(decoded.count == count, "\(name): \(decoded.count) frames")
            try run(["convert", path, "-coalesce", "-background", "rgb(128,128,128)", "-alpha", "remove", "-depth", "8", folder + "/ref-%d.ppm"])
            for (i, frame) in decoded.enumerated() {
                let reference = try ppm(folder + "/ref-\(i).ppm")
                #expect(frame.milliseconds == 70)
                #expect(frame.image.width == reference.width && frame.image.height == reference.height)
                guard frame.image.width == reference.width && frame.image.height == reference.height else { continue }
                let error = TestImages.meanAbsoluteError(frame.image, reference)
                #expect(error < 0.5, "\(name) frame \(i): mean difference \(error)")
            }
        }
        // A frame time of 0 is shown for 100 ms, as browsers show it; a still GIF has no frames.
        try run(["convert", "-delay", "0"] + sources.prefix(2) + ["-loop", "0", folder + "/fast.gif"])
        #expect(try frames(folder + "/fast.gif").map(\.milliseconds) == [100, 100])
        try run(["convert", sources[0], folder + "/still.gif"])
        #expect(try frames(folder + "/still.gif").count == 1)
    }

    @Test(.enabled(if: AnimationTests.tools, "ImageMagick or webp (img2webp) is not installed"))
    func webpFramesAreThePicturesTheyWereMadeOf() throws {
        let folder = TestImages.scratchFolder("anim-webp")
        defer { TestImages.remove(folder) }
        let sources = try makeFrames(folder)
        let path = folder + "/moving.webp"
        // Lossless, each frame shown 70 ms; img2webp keeps only what changes between frames.
        try run(["img2webp", "-loop", "0", "-lossless", "-d", "70"] + sources + ["-o", path])
        let decoded = try frames(path)
        #expect(decoded.count == 6)
        for (i, frame) in decoded.enumerated() {
            try run(["convert", sources[i], "-depth", "8", folder + "/ref.ppm"])
            let error = TestImages.meanAbsoluteError(frame.image, try ppm(folder + "/ref.ppm"))
            #expect(error < 0.5, "frame \(i): mean difference \(error)")
            #expect(frame.milliseconds == 70)
        }
        // A still WebP has none.
        try run(["convert", sources[0], folder + "/still.webp"])
        #expect(try frames(folder + "/still.webp").isEmpty)
    }

    /// An AV1 image sequence as ffmpeg writes it, 5 frames a second: each frame near the picture
    /// it was made of (lossy), 200 ms each; a still AVIF has none.
    @Test(.enabled(if: AnimationTests.tools && AVIF.isAvailable && AnimationTests.ffmpeg, "ImageMagick, ffmpeg or libavif is not installed"))
    func avifSequenceFramesAreThePicturesTheyWereMadeOf() throws {
        let folder = TestImages.scratchFolder("anim-avif")
        defer { TestImages.remove(folder) }
        let sources = try makeFrames(folder)
        let path = folder + "/moving.avif"
        try run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-framerate", "5", "-i", folder + "/f%d.png",
                 "-c:v", "libaom-av1", "-cpu-used", "8", "-crf", "20", "-pix_fmt", "yuv444p", path])
        let decoded = try frames(path)
        #expect(decoded.count == 6)
        for (i, frame) in decoded.enumerated() {
            try run(["convert", sources[i], "-depth", "8", folder + "/ref.ppm"])
            let error = TestImages.meanAbsoluteError(frame.image, try ppm(folder + "/ref.ppm"))
            #expect(error < 6, "frame \(i): mean difference \(error)")
            #expect(frame.milliseconds == 200)
        }
        try run(["ffmpeg", "-hide_banner", "-loglevel", "error", "-y", "-i", sources[0], "-c:v", "libaom-av1", "-still-picture", "1", folder + "/still.avif"])
        #expect(try frames(folder + "/still.avif").isEmpty)
    }

    static let ffmpeg = (try? Subprocess.run(["sh", "-c", "command -v ffmpeg"]))?.status == 0

    /// As a user sees it, in tmux: Enter on an animated GIF, and the square moves; the status
    /// line says how many frames play; zoomed in, the picture holds still.
    @Test(.enabled(if: AnimationTests.tools, "ImageMagick or webp (img2webp) is not installed"))
    func anAnimatedGIFMovesInThePhotoView() throws {
        let folder = TestImages.scratchFolder("anim-view")
        defer { TestImages.remove(folder) }
        let sources = try makeFrames(folder)
        try FileManager.default.createDirectory(atPath: folder + "/photos", withIntermediateDirectories: true)
        try run(["convert", "-delay", "20"] + sources + ["-layers", "OptimizePlus", "-loop", "0", folder + "/photos/moving.gif"])
        let tmux = try Tmux(columns: 100, rows: 30, command: "\(Paths.binary) --mode halfblock \(folder)/photos",
                            environment: ["COLORTERM": "truecolor", "XDG_CACHE_HOME": folder + "/cache"])
        var (ok, screen) = try tmux.waitFor { $0.contains("1 of 1") }
        #expect(ok, "\(screen)")
        try tmux.send("Enter")
        (ok, screen) = try tmux.waitFor { $0.contains("6 frames") }
        #expect(ok, "\(screen)")
        // Different pictures while it plays: the screen with its colours, seen changing.
        var seen: Set<String> = [try tmux.screen(escapes: true)]
        for _ in 0..<2 {
            let (changed, picture) = try tmux.waitFor(seconds: 5, escapes: true) { !seen.contains($0) }
            #expect(changed, "the picture stood still")
            seen.insert(picture)
        }
        try tmux.send("+")
        (ok, screen) = try tmux.waitFor { $0.contains("zoom") && !$0.contains("frames") }
        #expect(ok, "zoomed in: \(screen)")
        try tmux.send("q", "q")
        #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
    }
}
