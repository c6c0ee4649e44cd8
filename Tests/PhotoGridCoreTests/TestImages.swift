@testable import PhotoGridCore
import Glibc

/// Synthetic images and scratch folders for the tests.
enum TestImages {
    /// Four coloured quadrants (red, green / blue, yellow): any turn or flip moves the colours.
    static func quadrants(width: Int, height: Int) -> RGBImage {
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
    static func gradient(width: Int, height: Int) -> RGBImage {
        var image = RGBImage(width: width, height: height)
        for y in 0..<height {
            for x in 0..<width {
                image[x, y] = RGB(UInt8(x * 255 / max(1, width - 1)), UInt8(y * 255 / max(1, height - 1)),
                                  UInt8((x + y) * 127 / max(1, width + height - 2)))
            }
        }
        return image
    }

    static func meanAbsoluteError(_ a: RGBImage, _ b: RGBImage) -> Double {
        precondition(a.width == b.width && a.height == b.height, "\(a.width)x\(a.height) vs \(b.width)x\(b.height)")
        var total = 0
        for i in 0..<a.pixels.count { total += abs(Int(a.pixels[i]) - Int(b.pixels[i])) }
        return Double(total) / Double(a.pixels.count)
    }

    /// A new empty folder under /tmp, removed by `remove`.
    static func scratchFolder(_ name: String) -> String {
        var template = Array("/tmp/photogrid-test-\(name)-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return path
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        precondition(fd >= 0, "cannot create \(path)")
        _ = bytes.withUnsafeBytes { Glibc.write(fd, $0.baseAddress!, $0.count) }
        close(fd)
    }

    static func remove(_ path: String) {
        _ = system("rm -rf '\(path)'")
    }
}
