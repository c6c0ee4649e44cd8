extension PhotoInfo {
    /// With the caption of the photo's sidecar in place of its own, when the sidecar has one: a
    /// caption edited in photogrid, darktable or digiKam is newer than the one in the file. Only
    /// photos in a local folder have sidecars (a remote one has no stamp).
    func withSidecar(of photo: Photo) -> PhotoInfo {
        guard photo.stamp != nil, let caption = Sidecar(photo: photo.path).caption() else { return self }
        var info = self
        info.caption = caption
        info.captionSource = .sidecar
        return info
    }
}
