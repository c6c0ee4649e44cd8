import PhotoGridCanvas
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem

/// The details panel (`i`), for the focused photo in the grid or the photo in the zoom view.
extension GridController {
    /// Rows from the photo's file name and size and what its file says about itself, for the
    /// photo on top (the focused one in the grid, the one shown in the photo view).
    func detailsPanel() -> DetailsPanel {
        guard let index = topScreen.currentPhoto(context(panelArea: nil)) else { return DetailsPanel(title: "Details", rows: []) }
        let photo = session.table[index]
        var rows: [DetailsPanel.Row] = [DetailsPanel.Row("name", photo.name)]
        let relative = photo.relativePath.description
        let folder = relative.contains("/") ? String(relative[..<relative.lastIndex(of: "/")!]) : "."
        rows.append(DetailsPanel.Row("folder", folder == "." ? title : title + "/" + folder))
        if photo.fileSize > 0 { rows.append(DetailsPanel.Row("file", GridController.byteText(photo.fileSize))) }
        if session.pipeline.isIncomplete(photo: index) {
            // Short enough for the panel's narrowest width; Ctrl-R decodes it again once whole.
            rows.append(DetailsPanel.Row("", "incomplete: file ends early"))
        }
        guard let info = session.pipeline.info(index) else {
            rows.append(DetailsPanel.Row("", session.pipeline.failure(forPhoto: index)?.reason ?? (photo.format.isDecoded ? "reading..." : "no details")))
            return DetailsPanel(title: "Details", rows: rows)
        }
        if let width = info.width, let height = info.height { rows.append(DetailsPanel.Row("pixels", "\(width) x \(height)")) }
        if let duration = info.duration { rows.append(DetailsPanel.Row("length", GridController.durationText(duration))) }
        if let date = info.dateTaken { rows.append(DetailsPanel.Row("taken", GridController.dateText(date))) }
        let camera = [info.make, info.model].compactMap { $0 }
        if !camera.isEmpty {
            // "Canon" + "Canon EOS R6" reads as "Canon EOS R6".
            let joined = camera.count == 2 && camera[1].lowercased().hasPrefix(camera[0].lowercased()) ? camera[1] : camera.joined(separator: " ")
            rows.append(DetailsPanel.Row("camera", joined))
        }
        if let lens = info.lens { rows.append(DetailsPanel.Row("lens", lens)) }
        let exposure = [info.iso.map { "ISO \($0)" }, info.fNumberText, info.exposureText, info.focalLengthText].compactMap { $0 }
        if !exposure.isEmpty { rows.append(DetailsPanel.Row("exposure", exposure.joined(separator: "  "))) }
        if let position = info.positionText {
            rows.append(DetailsPanel.Row("position", position, link: info.openStreetMapURL))
            if let url = info.openStreetMapURL { rows.append(DetailsPanel.Row("map", url, link: url, whole: true)) }
        }
        if let caption = info.caption {
            rows.append(DetailsPanel.Row("caption", caption))
            if let source = info.captionSource { rows.append(DetailsPanel.Row("from", source.rawValue.uppercased())) }
        }
        if let raw = gallery.raws[photo.source] { rows.append(DetailsPanel.Row("raw", raw.name + " (shown with it)")) }
        let rating = gallery.rating(of: index)
        if rating != 0 { rows.append(DetailsPanel.Row("rating", Ratings.words(rating))) }
        if let label = gallery.labels[photo.source] ?? info.label, !label.isEmpty { rows.append(DetailsPanel.Row("label", label)) }
        let keywords = gallery.keywords[photo.source] ?? info.keywords
        if !keywords.isEmpty { rows.append(DetailsPanel.Row("keywords", keywords.joined(separator: ", "))) }
        return DetailsPanel(title: "Details", rows: rows)
    }

    /// What is drawn over the top right of the view: the top panel (the key help over the
    /// details), else nothing.
    func overlayPanel() -> DetailsPanel? {
        for layer in layers.reversed() {
            if let help = layer as? HelpView { return help.shown }
            if layer is DetailsView { return detailsPanel() }
        }
        return nil
    }

    /// The panel's cells, at the top right of the view: its first column and its rows; nil
    /// while none is open.
    package var overlayArea: (column: Int, rows: Int)? {
        guard let panel = overlayPanel() else { return nil }
        let width = DetailsPanel.width(forScreenColumns: screen.columns)
        let rows = panel.lines(width: width, maxRows: grid?.layout.areaRows ?? max(1, screen.rows - GridLayout.statusRows), colors: session.halfBlockColors).count
        return rows > 0 ? (screen.columns - width, rows) : nil
    }

    /// The panel's bytes, at the top right of the view.
    func detailsBytes() -> [UInt8] {
        guard let panel = overlayPanel() else { return [] }
        let width = DetailsPanel.width(forScreenColumns: screen.columns)
        let lines = panel.lines(width: width, maxRows: grid?.layout.areaRows ?? max(1, screen.rows - GridLayout.statusRows), colors: session.halfBlockColors)
        guard !lines.isEmpty else { return [] }
        var out = Array("\u{1B}7".utf8)
        for (i, line) in lines.enumerated() { out += GridPainter.moveTo(row: i, column: screen.columns - width) + line }
        return out + Array("\u{1B}[0m\u{1B}8".utf8)
    }

    /// The panel drawn over what the frame wrote, when one is open and anything under it or in it changed.
    func withPanel(_ bytes: [UInt8]) -> [UInt8] {
        guard overlayPanel() != nil else { return bytes }
        let panel = detailsBytes()
        if bytes.isEmpty && panel == drawnPanel { return bytes }
        drawnPanel = panel
        return bytes + panel
    }

    /// "0:03", "12:40", "1:02:03", as players show a length.
    static func durationText(_ seconds: Double) -> String {
        let total = Int(seconds.rounded())
        let (hours, minutes, rest) = (total / 3600, total / 60 % 60, total % 60)
        let tail = (rest < 10 ? "0" : "") + "\(rest)"
        return hours > 0 ? "\(hours):" + (minutes < 10 ? "0" : "") + "\(minutes):" + tail : "\(minutes):" + tail
    }

    /// "3.4 MB", "812 KB", "640 bytes".
    static func byteText(_ bytes: Int) -> String {
        if bytes >= 1_000_000 { return "\(Double(bytes / 100_000) / 10) MB" }
        if bytes >= 1_000 { return "\(bytes / 1_000) KB" }
        return "\(bytes) bytes"
    }

    /// EXIF's "2024:07:14 19:42:05" as "2024-07-14 19:42:05".
    static func dateText(_ exif: String) -> String {
        var characters = Array(exif)
        if characters.count >= 10, characters[4] == ":", characters[7] == ":" { characters[4] = "-"; characters[7] = "-" }
        return String(characters)
    }
}
