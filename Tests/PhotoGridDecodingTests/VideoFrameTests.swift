import Foundation
import Glibc
import Testing
@testable import PhotoGridCore
@testable import PhotoGridDecoding
@testable import PhotoGridGallery
@testable import PhotoGridModel
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// Video frames taken by ffmpeg (`VideoFrame`): the frame a second in, or the first of a shorter
/// video, scaled down as asked; a broken video keeps its labelled tile; an ffmpeg that hangs is
/// killed. `scripts/setup --test` installs ffmpeg, which also makes the test videos.
@Suite(.serialized) struct VideoFrameTests {
    static let installed = VideoFrame.isInstalled

    /// A video of one colour made by ffmpeg's own sources: `seconds` long, `width`x`height`.
    static func makeVideo(_ path: String, color: String, width: Int, height: Int, seconds: Double, codec: [String] = ["-c:v", "mpeg4"]) throws {
        let result = try Subprocess.run(["ffmpeg", "-nostdin", "-v", "error", "-y", "-f", "lavfi",
                                         "-i", "color=c=\(color):s=\(width)x\(height):r=25:d=\(seconds)"] + codec + [path])
        #expect(result.status == 0, "ffmpeg could not make \(path)")
    }

    func photo(_ path: String) throws -> Photo {
        try #require(try FolderScanner().scan(RawPath(path).parent).first { $0.source.description == path })
    }

    func mean(_ image: RGBImage) -> (Int, Int, Int) {
        var sums = [0, 0, 0]
        for i in stride(from: 0, to: image.pixels.count, by: 3) { for c in 0..<3 { sums[c] += Int(image.pixels[i + c]) } }
        let n = max(1, image.pixels.count / 3)
        return (sums[0] / n, sums[1] / n, sums[2] / n)
    }

    @Test(.startsPrograms, .enabled(if: installed, "ffmpeg is not installed"))
    func aVideosTileIsAFrameOfIt() throws {
        let folder = TestImages.scratchFolder("video")
        defer { TestImages.remove(folder) }
        try Self.makeVideo(folder + "/red.mp4", color: "red", width: 640, height: 360, seconds: 3)
        // Shorter than the second a frame is taken at: its first frame.
        try Self.makeVideo(folder + "/blue.webm", color: "blue", width: 200, height: 300, seconds: 0.4, codec: ["-c:v", "libvpx"])
        let decoded = try PhotoDecoder().image(of: try photo(folder + "/red.mp4"), covering: 120, atMost: 180)
        #expect(decoded.image.height == 180 && decoded.image.width == 320, "\(decoded.image.width)x\(decoded.image.height)")
        #expect(!decoded.isComplete)
        let (r, g, b) = mean(decoded.image)
        #expect(r > 200 && g < 40 && b < 40, "\(r) \(g) \(b)")
        // Its own size when smaller than asked: the whole of it.
        let small = try PhotoDecoder().image(of: try photo(folder + "/blue.webm"), covering: 400, atMost: 800)
        #expect(small.image.width == 200 && small.image.height == 300 && small.isComplete)
        let (r2, g2, b2) = mean(small.image)
        #expect(b2 > 200 && r2 < 40 && g2 < 40, "\(r2) \(g2) \(b2)")
        #expect(PhotoDecoder().info(of: try photo(folder + "/red.mp4"))?.width == (VideoFrame.probeIsInstalled ? 640 : nil))
    }

    /// A file named as a video that ffmpeg cannot read (cut after its first box, text, 19 bytes
    /// of noise) says it is broken: "MP4 video: Enter plays it" promised what Enter cannot do.
    @Test(.startsPrograms, .enabled(if: installed, "ffmpeg is not installed"))
    func aBrokenVideoSaysItIsBroken() throws {
        let folder = TestImages.scratchFolder("video")
        defer { TestImages.remove(folder) }
        TestImages.write([0, 0, 0, 24] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("mp42isom".utf8), to: folder + "/cut.mp4")
        TestImages.write(Array("not a video at all\n".utf8), to: folder + "/text.mkv")
        TestImages.write((0..<19).map { UInt8(truncatingIfNeeded: $0 &* 97 &+ 13) }, to: folder + "/broken.mp4")
        for (name, label) in [("cut.mp4", "MP4 video"), ("text.mkv", "Matroska video"), ("broken.mp4", "MP4 video")] {
            #expect(throws: DecodeError.corruptFile(format: label, "ffmpeg cannot read it")) {
                try PhotoDecoder().image(of: try self.photo(folder + "/" + name), covering: 100, atMost: 200)
            }
        }
        #expect(DecodeError.corruptFile(format: "MP4 video", "").reason == "corrupt MP4 video")
        #expect(DecodeError.unsupportedFormat("MP4 video").reason == "MP4 video: Enter plays it", "without ffmpeg")
        // `--print` says the same of it, and shows a good one's frame as the grid does.
        try Self.makeVideo(folder + "/red.mp4", color: "red", width: 320, height: 240, seconds: 2)
        let broken = try Subprocess.run([Paths.binary, "--print", "--mode", "halfblock", "--size", "40x12", folder + "/broken.mp4"])
        #expect(broken.status != 0 && broken.errorText.contains("corrupt MP4 video"), "\(broken.errorText)")
        let good = try Subprocess.run([Paths.binary, "--print", "--mode", "halfblock", "--size", "40x12", folder + "/red.mp4"],
                                      environment: ["COLORTERM": "truecolor"])
        #expect(good.status == 0 && redCells(String(decoding: good.output, as: UTF8.self)) > 5, "\(good.errorText)")
    }

    /// A video's details: its size as shown and its length, from ffprobe.
    @Test(.startsPrograms, .enabled(if: installed && VideoFrame.probeIsInstalled, "ffmpeg is not installed"))
    func aVideosDetailsSayItsSizeAndLength() throws {
        let folder = TestImages.scratchFolder("video")
        defer { TestImages.remove(folder) }
        try Self.makeVideo(folder + "/clip.mp4", color: "green", width: 320, height: 240, seconds: 3)
        let info = try #require(PhotoDecoder.readInfo(try photo(folder + "/clip.mp4")))
        #expect(info.width == 320 && info.height == 240)
        #expect(abs((info.duration ?? 0) - 3) < 0.2, "\(String(describing: info.duration))")
        #expect(GridController.durationText(3.04) == "0:03" && GridController.durationText(3723) == "1:02:03")
    }

    /// In the grid, in tmux: the video's tile is its frame (red cells) with the `video` badge,
    /// and a broken one keeps its label with the badge too.
    @Test(.startsPrograms, .enabled(if: installed, "ffmpeg is not installed"))
    func theGridShowsAFrameAndABadge() throws {
        let folder = TestImages.scratchFolder("video")
        defer { TestImages.remove(folder) }
        try Self.makeVideo(folder + "/a-red.mp4", color: "red", width: 320, height: 240, seconds: 2)
        TestImages.write([0, 0, 0, 24] + Array("ftypmp42".utf8) + [0, 0, 0, 0] + Array("mp42isom".utf8), to: folder + "/b-cut.mp4")
        let tmux = try Tmux(columns: 80, rows: 24, command: "\(Paths.binary) --mode halfblock --columns 2 '\(folder)'",
                            environment: ["COLORTERM": "truecolor"])
        let (ok, screen) = try tmux.waitFor(escapes: true) { screen in
            screen.contains("corrupt MP4") && self.redCells(screen) > 10
        }
        #expect(ok, "no frame: \(self.redCells(screen)) red cells")
        let text = try tmux.screen()
        // The broken one's reason and both badges.
        #expect(text.components(separatedBy: "video").count - 1 == 3, "badges: \(text)")
    }

    /// Colour changes to red (foreground or background): a run of red cells is one.
    func redCells(_ screen: String) -> Int {
        var count = 0
        for part in screen.components(separatedBy: ";2;").dropFirst() {
            let values = part.split(whereSeparator: { !$0.isNumber }).prefix(3).compactMap { Int($0) }
            if values.count == 3, values[0] > 200, values[1] < 40, values[2] < 40 { count += 1 }
        }
        return count
    }

    @Test func ppmIsReadAsFfmpegWritesIt() {
        let ppm = Array("P6\n2 1\n255\n".utf8) + [255, 0, 0, 0, 0, 255]
        let image = VideoFrame.parsePPM(ppm)
        #expect(image?.width == 2 && image?.height == 1 && image?.pixels == [255, 0, 0, 0, 0, 255])
        #expect(VideoFrame.parsePPM(Array(ppm.dropLast())) == nil)
        #expect(VideoFrame.parsePPM(Array("P6\n99999999 1\n255\n".utf8)) == nil)
        #expect(VideoFrame.parsePPM(Array("P3\n1 1\n255\n1 2 3".utf8)) == nil)
    }
}
