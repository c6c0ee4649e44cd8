import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The xterm 256-colour palette as most terminals define it: a 6x6x6 cube (16-231) and a grey
/// ramp (232-255). The first 16 are left out: themes redefine them.
package enum XtermPalette {
    static let levels: [Int] = [0, 95, 135, 175, 215, 255]

    package static func color(_ index: Int) -> RGB {
        if index >= 232 {
            let v = UInt8(8 + 10 * (index - 232))
            return RGB(v, v, v)
        }
        let i = max(0, index - 16)
        return RGB(UInt8(levels[i / 36]), UInt8(levels[(i / 6) % 6]), UInt8(levels[i % 6]))
    }

    /// The nearest palette entry (16-255) to `c`, by squared RGB distance.
    package static func nearest(_ c: RGB) -> Int {
        let r = nearestLevel(Int(c.r)), g = nearestLevel(Int(c.g)), b = nearestLevel(Int(c.b))
        let cube = 16 + 36 * r + 6 * g + b
        let average = (Int(c.r) + Int(c.g) + Int(c.b)) / 3
        let grey = 232 + max(0, min(23, (average - 3) / 10))
        return distance(c, color(grey)) < distance(c, color(cube)) ? grey : cube
    }

    @inline(__always)
    static func nearestLevel(_ v: Int) -> Int {
        // Midpoints between 0, 95, 135, 175, 215, 255.
        v < 48 ? 0 : v < 115 ? 1 : (v - 35) / 40
    }

    @inline(__always)
    static func distance(_ a: RGB, _ b: RGB) -> Int {
        let dr = Int(a.r) - Int(b.r), dg = Int(a.g) - Int(b.g), db = Int(a.b) - Int(b.b)
        return dr * dr + dg * dg + db * db
    }
}
