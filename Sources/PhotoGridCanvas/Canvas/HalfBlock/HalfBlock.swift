import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// Draws pixels with U+2580 UPPER HALF BLOCK: each cell shows two pixels, the upper one in the
/// foreground colour and the lower one in the background colour.
package enum HalfBlock {
    package typealias Colors = TextColors

    static let upperHalf: [UInt8] = [0xE2, 0x96, 0x80]
    static let reset: [UInt8] = Array("\u{1B}[0m".utf8)

    /// One line of bytes per cell row (`image.height / 2` rounded up); each line draws
    /// `image.width` cells and ends with the colours reset.
    ///
    /// Bytes are appended as they go, with no strings on the way: a warm start of a screen
    /// of half-block tiles spent a third of its encode making and joining little strings.
    package static func encode(_ image: RGBImage, colors: Colors) -> [[UInt8]] {
        let rows = (image.height + 1) / 2
        var lines: [[UInt8]] = []
        lines.reserveCapacity(rows)
        for row in 0..<rows {
            var line: [UInt8] = []
            line.reserveCapacity(image.width * 24)
            var foreground: Shade? = nil, background: Shade? = nil
            for x in 0..<image.width {
                // Compared as shown, so that colours one palette entry draws are one colour.
                let top = Shade(image[x, 2 * row], colors)
                let bottom = 2 * row + 1 < image.height ? Shade(image[x, 2 * row + 1], colors) : top
                let newTop = top != bottom && top != foreground
                let newBottom = bottom != background
                if newTop || newBottom {
                    line.append(0x1B)
                    line.append(UInt8(ascii: "["))
                    if newTop { top.append(to: &line, foreground: true); foreground = top }
                    if newTop && newBottom { line.append(UInt8(ascii: ";")) }
                    if newBottom { bottom.append(to: &line, foreground: false); background = bottom }
                    line.append(UInt8(ascii: "m"))
                }
                // A cell of one colour is a space on that background: fewer bytes, same pixels.
                if top == bottom { line.append(UInt8(ascii: " ")) } else { line += upperHalf }
            }
            line += reset
            lines.append(line)
        }
        return lines
    }

    /// A colour as this mode writes it: the pixel itself in 24-bit, else its palette entry
    /// (each entry is one colour, so equal entries are equal colours on screen).
    struct Shade: Equatable {
        let value: UInt32
        let palette: Bool

        init(_ c: RGB, _ colors: Colors) {
            palette = colors == .palette256
            value = palette ? UInt32(XtermPalette.nearest(c)) : UInt32(c.r) << 16 | UInt32(c.g) << 8 | UInt32(c.b)
        }

        /// `38;2;r;g;b` or `38;5;n` (48 for the background).
        func append(to line: inout [UInt8], foreground: Bool) {
            line.append(UInt8(ascii: foreground ? "3" : "4"))
            line.append(UInt8(ascii: "8"))
            line.append(UInt8(ascii: ";"))
            if palette {
                line.append(UInt8(ascii: "5"))
                line.append(UInt8(ascii: ";"))
                Shade.decimal(Int(value), to: &line)
            } else {
                line.append(UInt8(ascii: "2"))
                for shift: UInt32 in [16, 8, 0] {
                    line.append(UInt8(ascii: ";"))
                    Shade.decimal(Int(value >> shift & 0xFF), to: &line)
                }
            }
        }

        /// 0...255 in decimal, as `"\(n)"` writes it.
        @inline(__always)
        static func decimal(_ n: Int, to line: inout [UInt8]) {
            if n >= 100 { line.append(UInt8(48 + n / 100)) }
            if n >= 10 { line.append(UInt8(48 + n / 10 % 10)) }
            line.append(UInt8(48 + n % 10))
        }
    }

    /// `38;2;r;g;b` or `38;5;n` (48 for the background) as text, for the painters' SGR strings.
    static func sgr(_ c: RGB, foreground: Bool, colors: Colors) -> String {
        var bytes: [UInt8] = []
        Shade(c, colors).append(to: &bytes, foreground: foreground)
        return String(decoding: bytes, as: UTF8.self)
    }
}
