import Glibc
import PhotoGridCore

/// A raw file made from a picture, laid out as a camera writes a DNG (Adobe's DNG specification
/// 1.4): a sensor of red, green and blue photosites in the RGGB Bayer pattern, 14 bits each,
/// linear light; a colour matrix that says the sensor sees as linear sRGB does; and, if asked, a
/// JPEG preview in a directory of its own, as cameras embed one. What LibRaw develops of it is
/// the picture it was made from, so a raw development can be checked against it.
package enum DNGWriter {
    /// `image` as the sensor data; `preview`, if given, as the embedded JPEG. Width and height are
    /// taken down to even numbers (whole Bayer blocks).
    package static func encode(_ image: RGBImage, preview: RGBImage? = nil, make: String = "photogrid",
                               model: String = "sample sensor") throws(DecodeError) -> [UInt8] {
        let order = ByteOrder(bigEndian: false)
        let (width, height) = (image.width & ~1, image.height & ~1)
        let white: UInt16 = 16383
        // sRGB's curve undone: the sensor counts light.
        let linear = (0..<256).map { (value: Int) -> UInt16 in
            let v = Double(value) / 255
            let light = v <= 0.04045 ? v / 12.92 : Glibc.pow((v + 0.055) / 1.055, 2.4)
            return UInt16((light * Double(white)).rounded())
        }
        var sensor: [UInt8] = []
        sensor.reserveCapacity(width * height * 2)
        for y in 0..<height {
            for x in 0..<width {
                // R G / G B: red on even rows and columns, blue on odd ones, green between.
                let channel = y & 1 == 0 ? (x & 1 == 0 ? 0 : 1) : (x & 1 == 0 ? 1 : 2)
                order.append16(linear[Int(image.pixels[(y * image.width + x) * 3 + channel])], to: &sensor)
            }
        }
        let jpeg = try preview.map { (picture: RGBImage) throws(DecodeError) -> [UInt8] in try JPEG.encode(picture, quality: 90) }

        var raw = TIFFDirectory()
        raw.set(254, .long([0]))                       // NewSubfileType: the main image
        raw.set(256, .long([UInt32(width)]))
        raw.set(257, .long([UInt32(height)]))
        raw.set(258, .short([16]))
        raw.set(259, .short([1]))                      // no compression
        raw.set(262, .short([32803]))                  // PhotometricInterpretation: CFA
        raw.set(271, .ascii(make))
        raw.set(272, .ascii(model))
        raw.set(273, .long([0]))                       // StripOffsets, set below
        raw.set(274, .short([1]))
        raw.set(277, .short([1]))
        raw.set(278, .long([UInt32(height)]))
        raw.set(279, .long([UInt32(sensor.count)]))
        raw.set(284, .short([1]))
        raw.set(33421, .short([2, 2]))                 // CFARepeatPatternDim
        raw.set(33422, .byte([0, 1, 1, 2]))            // CFAPattern: RGGB
        raw.set(50706, .byte([1, 4, 0, 0]))            // DNGVersion
        raw.set(50707, .byte([1, 1, 0, 0]))            // DNGBackwardVersion
        raw.set(50708, .ascii(make + " " + model))     // UniqueCameraModel
        raw.set(50710, .byte([0, 1, 2]))               // CFAPlaneColor
        raw.set(50711, .short([1]))                    // CFALayout: rectangular
        raw.set(50714, .short([0]))                    // BlackLevel
        raw.set(50717, .short([white]))                // WhiteLevel
        // ColorMatrix1, XYZ to the sensor's space: the sensor is linear sRGB, so this is IEC
        // 61966-2-1's XYZ (D65) to linear sRGB matrix, to four places.
        let matrix = [32406, -15372, -4986, -9689, 18758, 415, 557, -2040, 10570].map { (numerator: Int32($0), denominator: Int32(10000)) }
        raw.set(50721, .signedRational(matrix))
        raw.set(50728, .rational([(1, 1), (1, 1), (1, 1)]))  // AsShotNeutral: white reads equal
        raw.set(50778, .short([21]))                   // CalibrationIlluminant1: D65

        var thumb = TIFFDirectory()
        if let jpeg, let preview {
            thumb.set(254, .long([1]))                 // a reduced-resolution copy
            thumb.set(256, .long([UInt32(preview.width)]))
            thumb.set(257, .long([UInt32(preview.height)]))
            thumb.set(258, .short([8, 8, 8]))
            thumb.set(259, .short([7]))                // JPEG
            thumb.set(262, .short([6]))                // YCbCr
            thumb.set(273, .long([0]))
            thumb.set(277, .short([3]))
            thumb.set(278, .long([UInt32(preview.height)]))
            thumb.set(279, .long([UInt32(jpeg.count)]))
        }
        // The directories first (their sizes do not depend on the offsets in them), then the
        // sensor data, then the preview.
        let rawAt = 8, thumbAt = rawAt + raw.byteSize(order)
        let sensorAt = thumbAt + (jpeg == nil ? 0 : thumb.byteSize(order))
        let jpegAt = sensorAt + sensor.count
        raw.set(273, .long([UInt32(sensorAt)]))
        thumb.set(273, .long([UInt32(jpegAt)]))
        var out = order.mark
        order.append32(UInt32(rawAt), to: &out)
        out += raw.encoded(at: rawAt, next: jpeg == nil ? 0 : thumbAt, order)
        if jpeg != nil { out += thumb.encoded(at: thumbAt, next: 0, order) }
        return out + sensor + (jpeg ?? [])
    }
}
