import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem

/// `[` and `]`: the marked photos (else the focused one) turned a quarter left or right, JPEGs
/// losslessly in the file itself (`JPEGRotation`), their tiles made again. `[` undoes `]`: a
/// whole-block photo comes back to the same pixels.
extension GridController {
    func rotate(_ targets: [PhotoID], clockwise: Bool) {
        guard !targets.isEmpty else { return }
        if settings.readOnly { notice = "read-only (--read-only): nothing is turned"; return }
        var turned = 0, trimmed = 0, failures: [String] = [], changed: [(PhotoID, FileStamp)] = [], records: [Photo] = []
        for id in targets {
            let photo = session.table[id]
            guard let file = photo.file else { failures.append("photos from elsewhere are not turned"); continue }
            guard photo.format == .jpeg else {
                failures.append(photo.name + ": only JPEGs are turned, losslessly (" + photo.format.name + " is not)")
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
        if trimmed > 0 { said += "; \(trimmed) px trimmed off an edge that was not a whole block" }
        if let failure = failures.first { said += (said.isEmpty ? "" : "; ") + failure }
        notice = said
        panelChanged()
    }
}
