import Foundation
import Glibc
import Testing
@testable import PhotoGridCanvas
@testable import PhotoGridDecoding
@testable import PhotoGridSystem
import PhotoGridTestFixtures

/// A listing's originals are not downloaded whole for tiles their EXIF thumbnails cover: their
/// first 64 KB are asked for, and the whole file only for a tile that needs more (issue 36).
@Suite(.startsPrograms, .serialized) struct HeadRangeTests {
    @Test(.enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"))
    func smallTilesComeFromTheHeadsAndLargeOnesFromTheWholeFile() throws {
        let root = RemotePaths.scratch("heads")
        defer { try? FileManager.default.removeItem(atPath: root) }
        chmod(root, 0o755)
        // The sample gallery's photos larger than 64 KB with EXIF thumbnails (160x120).
        let names = ["landscapes/lake-02.jpg", "landscapes/mountains-05.jpg", "travel/beach-03.jpg", "travel/sunset-04.jpg"]
        for name in names {
            let copy = root + "/" + RawPath(name).lastComponent.description
            try FileManager.default.copyItem(atPath: RemotePaths.gallery + "/" + name, toPath: copy)
            chmod(copy, 0o644)
        }
        try Nginx.serving(root, autoindex: "on", log: "$request_uri $status $body_bytes_sent") { port, prefix in
            func requests() -> [(uri: String, status: Int, bytes: Int)] { Nginx.jpegRequests(prefix) }
            // Half-block tiles of 25 columns: 25 pixels wide, which the thumbnails cover.
            let small = RemotePaths.scratch("heads-small")
            defer { try? FileManager.default.removeItem(atPath: small) }
            let text = try RemotePaths.print(["--mode", "halfblock", "--size", "100x30", "--columns", "4", "--url", "http://127.0.0.1:\(port)/"],
                                             cacheHome: small)
            #expect(text.status == 0, "\(text.errorText)")
            let heads = requests()
            #expect(heads.count == 4 && heads.allSatisfy { $0.status == 206 && $0.bytes <= 65536 }, "\(heads)")
            // Sixel tiles 300 pixels wide: more than a thumbnail has; the whole files are asked for.
            let large = RemotePaths.scratch("heads-large")
            defer { try? FileManager.default.removeItem(atPath: large) }
            let pictures = try RemotePaths.print(["--mode", "sixel", "--size", "120x40", "--cell-size", "10x20", "--columns", "5",
                                                  "--url", "http://127.0.0.1:\(port)/"], cacheHome: large)
            #expect(pictures.status == 0, "\(pictures.errorText)")
            let whole = requests().dropFirst(heads.count).filter { $0.status == 200 }
            #expect(whole.count == 4, "\(requests())")
        }
    }

    /// Progressive JPEGs without thumbnails: their first scans, in the head, hold the picture at
    /// an eighth of its size, which small tiles need. Other formats in the same listing (a PNG, a
    /// HEIC) are asked for whole and shown, not refused for what their heads are.
    @Test(.enabled(if: Nginx.path != nil, "nginx is not installed (scripts/setup --test installs it)"))
    func progressiveHeadsServeSmallTilesAndOtherFormatsComeWhole() throws {
        let root = RemotePaths.scratch("heads-progressive")
        defer { try? FileManager.default.removeItem(atPath: root) }
        chmod(root, 0o755)
        let progressive = ["landscapes/lake-03.jpg", "landscapes/misty-04.jpg", "night/night-03.jpg", "travel/lavender-04.jpg"]
        let others = ["other-formats/IMG_4032.HEIC", "other-formats/screenshot-01.png"]
        for name in progressive + others {
            let copy = root + "/" + RawPath(name).lastComponent.description
            try FileManager.default.copyItem(atPath: RemotePaths.gallery + "/" + name, toPath: copy)
            chmod(copy, 0o644)
        }
        try Nginx.serving(root, autoindex: "on", log: "$request_uri $status $body_bytes_sent") { port, prefix in
            let home = RemotePaths.scratch("heads-progressive-client")
            defer { try? FileManager.default.removeItem(atPath: home) }
            let printed = try RemotePaths.print(["--mode", "halfblock", "--size", "120x30", "--columns", "6", "--labels",
                                                 "--url", "http://127.0.0.1:\(port)/"], cacheHome: home)
            #expect(printed.status == 0, "\(printed.errorText)")
            let text = String(decoding: printed.output, as: UTF8.self)
            #expect(!text.contains("unsupported") && !text.contains("HEIF") && !text.contains("PNG"), "\(text)")
            let log = (try? String(contentsOfFile: prefix + "/access.log", encoding: .utf8)) ?? ""
            let requests = log.split(separator: "\n").map { $0.split(separator: " ").map(String.init) }.filter { $0.count == 3 }
            for name in progressive.map({ RawPath($0).lastComponent.description }) {
                let asked = requests.filter { $0[0] == "/" + name }
                #expect(asked.count == 1 && asked.first?[1] == "206", "\(name): \(asked)")
            }
            // The PNG asked for whole at once; the HEIC (56 KB) is whole in its first range.
            #expect(requests.filter { $0[0] == "/screenshot-01.png" }.map { $0[1] } == ["200"], "\(requests)")
            #expect(requests.filter { $0[0] == "/IMG_4032.HEIC" }.count == 1, "\(requests)")
        }
    }
}
