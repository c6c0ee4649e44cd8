import PhotoGridCore

/// One photo of the sample gallery: what it shows, its shape, how it is encoded and what its
/// metadata (EXIF, XMP, IPTC) says.
package struct SampleEntry: Sendable, Equatable {
    /// Relative to the gallery folder, e.g. "travel/desert-01.jpg".
    package var path: String
    package var scene: Scene
    /// The upright size, as a viewer that honours the Orientation tag shows it.
    package var width: Int
    package var height: Int
    package var quality: Int
    package var progressive: Bool
    /// The EXIF written into the file; nil for a file with no APP1 segment at all.
    /// The thumbnail bytes are not here: `hasThumbnail` asks for them and the gallery renders them.
    package var exif: ExifFields?
    /// Whether IFD1 carries a small JPEG of the same scene (at most 160x120, stored the same way up).
    package var hasThumbnail: Bool
    /// A caption in an XMP APP1 segment (dc:description, element form); nil for no XMP segment.
    package var xmpCaption: String?
    /// A caption in an IPTC APP13 segment (record 2:120); nil for no APP13 segment.
    package var iptcCaption: String?
    package var iptcEncoding: IPTCBuilder.Encoding

    package init(path: String, scene: Scene, width: Int, height: Int, quality: Int = 85, progressive: Bool = false,
                exif: ExifFields? = nil, hasThumbnail: Bool = false, xmpCaption: String? = nil,
                iptcCaption: String? = nil, iptcEncoding: IPTCBuilder.Encoding = .utf8) {
        self.path = path
        self.scene = scene
        self.width = width
        self.height = height
        self.quality = quality
        self.progressive = progressive
        self.exif = exif
        self.hasThumbnail = hasThumbnail
        self.xmpCaption = xmpCaption
        self.iptcCaption = iptcCaption
        self.iptcEncoding = iptcEncoding
    }

    /// The caption a reader should show and where it comes from: EXIF first, then XMP, then IPTC.
    package var caption: (text: String, source: PhotoInfo.CaptionSource)? {
        if let text = exif?.imageDescription { return (text, .exif) }
        if let text = xmpCaption { return (text, .xmp) }
        if let text = iptcCaption { return (text, .iptc) }
        return nil
    }

    /// The APPn segments that follow the Exif one: XMP, then IPTC.
    var extraSegments: [(marker: UInt8, payload: [UInt8])] {
        var segments: [(marker: UInt8, payload: [UInt8])] = []
        if let text = xmpCaption { segments.append((0xE1, XMPBuilder.app1(description: text))) }
        if let text = iptcCaption { segments.append((0xED, IPTCBuilder.app13(caption: text, encoding: iptcEncoding))) }
        return segments
    }

    /// The Orientation tag's meaning; `.up` when there is none.
    package var orientation: Orientation {
        exif?.orientation.flatMap(Orientation.init(rawValue:)) ?? .up
    }

    /// The size of the pixels as stored in the file: sideways for orientations 5-8.
    package var storedWidth: Int { orientation.swapsAxes ? height : width }
    package var storedHeight: Int { orientation.swapsAxes ? width : height }

    /// The painting seed, from the path (FNV-1a): adding or reordering entries changes no other photo.
    package var seed: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The file name without its folder.
    package var fileName: String { String(path.split(separator: "/").last ?? Substring(path)) }

    /// The subfolder of the gallery the file is in.
    package var folder: String { String(path.split(separator: "/").dropLast().joined(separator: "/")) }
}
