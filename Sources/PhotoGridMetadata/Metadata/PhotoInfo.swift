import PhotoGridModel
import PhotoGridSystem

/// What a picture file says about itself, for the details panel: its size as displayed, when and with
/// what it was taken, how it was exposed, where, and its caption.
///
/// Everything comes from the head of the file (a JPEG's segments before the first scan, the chunks
/// of a PNG or WebP before its pixels, a HEIF's items), read with photogrid's own bounds-checked
/// parsers: `JPEGSegments`, `EmbeddedMetadata`, `ExifInfo`, `XMPReader`, `IPTCReader`.
/// Text is as the file has it, without NULs and trailing spaces; making it safe to print is the
/// terminal's concern (`TerminalText`), not this one's.
package struct PhotoInfo: Sendable, Equatable {
    /// Where the caption came from.
    package enum CaptionSource: String, Sendable, Equatable {
        case exif, xmp, iptc
        /// The photo's XMP sidecar (`photo.jpg.xmp`), which a user's edits go to.
        case sidecar = "xmp sidecar"
        /// A remote gallery's manifest.
        case gallery
    }

    /// Pixels as displayed, i.e. with width and height swapped for EXIF orientations 5-8;
    /// nil when the head ends before the frame header.
    package var width: Int?
    package var height: Int?
    package var orientation: Orientation = .up
    /// EXIF DateTimeOriginal as written, "YYYY:MM:DD HH:MM:SS".
    package var dateTaken: String?
    package var make: String?
    package var model: String?
    /// The lens model, led by the lens maker's name when the model does not already start with it.
    package var lens: String?
    package var iso: Int?
    package var fNumber: Double?
    /// Seconds.
    package var exposureTime: Double?
    /// Millimetres.
    package var focalLength: Double?
    /// Degrees, negative in the south and west.
    package var latitude: Double?
    package var longitude: Double?
    package var caption: String?
    package var captionSource: CaptionSource?
    /// `xmp:Rating` of the photo's own XMP: 1-5 stars, 0 none, -1 a reject (`XMPRating`).
    package var rating: Int?
    /// `xmp:Label`, a colour label's name ("Red"), and `dc:subject`'s keywords (`XMP+Tags`).
    package var label: String?
    package var keywords: [String] = []
    /// A video's length, in seconds.
    package var duration: Double?

    package init() {}

    /// Descriptions cameras write by themselves, which say nothing about the photo; and
    /// `x-default`, the XMP language tag, which some exporters write as the text itself (seen in
    /// Olympus photos from Capture One 8).
    static let cameraCaptions: Set<String> = ["OLYMPUS DIGITAL CAMERA", "SONY DSC", "DCIM", "x-default"]

    /// Whether a caption says nothing: blank, or one of `cameraCaptions` once the spaces and
    /// NULs around it are gone (cameras pad the field).
    package static func saysNothing(_ text: String) -> Bool {
        let padding: (Unicode.Scalar) -> Bool = { $0.properties.isWhitespace || $0 == "\0" }
        let scalars = Array(text.unicodeScalars)
        guard let first = scalars.firstIndex(where: { !padding($0) }),
              let last = scalars.lastIndex(where: { !padding($0) }) else { return true }
        var core = String.UnicodeScalarView()
        core.append(contentsOf: scalars[first...last])
        return cameraCaptions.contains(String(core))
    }

    /// The details in the head of a JPEG file (or the whole file); nil if it is not a JPEG.
    package static func read(_ head: [UInt8]) -> PhotoInfo? {
        guard head.count >= 2, head[0] == 0xFF, head[1] == 0xD8 else { return nil }
        let segments = JPEGSegments.parse(head)
        return PhotoInfo(width: segments.width, height: segments.height, exif: segments.exif, xmp: segments.xmp, iptc: segments.iptc)
    }

    /// The details from a picture's stored size and its EXIF (TIFF data), XMP and IPTC, whatever
    /// the format that carried them. `upright` when the size is already as displayed (HEIF, whose
    /// container turns the picture): EXIF's orientation is then not applied again.
    package init(width: Int?, height: Int?, exif exifData: [UInt8]?, xmp: [UInt8]?, iptc: [UInt8]? = nil, upright: Bool = false) {
        let exif = exifData.map(ExifInfo.parse) ?? ExifInfo()
        self.init()
        orientation = upright ? .up : exif.orientation
        if let width, let height {
            (self.width, self.height) = orientation.displaySize(width: width, height: height)
        }
        dateTaken = exif.dateTimeOriginal
        make = exif.make
        model = exif.model
        lens = PhotoInfo.lensName(make: exif.lensMake, model: exif.lensModel)
        iso = exif.iso
        fNumber = exif.fNumber
        exposureTime = exif.exposureTime
        focalLength = exif.focalLength
        latitude = exif.latitude
        longitude = exif.longitude

        rating = xmp.flatMap(XMPRating.read)
        label = xmp.flatMap(XMPReader.label)
        keywords = xmp.map(XMPReader.keywords) ?? []
        // EXIF first: it is what the camera or the last editor wrote into the photo itself.
        let candidates: [(CaptionSource, () -> String?)] = [
            (.exif, { exif.imageDescription }),
            (.xmp, { xmp.flatMap(XMPReader.description) }),
            (.iptc, { iptc.flatMap(IPTCReader.caption) }),
        ]
        for (source, read) in candidates {
            if let text = read(), !PhotoInfo.saysNothing(text) {
                caption = text
                captionSource = source
                break
            }
        }
    }

    package static func lensName(make: String?, model: String?) -> String? {
        guard let model else { return nil }
        guard let make, !model.lowercased().hasPrefix(make.lowercased()) else { return model }
        return make + " " + model
    }
}
