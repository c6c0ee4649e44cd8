/// Writes the Exif APP1 segment of a sample photo: "Exif\0\0" and a TIFF structure.
///
/// The layout is the one cameras use, so that third-party readers (exiftool, libexif) accept it
/// as well as photogrid's own `ExifInfo`: IFD0 first, then the Exif and GPS sub-IFDs it points to,
/// then IFD1 and its JPEG thumbnail at the end.
package enum ExifBuilder {
    /// The whole APP1 payload, ready for `JPEG.encode(_:quality:progressive:app1:)`.
    package static func app1(_ fields: ExifFields) -> [UInt8] {
        Array("Exif".utf8) + [0, 0] + tiff(fields)
    }

    /// The TIFF structure alone, as `ExifInfo.parse` takes it.
    package static func tiff(_ fields: ExifFields) -> [UInt8] {
        let order = ByteOrder(bigEndian: fields.bigEndian)
        var ifd0 = TIFFDirectory()
        if let text = fields.imageDescription { ifd0.set(0x010E, .ascii(text)) }
        if let text = fields.make { ifd0.set(0x010F, .ascii(text)) }
        if let text = fields.model { ifd0.set(0x0110, .ascii(text)) }
        if let value = fields.orientation { ifd0.set(0x0112, .short([UInt16(truncatingIfNeeded: value)])) }

        var exif: TIFFDirectory?
        if fields.hasExifIFD {
            var dir = TIFFDirectory()
            // ExifVersion is mandatory in an Exif IFD; strict readers warn without it.
            dir.set(0x9000, .undefined(Array("0232".utf8)))
            if let date = fields.dateTimeOriginal { dir.set(0x9003, .ascii(date)) }
            if let time = fields.exposureTime { dir.set(0x829A, .rational([(time.numerator, time.denominator)])) }
            if let f = fields.fNumber { dir.set(0x829D, .rational([(f.numerator, f.denominator)])) }
            if let iso = fields.iso { dir.set(0x8827, .short([UInt16(clamping: iso)])) }
            if let focal = fields.focalLength { dir.set(0x920A, .rational([(focal.numerator, focal.denominator)])) }
            if let make = fields.lensMake { dir.set(0xA433, .ascii(make)) }
            if let model = fields.lensModel { dir.set(0xA434, .ascii(model)) }
            exif = dir
            ifd0.set(0x8769, .long([0]))
        }

        var gps: TIFFDirectory?
        if fields.hasPosition {
            var dir = TIFFDirectory()
            dir.set(0x0000, .byte([2, 3, 0, 0]))
            if let lat = fields.latitude {
                dir.set(0x0001, .ascii(lat < 0 ? "S" : "N"))
                dir.set(0x0002, .rational(degreesMinutesSeconds(lat)))
            }
            if let lon = fields.longitude {
                dir.set(0x0003, .ascii(lon < 0 ? "W" : "E"))
                dir.set(0x0004, .rational(degreesMinutesSeconds(lon)))
            }
            gps = dir
            ifd0.set(0x8825, .long([0]))
        }

        var ifd1: TIFFDirectory?
        if let thumbnail = fields.thumbnail {
            var dir = TIFFDirectory()
            dir.set(0x0103, .short([6]))                      // Compression: JPEG
            dir.set(0x0201, .long([0]))
            dir.set(0x0202, .long([UInt32(thumbnail.count)]))
            ifd1 = dir
        }

        // Lay out first (pointer values do not change sizes), then fill in the pointers.
        let ifd0Offset = 8
        let exifOffset = ifd0Offset + ifd0.byteSize(order)
        let gpsOffset = exifOffset + (exif?.byteSize(order) ?? 0)
        let ifd1Offset = gpsOffset + (gps?.byteSize(order) ?? 0)
        let thumbnailOffset = ifd1Offset + (ifd1?.byteSize(order) ?? 0)
        if exif != nil { ifd0.set(0x8769, .long([UInt32(exifOffset)])) }
        if gps != nil { ifd0.set(0x8825, .long([UInt32(gpsOffset)])) }
        ifd1?.set(0x0201, .long([UInt32(thumbnailOffset)]))

        var out = order.mark
        order.append32(UInt32(ifd0Offset), to: &out)
        out += ifd0.encoded(at: ifd0Offset, next: ifd1 == nil ? 0 : ifd1Offset, order)
        if let exif { out += exif.encoded(at: exifOffset, next: 0, order) }
        if let gps { out += gps.encoded(at: gpsOffset, next: 0, order) }
        if let ifd1 { out += ifd1.encoded(at: ifd1Offset, next: 0, order) }
        if let thumbnail = fields.thumbnail { out += thumbnail }
        return out
    }

    /// Degrees, minutes and hundredths of seconds of arc, as GPS rationals: 0.01" is about 30 cm.
    static func degreesMinutesSeconds(_ signedDegrees: Double) -> [(numerator: UInt32, denominator: UInt32)] {
        let value = min(abs(signedDegrees), 360)
        var degrees = Int(value)
        let minutesFraction = (value - Double(degrees)) * 60
        var minutes = Int(minutesFraction)
        var hundredths = Int(((minutesFraction - Double(minutes)) * 6000).rounded())
        // Rounding can make 60 seconds or 60 minutes; carry them up.
        if hundredths >= 6000 { hundredths -= 6000; minutes += 1 }
        if minutes >= 60 { minutes -= 60; degrees += 1 }
        return [(UInt32(degrees), 1), (UInt32(minutes), 1), (UInt32(hundredths), 100)]
    }
}
