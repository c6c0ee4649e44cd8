import Foundation
import Testing
import PhotoGridCore
import PhotoGridCanvas
import PhotoGridDecoding
import PhotoGridMetadata
import PhotoGridGallery
import PhotoGridModel
import PhotoGridPipeline
import PhotoGridSystem
import PhotoGridTerminal
import Glibc
import PhotoGridTestSupport
import PhotoGridLoading
import PhotoGridDiskCache

/// Synthetic images and scratch folders for the tests.
package enum TestImages {
    /// Four coloured quadrants (red, green / blue, yellow): any turn or flip moves the colours.
    package static func quadrants(width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                let left = x < width / 2, top = y < height / 2
                image[x, y] = top ? (left ? RGB(220, 30, 30) : RGB(30, 200, 30)) : (left ? RGB(30, 30, 220) : RGB(230, 220, 40))
            }
        }
        return image
    }

    /// A smooth diagonal gradient, as photos mostly are.
    package static func gradient(width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGB(UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)),
                                  UInt8((x + y) * 127 / max(1, width + height - 2)))
            }
        }
        return image
    }

    package static func meanAbsoluteError(_ a: RGBImage, _ b: RGBImage) -> Double {
        precondition(a.width == b.width && a.height == b.height, "\(a.width)x\(a.height) vs \(b.width)x\(b.height)")
        var total = 0
        for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(total) / Double(a.pixels.count)
    }

    /// Runs a tool that makes a test file (ImageMagick, cjxl...); fails the test with its words
    /// if it fails.
    package static func runTool(_ arguments: [String]) throws {
        let result = try Subprocess.run(arguments)
        try #require(result.status == 0, "\(arguments.joined(separator: " ")): \(result.errorText)")
    }

    /// A PPM as ImageMagick writes it (P6, 8 bits).
    package static func readPPM(_ path: String) throws -> RGBImage {
        let bytes = try #require(read(path))
        return try #require(VideoFrame.parsePPM(bytes), "not a PPM: \(path)")
    }

    /// A new empty folder under /tmp, removed by `remove`.
    package static func scratchFolder(_ name: String) -> String {
        var template = Array("/tmp/photogrid-test-\(name)-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return path
    }

    /// Three of the sample gallery's photos, for a folder of a few.
    package static let threeSamples = [("landscapes/autumn-01.jpg", "a.jpg"), ("landscapes/autumn-02.jpg", "b.jpg"),
                                       ("landscapes/autumn-03.jpg", "c.jpg")]

    /// Photos of the sample gallery copied into `folder` under new names.
    package static func copySamples(_ names: [(String, String)] = threeSamples, into folder: String) {
        for (from, to) in names { write(read(Paths.gallery + "/" + from) ?? [], to: folder + "/" + to) }
    }

    package static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot create \(path)")
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
        close(fd)
    }

    /// A whole file's bytes; nil if it cannot be opened.
    package static func read(_ path: String) -> [UInt8]? {
        let fd = open(path, O_RDONLY)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = [], buffer = [UInt8](repeating: 0, count: 65536)
        while case let n = Glibc.read(fd, &buffer, buffer.count), n > 0 { bytes += buffer[0..<n] }
        return bytes
    }

    package static func remove(_ path: String) {
        _ = system("rm -rf '\(path)'")
    }

    /// Writes `data` (a picture of `source`) under each of `names` in a scratch folder, scans it,
    /// and checks that every file is found, sized from its header, and decoded for what it is.
    package static func expectDecodedWhateverTheName(_ data: [UInt8], of source: RGBImage, names: [String],
                                            sourceLocation: SourceLocation = #_sourceLocation) throws {
        let folder = scratchFolder("named")
        defer { try? FileManager.default.removeItem(atPath: folder) }
        for name in names { try Data(data).write(to: URL(fileURLWithPath: folder + "/" + name)) }
        let photos = try FolderScanner().scan(RawPath(folder))
        #expect(photos.map(\.name).sorted() == names.sorted(), sourceLocation: sourceLocation)
        for photo in photos {
            let info = try #require(PhotoDecoder().info(of: photo), sourceLocation: sourceLocation)
            #expect(info.width == source.width && info.height == source.height, sourceLocation: sourceLocation)
            let decoded = try PhotoDecoder().image(of: photo, covering: 100, atMost: 128).image
            #expect(decoded.height >= 100 && decoded.height <= 128, "\(photo.name): \(decoded.width)x\(decoded.height)",
                    sourceLocation: sourceLocation)
            let expected = PhotoDecoder.scaled(source, shortSide: decoded.height)
            #expect(meanAbsoluteError(PhotoDecoder.scaled(decoded, shortSide: expected.height), expected) < 4, sourceLocation: sourceLocation)
        }
    }
}

extension PhotoDecoder {
    /// A tile straight from JPEG data, without the caches: what the pipeline makes of it.
    package static func tileImage(fromJPEG data: [UInt8], width: Int, height: Int, fit: FitMode) throws(DecodeError) -> RGBImage {
        shape(try decodeUpright(data, atLeast: (width, height), fit: fit), width: width, height: height, fit: fit)
    }
}

extension TestImages {
    /// An executable script at `path`, written by a shell of its own. Written from this process,
    /// a fork by another test at that moment (posix_spawn in a parallel suite) held a copy of the
    /// write descriptor, and running the script then failed with ETXTBSY ("Text file busy").
    package static func writeScript(_ path: String, _ text: String) throws {
        let result = try Subprocess.run(["sh", "-c", "printf '%s' \"$1\" > \"$0\" && chmod 755 \"$0\"", path, text])
        guard result.status == 0 else { throw Failure(description: "could not write \(path): \(result.errorText)") }
    }

    package struct Failure: Error, CustomStringConvertible { package let description: String }
}

extension RenderMode {
    /// The probe chose sixel (the tests ask; photogrid itself never does, `RenderMode.format`).
    package var isSixel: Bool { if case .sixel = self { true } else { false } }
}
