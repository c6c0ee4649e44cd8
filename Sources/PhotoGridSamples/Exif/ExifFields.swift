/// What a sample photo says about itself in EXIF: the fields photogrid reads, and nothing more.
///
/// Every field is optional so that a test can write exactly the tags it wants to see read back.
package struct ExifFields: Sendable, Equatable {
    /// EXIF Orientation, 1...8. Kept as a plain number so that tests can also write invalid values.
    package var orientation: Int?
    /// "YYYY:MM:DD HH:MM:SS", as cameras write it.
    package var dateTimeOriginal: String?
    /// The caption (IFD0 ImageDescription).
    package var imageDescription: String?
    package var make: String?
    package var model: String?
    /// Signed degrees: negative in the south.
    package var latitude: Double?
    /// Signed degrees: negative in the west.
    package var longitude: Double?
    /// Seconds, as the fraction cameras write: `Rational(1, 250)`.
    package var exposureTime: Rational?
    /// `Rational(28, 10)` for f/2.8.
    package var fNumber: Rational?
    /// PhotographicSensitivity, a SHORT: values above 65535 are written as 65535, as cameras do.
    package var iso: Int?
    /// Millimetres: `Rational(35, 1)`.
    package var focalLength: Rational?
    package var lensMake: String?
    package var lensModel: String?
    /// A small JPEG stored in IFD1, as cameras do for quick previews.
    package var thumbnail: [UInt8]?
    /// "MM" (Motorola) instead of "II" (Intel): some cameras write one, some the other, and readers must take both.
    package var bigEndian: Bool

    package init(orientation: Int? = nil, dateTimeOriginal: String? = nil, imageDescription: String? = nil,
                make: String? = nil, model: String? = nil, latitude: Double? = nil, longitude: Double? = nil,
                exposureTime: Rational? = nil, fNumber: Rational? = nil, iso: Int? = nil, focalLength: Rational? = nil,
                lensMake: String? = nil, lensModel: String? = nil, thumbnail: [UInt8]? = nil, bigEndian: Bool = false) {
        self.orientation = orientation
        self.dateTimeOriginal = dateTimeOriginal
        self.imageDescription = imageDescription
        self.make = make
        self.model = model
        self.latitude = latitude
        self.longitude = longitude
        self.exposureTime = exposureTime
        self.fNumber = fNumber
        self.iso = iso
        self.focalLength = focalLength
        self.lensMake = lensMake
        self.lensModel = lensModel
        self.thumbnail = thumbnail
        self.bigEndian = bigEndian
    }

    /// Whether anything would be written into a GPS IFD.
    var hasPosition: Bool { latitude != nil || longitude != nil }

    /// Whether anything would be written into the Exif sub-IFD.
    var hasExifIFD: Bool {
        dateTimeOriginal != nil || exposureTime != nil || fNumber != nil || iso != nil || focalLength != nil
            || lensMake != nil || lensModel != nil
    }

    /// A TIFF RATIONAL: two unsigned 32-bit numbers. Kept as written, so that a test can also
    /// write a zero denominator.
    package struct Rational: Sendable, Equatable {
        package var numerator: UInt32
        package var denominator: UInt32

        package init(_ numerator: UInt32, _ denominator: UInt32) {
            self.numerator = numerator
            self.denominator = denominator
        }

        /// The value a reader should see; nil for a zero denominator.
        package var value: Double? { denominator == 0 ? nil : Double(numerator) / Double(denominator) }
    }
}
