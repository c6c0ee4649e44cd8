import PhotoGridModel

/// The blocks as pixels (`Parser.picture`): each component's plane from its DC coefficients (and
/// for 4:2:0 colour, its lowest AC ones), then JFIF's conversion to RGB, as libjpeg rounds it.
extension JPEGEighth.Parser {
    /// A `Component.detail` plane: each block 2x2, each quarter the block's average plus what
    /// its lowest AC coefficients add to that quarter's average (libjpeg's 2x2 IDCT adds the
    /// 3rd, 5th and 7th too). Across, the first coefficient's basis averages to
    /// cos(pi/16) + cos(3pi/16) + cos(5pi/16) + cos(7pi/16), over 4, = 0.64073 on the left half
    /// and its negative on the right; with the IDCT's 1/4 and 1/sqrt(2) its weight is 0.11327,
    /// and 0.64073^2 / 4 = 0.10263 for the one across and down. In 16.16 fixed point.
    func detailedPlane(_ c: JPEGEighth.Component, width: Int, height: Int) -> [UInt8] {
        [UInt8](unsafeUninitializedCapacity: width * height) { plane, initialized in
            coefficients.withUnsafeBufferPointer { blocks in
                details.withUnsafeBufferPointer { kept in
                    let plane = plane.baseAddress!, blocks = blocks.baseAddress! + c.base, kept = kept.baseAddress! + c.detailBase
                    for row in 0..<((height + 1) / 2) {
                        for column in 0..<((width + 1) / 2) {
                            let quarter = Self.quarters(blocks, kept, row &* c.stride &+ column, c)
                            let (x, y) = (2 &* column, 2 &* row), right = x &+ 1 < width, below = y &+ 1 < height
                            let top = plane + (y &* width &+ x), bottom = top + width
                            top[0] = quarter.0
                            if right { top[1] = quarter.1 }
                            if below { bottom[0] = quarter.2 }
                            if right && below { bottom[1] = quarter.3 }
                        }
                    }
                }
            }
            initialized = width * height
        }
    }

    /// A 16.16 value about 0 as a sample about 128, clamped.
    @inline(__always)
    static func sample(_ value: Int) -> UInt8 { UInt8(truncatingIfNeeded: min(max(value &>> 16 &+ 128, 0), 255)) }

    /// A plane of block averages, each repeated over the pixels it covers: the sampling
    /// factors divide the largest, so a block covers whole pixels.
    func plainPlane(_ c: JPEGEighth.Component, width: Int, height: Int) -> [UInt8] {
        let quant = c.quant, across = hMax / c.h, down = vMax / c.v
        return [UInt8](unsafeUninitializedCapacity: width * height) { plane, initialized in
            coefficients.withUnsafeBufferPointer { blocks in
                for y in 0..<height {
                    let source = blocks.baseAddress! + c.base + (y / down) &* c.stride, line = plane.baseAddress! + y &* width
                    for x in 0..<width {
                        line[x] = Self.sample(Int(source[across == 1 ? x : x / across]) &* quant &* 8192 &+ 32768)
                    }
                }
            }
            initialized = width * height
        }
    }

    /// The blocks as pixels, libjpeg's way (see the type's comment).
    func picture() -> RGBImage {
        let outWidth = (width + 7) / 8, outHeight = (height + 7) / 8, count = outWidth * outHeight
        // libjpeg's guess of the colour space: JFIF says YCbCr, else Adobe's transform, else the
        // components' names.
        let rgb = components.count == 3 && !sawJFIF
            && (adobeTransform.map { $0 == 0 } ?? (components.map(\.id) == [0x52, 0x47, 0x42]))
        if components.count == 3, !rgb, !components[0].detail, components[0].h == hMax, components[0].v == vMax,
           components[1].detail, components[2].detail {
            return RGBImage(width: outWidth, height: outHeight, pixels: picture420(width: outWidth, height: outHeight))
        }
        let planes = components.map { c in c.detail ? detailedPlane(c, width: outWidth, height: outHeight) : plainPlane(c, width: outWidth, height: outHeight) }
        // The planes by pointer: indexed as arrays of arrays, each read retained its plane.
        let first = planes[0], second = planes.count == 3 ? planes[1] : first, third = planes.count == 3 ? planes[2] : first
        let pixels = [UInt8](unsafeUninitializedCapacity: count * 3) { out, initialized in
            first.withUnsafeBufferPointer { p0 in second.withUnsafeBufferPointer { p1 in third.withUnsafeBufferPointer { p2 in
                let out = out.baseAddress!, p0 = p0.baseAddress!, p1 = p1.baseAddress!, p2 = p2.baseAddress!
                if components.count == 1 {
                    for i in 0..<count { (out[3 &* i], out[3 &* i &+ 1], out[3 &* i &+ 2]) = (p0[i], p0[i], p0[i]) }
                } else if rgb {
                    for i in 0..<count { (out[3 &* i], out[3 &* i &+ 1], out[3 &* i &+ 2]) = (p0[i], p1[i], p2[i]) }
                } else {
                    Self.conversion.withUnsafeBufferPointer { table in
                        let table = table.baseAddress!
                        for i in 0..<count {
                            let y = Int32(p0[i]), cb = Int(p1[i]), cr = Int(p2[i])
                            out[3 &* i] = Self.channel(y &+ table[cr])
                            out[3 &* i &+ 1] = Self.channel(y &+ ((table[512 &+ cb] &+ table[768 &+ cr]) &>> 16))
                            out[3 &* i &+ 2] = Self.channel(y &+ table[256 &+ cb])
                        }
                    }
                }
            } } }
            initialized = count * 3
        }
        return RGBImage(width: outWidth, height: outHeight, pixels: pixels)
    }

    /// 4:2:0 YCbCr, most cameras' JPEGs, in one pass: each 2x2 of pixels from its four
    /// brightness blocks and the two colour blocks over them, with the arithmetic of
    /// `plainPlane`, `detailedPlane` and the conversion, but no plane written and read back
    /// (`picture` went from 8.6% to 6.6% of a kitty sheet of 12 MP photos).
    func picture420(width: Int, height: Int) -> [UInt8] {
        let (luma, blue, red) = (components[0], components[1], components[2])
        return [UInt8](unsafeUninitializedCapacity: width * height * 3) { out, initialized in
            coefficients.withUnsafeBufferPointer { blocks in details.withUnsafeBufferPointer { kept in
                Self.conversion.withUnsafeBufferPointer { table in
                    let (out, table, blocks, kept) = (out.baseAddress!, table.baseAddress!, blocks.baseAddress!, kept.baseAddress!)
                    let bright = blocks + luma.base, lumaQuant = luma.quant &* 8192
                    func pixel(_ x: Int, _ y: Int, _ blue: UInt8, _ red: UInt8) {
                        let (cb, cr) = (Int(blue), Int(red))
                        let value = Int32(Self.sample(Int(bright[y &* luma.stride &+ x]) &* lumaQuant &+ 32768))
                        let at = out + 3 &* (y &* width &+ x)
                        at[0] = Self.channel(value &+ table[cr])
                        at[1] = Self.channel(value &+ ((table[512 &+ cb] &+ table[768 &+ cr]) &>> 16))
                        at[2] = Self.channel(value &+ table[256 &+ cb])
                    }
                    for row in 0..<((height + 1) / 2) {
                        for column in 0..<((width + 1) / 2) {
                            let b = Self.quarters(blocks + blue.base, kept + blue.detailBase, row &* blue.stride &+ column, blue)
                            let r = Self.quarters(blocks + red.base, kept + red.detailBase, row &* red.stride &+ column, red)
                            let (x, y) = (2 &* column, 2 &* row), right = x &+ 1 < width, below = y &+ 1 < height
                            pixel(x, y, b.0, r.0)
                            if right { pixel(x &+ 1, y, b.1, r.1) }
                            if below { pixel(x, y &+ 1, b.2, r.2) }
                            if right && below { pixel(x &+ 1, y &+ 1, b.3, r.3) }
                        }
                    }
                }
            } }
            initialized = width * height * 3
        }
    }

    /// A detailed block's four quarters (top left, top right, bottom left, bottom right): its
    /// average and its lowest AC terms (`detailedPlane`'s comment says their weights).
    @inline(__always)
    static func quarters(_ blocks: UnsafePointer<Int32>, _ kept: UnsafePointer<Int32>, _ block: Int,
                         _ c: JPEGEighth.Component) -> (UInt8, UInt8, UInt8, UInt8) {
        let (single, both) = (7423, 6726), low = kept + 3 &* block
        let mean = Int(blocks[block]) &* c.quant &* 8192 &+ 32768
        let across = single &* Int(low[0]) &* c.quantLow.0, down = single &* Int(low[1]) &* c.quantLow.1
        let diagonal = both &* Int(low[2]) &* c.quantLow.2
        return (sample(mean &+ across &+ down &+ diagonal), sample(mean &- across &+ down &- diagonal),
                sample(mean &+ across &- down &- diagonal), sample(mean &- across &- down &+ diagonal))
    }

    @inline(__always)
    static func channel(_ value: Int32) -> UInt8 { UInt8(truncatingIfNeeded: min(max(value, 0), 255)) }

    /// JFIF's conversion, as libjpeg rounds it (1.402, 0.34414, 0.71414 and 1.772 in 16.16),
    /// looked up as libjpeg's jdcolor.c does rather than multiplied for every pixel (half
    /// the conversion's time): red's term by Cr, blue's by Cb, then green's two parts by Cb
    /// and by Cr (the rounding in the second), 256 entries each.
    static let conversion: [Int32] = {
        let terms: [(Int) -> Int] = [{ (91881 * $0 + 32768) >> 16 }, { (116130 * $0 + 32768) >> 16 },
                                     { -22554 * $0 }, { -46802 * $0 + 32768 }]
        return terms.flatMap { term in (0..<256).map { Int32(term($0 - 128)) } }
    }()
}
