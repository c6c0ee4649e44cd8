/// What a sample photo says about itself in EXIF: the fields photogrid reads, and nothing more.
///
/// Every field is optional so that a test can write exactly the tags it wants to see read back.
public struct ExifFields: Sendable, Equatable {
    /// EXIF Orientation, 1...8. Kept as a plain number so that tests can also write invalid values.
    public var orientation: Int?
    /// "YYYY:MM:DD HH:MM:SS", as cameras write it.
    public var dateTimeOriginal: String?
    /// The caption (IFD0 ImageDescription).
    public var imageDescription: String?
    public var make: String?
    public var model: String?
    /// Signed degrees: negative in the south.
    public var latitude: Double?
    /// Signed degrees: negative in the west.
    public var longitude: Double?
    /// A small JPEG stored in IFD1, as cameras do for quick previews.
    public var thumbnail: [UInt8]?
    /// "MM" (Motorola) instead of "II" (Intel): some cameras write one, some the other, and readers must take both.
    public var bigEndian: Bool

    public init(orientation: Int? = nil, dateTimeOriginal: String? = nil, imageDescription: String? = nil,
                make: String? = nil, model: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
                thumbnail: [UInt8]? = nil, bigEndian: Bool = false) {
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.imageDescription = imageDescription
        self.make = make
        self.model = model
        self.latitude = latitude
        self.longitude = longitude
        self.thumbnail = thumbnail
        self.bigEndian = bigEndian
    }

    /// Whether anything would be written into a GPS IFD.
    var hasPosition: Bool { latitude != nil || longitude != nil }
}
