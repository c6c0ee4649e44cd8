import PhotoGridModel
import PhotoGridSystem

extension PhotoInfo {
    /// With the caption, rating, label and keywords of the photo's sidecar in place of its own,
    /// each when the sidecar has it: an edit made in photogrid, darktable or digiKam is newer than what is in
    /// the file. Only photos in files have sidecars.
    package func withSidecar(of photo: Photo) -> PhotoInfo {
        guard let file = photo.file else { return self }
        let sidecar = Sidecar.of(file)
        guard case .success(let bytes?) = sidecar.read() else { return self }
        var info = self
        if let caption = XMPReader.description(bytes) {
            info.caption = caption
            info.captionSource = .sidecar
        }
        if let rating = XMPRating.read(bytes) { info.rating = rating }
        if let label = XMPReader.label(bytes) { info.label = label }
        let keywords = XMPReader.keywords(bytes)
        if !keywords.isEmpty { info.keywords = keywords }
        // A photo turned in its sidecar (not a JPEG, which is turned in its file): its size as shown.
        if photo.format.name != "JPEG", !photo.format.isRaw, let turned = Sidecar.orientation(in: bytes), let width, let height {
            let stored = orientation.displaySize(width: width, height: height)        // undone: as stored
            (info.width, info.height) = turned.displaySize(width: stored.width, height: stored.height)
            info.orientation = turned
        }
        return info
    }
}
