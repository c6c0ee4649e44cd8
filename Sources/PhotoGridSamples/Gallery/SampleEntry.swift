import PhotoGridCore

/// One photo of the sample gallery: what it shows, its shape, how it is encoded and what its EXIF says.
public struct SampleEntry: Sendable, Equatable {
    /// Relative to the gallery folder, e.g. "travel/desert-01.jpg".
    public var path: String
    public var scene: Scene
    /// The upright size, as a viewer that honours the Orientation tag shows it.
    public var width: Int
    public var height: Int
    public var quality: Int
    public var progressive: Bool
    /// The EXIF written into the file; nil for a file with no APP1 segment at all.
    /// The thumbnail bytes are not here: `hasThumbnail` asks for them and the gallery renders them.
    public var exif: ExifFields?
    /// Whether IFD1 carries a small JPEG of the same scene (at most 160x120, stored the same way up).
    public var hasThumbnail: Bool

    public init(path: String, scene: Scene, width: Int, height: Int, quality: Int = 85, progressive: Bool = false,
                exif: ExifFields? = nil, hasThumbnail: Bool = false) {
        self.path = path
        self.scene = scene
        self.width = width
        self.height = height
        self.quality = quality
        self.progressive = progressive
        self.exif = exif
        self.hasThumbnail = hasThumbnail
    }

    /// The Orientation tag's meaning; `.up` when there is none.
    public var orientation: Orientation {
        exif?.orientation.flatMap(Orientation.init(rawValue:)) ?? .up
    }

    /// The size of the pixels as stored in the file: sideways for orientations 5-8.
    public var storedWidth: Int { orientation.swapsAxes ? height : width }
    public var storedHeight: Int { orientation.swapsAxes ? width : height }

    /// The painting seed, from the path (FNV-1a): adding or reordering entries changes no other photo.
    public var seed: UInt64 {
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in path.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// The file name without its folder.
    public var fileName: String { String(path.split(separator: "/").last ?? Substring(path)) }

    /// The subfolder of the gallery the file is in.
    public var folder: String { String(path.split(separator: "/").dropLast().joined(separator: "/")) }
}
