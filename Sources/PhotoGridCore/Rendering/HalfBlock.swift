/// Draws pixels with U+2580 UPPER HALF BLOCK: each cell shows two pixels, the upper one in the
/// foreground colour and the lower one in the background colour.
package enum HalfBlock {
    package enum Colors: String, Hashable, Sendable {
        /// `38;2;r;g;b`, when COLORTERM says truecolor or 24bit.
        case trueColor
        /// The xterm 256-colour palette, everywhere else.
        case palette256
    }

    static let upperHalf: [UInt8] = [0xE2, 0x96, 0x80]
    static let reset: [UInt8] = Array("\u{1B}[0m".utf8)

    /// One line of bytes per cell row (`image.height / 2` rounded up); each line draws
    /// `image.width` cells and ends with the colours reset.
    package static func encode(_ image: RGBImage, colors: Colors) -> [[UInt8]] {
        let rows = (image.height + 1) / 2
        var lines: [[UInt8]] = []
        lines.reserveCapacity(rows)
        for row in 0..<rows {
            var line: [UInt8] = []
            line.reserveCapacity(image.width * 24)
            var foreground: RGB? = nil, background: RGB? = nil
            for x in 0..<image.width {
                // Compared as shown, so that colours one palette entry draws are one colour.
                let top = shown(image[x, 2 * row], colors: colors)
                let bottom = 2 * row + 1 < image.height ? shown(image[x, 2 * row + 1], colors: colors) : top
                var codes: [String] = []
                if top != bottom && top != foreground {
                    codes.append(sgr(top, foreground: true, colors: colors)); foreground = top
                }
                if bottom != background {
                    codes.append(sgr(bottom, foreground: false, colors: colors)); background = bottom
                }
                if !codes.isEmpty { line += Array("\u{1B}[\(codes.joined(separator: ";"))m".utf8) }
                // A cell of one colour is a space on that background: fewer bytes, same pixels.
                if top == bottom { line.append(UInt8(ascii: " ")) } else { line += upperHalf }
            }
            line += reset
            lines.append(line)
        }
        return lines
    }

    /// The colour as the terminal will show it in this mode (palette entries are approximations).
    package static func shown(_ c: RGB, colors: Colors) -> RGB {
        colors == .trueColor ? c : XtermPalette.color(XtermPalette.nearest(c))
    }

    static func sgr(_ c: RGB, foreground: Bool, colors: Colors) -> String {
        switch colors {
        case .trueColor: return "\(foreground ? 38 : 48);2;\(c.r);\(c.g);\(c.b)"
        case .palette256: return "\(foreground ? 38 : 48);5;\(XtermPalette.nearest(c))"
        }
    }
}
