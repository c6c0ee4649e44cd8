import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem

/// `[` and `]`: the marked photos (else the focused one) turned a quarter left or right, JPEGs
/// losslessly in the file itself (`JPEGRotation`), other pictures in their sidecars
/// (`tiff:Orientation`), their tiles made again. `[` undoes `]`: a
/// whole-block photo comes back to the same pixels.
extension GridController {
    func rotate(_ targets: [PhotoID], clockwise: Bool) {
        guard !targets.isEmpty else { return }
        if settings.readOnly { notice = "read-only (--read-only): nothing is turned"; return }
        var turned = 0, trimmed = 0, inSidecar: String?, failures: [String] = [], changed: [(PhotoID, FileStamp)] = [], records: [Photo] = []
        for id in targets {
            let photo = session.table[id]
            guard let file = photo.file else { failures.append("photos from elsewhere are not turned"); continue }
            guard photo.format == .jpeg else {
                // Other pictures keep their files: the turn goes in the sidecar, as Lightroom and
                // digiKam keep it, and photogrid shows it (`PhotoDecoder.turnedBySidecar`).
                guard photo.format.isDecoded, !photo.format.isRaw else {
                    failures.append(photo.name + ": " + (photo.format.isRaw ? "a raw file is turned in its raw developer" : "not a picture photogrid turns"))
                    continue
                }
                // A file that does not read as the picture its name says gets no sidecar for it.
                guard let own = PhotoDecoder.readInfo(photo) else {
                    failures.append(photo.name + ": not turned, it does not read as a " + photo.format.name)
                    continue
                }
                let current = Sidecar.orientation(of: file) ?? own.orientation
                let sidecar = Sidecar.of(file)
                if let problem = sidecar.save(orientation: current.turned(clockwise: clockwise)) {
                    failures.append(sidecar.message(problem))
                    continue
                }
                turned += 1
                inSidecar = sidecar.name
                changed.append((id, photo.stamp ?? FileStamp(size: photo.fileSize, modified: 0)))
                continue
            }
            do throws(JPEGRotation.Failure) {
                let done = try JPEGRotation.rotate(file, clockwise ? .clockwise : .counterclockwise)
                turned += 1
                trimmed = max(trimmed, done.trimmed)
                if let status = file.status() {
                    let stamp = FileStamp(status)
                    records.append(Photo(path: file, relativePath: photo.relativePath, fileSize: status.size, format: photo.format, stamp: stamp))
                    changed.append((id, stamp))
                }
            } catch {
                failures.append(photo.name + " not turned: " + error.description)
            }
        }
        // The table takes the files as they are now; what was made of them is made again.
        _ = session.table.ids(for: records)
        session.pipeline.filesChanged(changed)
        for (id, _) in changed { session.pipeline.forgetInfo(id) }
        var said = turned == 0 ? "" : (turned == 1 ? "turned " + session.table[targets[0]].name : "turned \(turned) photos")
            + (clockwise ? " right" : " left") + " (" + (clockwise ? "[" : "]") + " turns back)"
        if let inSidecar, turned == 1 { said += ", in " + inSidecar }
        if trimmed > 0 { said += "; \(trimmed) px trimmed off an edge that was not a whole block" }
        if let failure = failures.first { said += (said.isEmpty ? "" : "; ") + failure }
        notice = said
        panelChanged()
    }
}
