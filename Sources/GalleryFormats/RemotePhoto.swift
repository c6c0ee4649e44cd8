/// A photo of a remote gallery, as its manifest describes it: where the original is, where its
/// smaller copies (renditions) are, and what the details panel shows.
///
/// URLs are absolute and checked (http or https) by the time a `RemotePhoto` exists. The
/// renditions a manifest's template gives are made when asked for, from the one template all
/// its photos share: a million photos with three template sizes would otherwise hold three
/// million URLs (half a gigabyte) that only the photos on screen ever need.
package struct RemotePhoto: Sendable, Equatable {
    /// A smaller copy of the photo, with the photo's shape, `size` pixels on its long side.
    package struct Rendition: Sendable, Hashable {
        package var size: Int
        package var url: RemoteURL

        package init(size: Int, url: RemoteURL) {
            self.size = size
            self.url = url
        }
    }

    /// Unique within the gallery and stable across visits: what caches are keyed by.
    package var id: String
    /// The file name to show.
    package var name: String
    /// The original JPEG.
    package var original: RemoteURL
    /// The photo's own renditions, sorted by size, one per size.
    private let own: [Rendition]
    /// The manifest's template, if it had one.
    private let template: TemplateRenditions?
    /// The original's pixels as displayed (after EXIF orientation), when the manifest says.
    package var width: Int?
    package var height: Int?
    /// The original's size in bytes.
    package var bytes: Int?
    /// ISO 8601, as written in the manifest (`2024-07-14T19:42:05`); not interpreted here.
    package var taken: String?
    package var caption: String?
    /// Degrees, negative in the south and west.
    package var latitude: Double?
    package var longitude: Double?
    /// The `id` of the section the photo is in.
    package var section: String?
    /// How it was taken, when the manifest says (the manifest's `camera`).
    package var camera: Camera?
    /// The original ends before its picture does (`partial`): its tiles carry the damage mark.
    package var partial = false

    /// The camera and its settings, as the photo's EXIF says.
    package struct Camera: Sendable, Equatable {
        package var make: String?
        package var model: String?
        package var lens: String?
        package var iso: Int?
        /// The f-number: 2.8 for f/2.8.
        package var aperture: Double?
        /// Seconds.
        package var exposure: Double?
        /// Millimetres.
        package var focalLength: Double?

        package init(make: String? = nil, model: String? = nil, lens: String? = nil, iso: Int? = nil,
                     aperture: Double? = nil, exposure: Double? = nil, focalLength: Double? = nil) {
            self.make = make
            self.model = model
            self.lens = lens
            self.iso = iso
            self.aperture = aperture
            self.exposure = exposure
            self.focalLength = focalLength
        }

        /// Nothing said at all.
        package var isEmpty: Bool { self == Camera() }

        /// What a manifest may say (docs/remote-gallery.md): each number within these, or left out.
        package static let isoRange = 1...10_000_000
        package static let apertureRange = 0.1...1000.0
        package static let exposureRange = 1e-9...1e6
        package static let focalLengthRange = 0.1...100_000.0

        /// The same with every value a manifest may not carry left out: a manual lens's EXIF
        /// says f/0, a broken one anything.
        package var valid: Camera {
            func kept(_ value: Double?, _ range: ClosedRange<Double>) -> Double? { value.flatMap { range.contains($0) ? $0 : nil } }
            return Camera(make: make, model: model, lens: lens, iso: iso.flatMap { Camera.isoRange.contains($0) ? $0 : nil },
                          aperture: kept(aperture, Camera.apertureRange), exposure: kept(exposure, Camera.exposureRange),
                          focalLength: kept(focalLength, Camera.focalLengthRange))
        }
    }

    /// `renditions` may come in any order; they are sorted by size, and of several of one size
    /// the last is kept.
    package init(id: String, name: String? = nil, original: RemoteURL, renditions: [Rendition] = [],
                width: Int? = nil, height: Int? = nil, bytes: Int? = nil, taken: String? = nil, caption: String? = nil,
                latitude: Double? = nil, longitude: Double? = nil, section: String? = nil, camera: Camera? = nil) {
        self.init(id: id, name: name, original: original, renditions: renditions, template: nil, width: width, height: height,
                  bytes: bytes, taken: taken, caption: caption, latitude: latitude, longitude: longitude, section: section,
                  camera: camera)
    }

    /// With a manifest's template besides the photo's own renditions; of one size, its own wins.
    init(id: String, name: String?, original: RemoteURL, renditions: [Rendition], template: TemplateRenditions?,
         width: Int?, height: Int?, bytes: Int?, taken: String?, caption: String?,
         latitude: Double?, longitude: Double?, section: String?, camera: Camera?, partial: Bool = false) {
        self.id = id
        self.partial = partial
        self.name = name ?? RemotePhoto.defaultName(id: id)
        self.original = original
        own = RemotePhoto.sortedBySize(renditions)
        self.template = template
        self.width = width
        self.height = height
        self.bytes = bytes
        self.taken = taken
        self.caption = caption
        self.latitude = latitude
        self.longitude = longitude
        self.section = section
        self.camera = camera
    }

    /// Smallest first, one per size: the template's and the photo's own together.
    package var renditions: [Rendition] {
        guard let template else { return own }
        var all = template.sizes.compactMap { size in own.contains { $0.size == size } ? nil : template.rendition(of: id, size: size) }
        all += own
        return all.count == own.count ? own : all.sorted { $0.size < $1.size }
    }

    /// Whether the gallery offers smaller copies of the photo (its own or by the template).
    package var hasRenditions: Bool { !own.isEmpty || template != nil }

    /// What to fetch for a tile (or view) whose short side is `needed` pixels: the smallest
    /// rendition whose short side is at least that, else the original, which is then scaled
    /// down here. Asking by the short side is what lets a tile be filled by a cropped photo.
    /// Only the URL chosen is made.
    package func source(coveringShortSide needed: Int) -> RemoteURL {
        let ownPick = own.first { shortSide(size: $0.size) >= needed }
        if let template, let size = template.sizes.first(where: { shortSide(size: $0) >= needed }),
           size < ownPick?.size ?? Int.max, let made = template.rendition(of: id, size: size) {
            return made.url
        }
        return ownPick?.url ?? original
    }

    /// The short side of a rendition in pixels: its size scaled by the photo's aspect ratio,
    /// rounded to the nearest pixel as a scaler would. Without the photo's width and height the
    /// rendition is assumed square (short side = size), the most it could be: photogrid then
    /// picks too small a copy at worst, and the tile is scaled up a little, never too large a one.
    package func shortSide(of rendition: Rendition) -> Int { shortSide(size: rendition.size) }

    private func shortSide(size: Int) -> Int { RemotePhoto.shortSide(size: size, width: width, height: height) }

    /// The short side of a rendition of `size` (its long side) of a `width` x `height` photo.
    /// The server choosing an opening batch's renditions (`Batch.Opening`) asks the same.
    package static func shortSide(size: Int, width: Int?, height: Int?) -> Int {
        guard let width, let height, width > 0, height > 0 else { return size }
        // In Doubles: a hostile manifest's sizes must not overflow an Int product.
        let short = (Double(size) * Double(min(width, height)) / Double(max(width, height))).rounded()
        return short >= Double(Int.max) ? Int.max : Int(short)
    }

    /// The last "/"-separated part of an id (`alps/lake-01` names `lake-01`), or the id itself.
    static func defaultName(id: String) -> String {
        var trimmed = Substring(id)
        while trimmed.count > 1, trimmed.last == "/" { trimmed = trimmed.dropLast() }
        guard let slash = trimmed.lastIndex(of: "/"), trimmed.index(after: slash) < trimmed.endIndex else { return String(trimmed) }
        return String(trimmed[trimmed.index(after: slash)...])
    }

    /// Equal when everything it exposes is, the renditions' URLs included, however they are kept.
    package static func == (a: RemotePhoto, b: RemotePhoto) -> Bool {
        a.id == b.id && a.name == b.name && a.original == b.original && a.width == b.width && a.height == b.height
            && a.bytes == b.bytes && a.taken == b.taken && a.caption == b.caption && a.latitude == b.latitude
            && a.longitude == b.longitude && a.section == b.section && a.renditions == b.renditions
    }

    static func sortedBySize(_ renditions: [Rendition]) -> [Rendition] {
        guard renditions.count > 1 else { return renditions }
        var bySize: [Int: Rendition] = [:]
        for rendition in renditions { bySize[rendition.size] = rendition }
        return bySize.values.sorted { $0.size < $1.size }
    }
}
