import PhotoGridModel
import PhotoGridSystem

/// The details as the panel writes them: photographers' notation for exposure, aperture and focal
/// length, degrees with hemispheres for the position, and a map link.
///
/// Numbers are formatted here by hand: the library does without Foundation, and the standard
/// library's `description` of a Double gives no control over the number of decimals.
extension PhotoInfo {
    /// "1/250 s", "0.3 s", "2.5 s".
    package var exposureText: String? { exposureTime.flatMap(PhotoInfo.exposureText) }
    /// "f/2.8".
    package var fNumberText: String? { fNumber.flatMap(PhotoInfo.fNumberText) }
    /// "35 mm".
    package var focalLengthText: String? { focalLength.flatMap(PhotoInfo.focalLengthText) }

    /// "48.85837° N, 2.29448° E"; nil unless both coordinates are known.
    package var positionText: String? {
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite else { return nil }
        return PhotoInfo.decimal(abs(latitude), places: 5) + "° " + (latitude < 0 ? "S" : "N") + ", "
            + PhotoInfo.decimal(abs(longitude), places: 5) + "° " + (longitude < 0 ? "W" : "E")
    }

    /// The position on openstreetmap.org, with a marker, at street level.
    package var openStreetMapURL: String? {
        guard let latitude, let longitude, latitude.isFinite, longitude.isFinite else { return nil }
        let lat = PhotoInfo.decimal(latitude, places: 5), lon = PhotoInfo.decimal(longitude, places: 5)
        return "https://www.openstreetmap.org/?mlat=\(lat)&mlon=\(lon)#map=16/\(lat)/\(lon)"
    }

    /// Times that are a whole fraction of a second (within 5%), as shutter dials mark them:
    /// "1/250 s"; other times in seconds with one decimal: "0.3 s", "2.5 s", "30 s".
    package static func exposureText(_ seconds: Double) -> String? {
        guard seconds.isFinite, seconds > 0 else { return nil }
        if seconds < 1 {
            let denominator = (1 / seconds).rounded()
            // An exposure is at least 1/UInt32.max seconds; the bound keeps Int() safe for any Double.
            if denominator >= 2, denominator < 1e12, abs(denominator * seconds - 1) < 0.05 {
                return "1/\(Int(denominator)) s"
            }
        }
        return decimal(seconds, places: 1, trimmed: true) + " s"
    }

    /// "f/2.8", "f/11"; a second decimal only for the rare lenses faster than f/1 ("f/0.95").
    package static func fNumberText(_ value: Double) -> String? {
        guard value.isFinite, value > 0 else { return nil }
        return "f/" + decimal(value, places: value < 1 ? 2 : 1, trimmed: true)
    }

    /// "35 mm", "5.1 mm".
    package static func focalLengthText(_ millimetres: Double) -> String? {
        guard millimetres.isFinite, millimetres > 0 else { return nil }
        return decimal(millimetres, places: 1, trimmed: true) + " mm"
    }

    /// `value` rounded to `places` decimals, with trailing zeros (and the point) dropped if `trimmed`.
    package static func decimal(_ value: Double, places: Int, trimmed: Bool = false) -> String {
        var scale = 1
        for _ in 0..<places { scale *= 10 }
        let scaled = (abs(value) * Double(scale)).rounded()
        // Beyond what an Int holds there are no decimals left to show anyway.
        guard value.isFinite, scaled < 1e17 else { return value.description }
        let units = Int(scaled)
        let sign = value < 0 && units != 0 ? "-" : ""
        guard places > 0 else { return sign + String(units) }
        var fraction = String(units % scale)
        fraction = String(repeating: "0", count: places - fraction.count) + fraction
        if trimmed { while fraction.last == "0" { fraction.removeLast() } }
        return sign + String(units / scale) + (fraction.isEmpty ? "" : "." + fraction)
    }
}
