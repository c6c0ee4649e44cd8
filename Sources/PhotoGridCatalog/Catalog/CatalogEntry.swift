import PhotoGridMetadata
import PhotoGridModel

/// What the catalog keeps of one photo: the stamp it was read at (a photo whose size or time
/// changed since is read again) and what its header and sidecar said.
package struct CatalogEntry: Sendable, Equatable {
    package var stamp: FileStamp
    /// The capture date, on the wall clock as `CaptureDate.parse` gives it; nil when it has none.
    package var taken: Int64?
    package var width: Int?
    package var height: Int?
    package var make: String?
    package var model: String?
    package var lens: String?
    package var iso: Int?
    package var fNumber: Double?
    /// Seconds.
    package var exposureTime: Double?
    /// Millimetres.
    package var focalLength: Double?
    package var hasGPS = false
    package var rating: Int?
    package var label: String?
    package var keywords: [String] = []

    package init(stamp: FileStamp, taken: Int64? = nil) {
        self.stamp = stamp
        self.taken = taken
    }

    /// An entry from what the photo's reading found (`info` nil: nothing could be read).
    package init(stamp: FileStamp, taken: Int64?, info: PhotoInfo?) {
        self.init(stamp: stamp, taken: taken)
        guard let info else { return }
        width = info.width
        height = info.height
        make = info.make
        model = info.model
        lens = info.lens
        iso = info.iso
        fNumber = info.fNumber
        exposureTime = info.exposureTime
        focalLength = info.focalLength
        hasGPS = info.latitude != nil && info.longitude != nil
        rating = info.rating
        label = info.label
        keywords = info.keywords
    }
}
