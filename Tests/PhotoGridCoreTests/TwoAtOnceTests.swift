import Foundation
import Glibc
import Testing
@testable import PhotoGridMetadata
import PhotoGridTestFixtures
import PhotoGridSystem
import PhotoGridTestSupport

/// Two photogrid processes on one folder and one cache for a minute, as two terminals on one
/// card: both rating the same photos as fast as keys come, moving about and redrawing. No sidecar
/// is torn (each reads whole with a rating in it), each photo's rating is the one written last,
/// and after Ctrl-R each grid says it for the photo in focus.
@Suite(.startsPrograms, .serialized) struct TwoAtOnceTests: PhotogridInTmux {
    /// Seconds of keys; `PHOTOGRID_TWO_SECONDS` to run longer or shorter.
    static let seconds = Double(ProcessInfo.processInfo.environment["PHOTOGRID_TWO_SECONDS"] ?? "") ?? 60

    @Test func twoProcessesRatingOneFolderTearNothingAndSeeEachOther() throws {
        let folder = TestImages.scratchFolder("two-at-once")
        defer { TestImages.remove(folder) }
        let photos = (1...8).map { "IMG_\($0).jpg" }
        let samples = try FileManager.default.contentsOfDirectory(atPath: Paths.gallery + "/landscapes").filter { $0.hasSuffix(".jpg") }.sorted()
        for (index, name) in photos.enumerated() {
            TestImages.write(try #require(TestImages.read(Paths.gallery + "/landscapes/" + samples[index % samples.count])), to: folder + "/" + name)
        }
        let environment = ["XDG_CACHE_HOME": folder + "/.cache", "XDG_DATA_HOME": folder + "/.data"]
        let one = try start("--no-stacks --columns 4 '\(folder)'", environment: environment)
        let two = try start("--no-stacks --columns 3 '\(folder)'", environment: environment)
        for tmux in [one, two] {
            let (ok, screen) = try tmux.waitFor { self.status($0).contains("1 of 8") }
            #expect(ok, "\(screen)")
        }
        // Random keys from each: a photo, a rating, now and then a redraw or a rescan.
        var generator = SystemRandomNumberGenerator()
        let deadline = SystemClock().seconds() + Self.seconds
        var keys = 0
        while SystemClock().seconds() < deadline {
            for tmux in [one, two] {
                let moves = ["l", "h", "j", "k", "g", "G"]
                var sent = [moves.randomElement(using: &generator)!, "R", String(Int.random(in: 1...5, using: &generator))]
                if Int.random(in: 0..<20, using: &generator) == 0 { sent.append(Bool.random(using: &generator) ? "C-l" : "C-r") }
                try tmux.send(sent)
                keys += sent.count
            }
            usleep(20_000)
        }
        _ = one.waitForQuiet(1)
        _ = two.waitForQuiet(1)
        // Every sidecar whole, with a rating in it.
        var rated = 0
        for name in photos {
            guard let bytes = TestImages.read(folder + "/" + name + ".xmp") else { continue }
            rated += 1
            #expect(XMPRating.read(bytes).map { (1...5).contains($0) } == true, "\(name).xmp: \(String(decoding: bytes, as: UTF8.self))")
            #expect(String(decoding: bytes, as: UTF8.self).hasSuffix("<?xpacket end=\"w\"?>\n") || String(decoding: bytes, as: UTF8.self).contains("</x:xmpmeta>"))
        }
        #expect(rated >= 4, "only \(rated) photos were rated by \(keys) keys")
        let leftovers = try FileManager.default.contentsOfDirectory(atPath: folder).filter { $0.contains(".photogrid-") }
        #expect(leftovers.isEmpty, "\(leftovers)")
        // Each, after Ctrl-R, says for each photo the rating its sidecar holds now.
        for tmux in [one, two] {
            try tmux.send("C-r", "g")
            for (index, name) in photos.enumerated() {
                let rating = TestImages.read(folder + "/" + name + ".xmp").flatMap(XMPRating.read)
                let words = rating.map { $0 == 1 ? "1 star" : "\($0) stars" }
                let (ok, screen) = try tmux.waitFor(seconds: 5) { screen in
                    let line = self.status(screen)
                    return line.contains("\(index + 1) of 8") && line.contains(name) && (words.map { line.contains($0) } ?? !line.contains("star"))
                }
                #expect(ok, "\(name) rated \(rating.map(String.init) ?? "none") in its sidecar: \(status(screen))")
                try tmux.send("l")
            }
            try tmux.send("q")
        }
    }
}
