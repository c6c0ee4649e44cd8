import PhotoGridModel
import PhotoGridSystem

extension PhotoInfo {
    /// With the caption of the photo's sidecar in place of its own, when the sidecar has one: a
    /// caption edited in photogrid, darktable or digiKam is newer than the one in the file. Only
    /// photos in files have sidecars.
    package func withSidecar(of photo: Photo) -> PhotoInfo {
        guard let file = photo.file, let caption = Sidecar(photo: file).caption() else { return self }
        var info = self
        info.caption = caption
        info.captionSource = .sidecar
        return info
    }
}
