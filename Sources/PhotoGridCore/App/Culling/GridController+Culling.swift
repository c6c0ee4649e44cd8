import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridMetadata
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Culling, as photographers' tools key it: stars and rejects written to the photo's XMP sidecar
/// (`Sidecar.save(rating:)`), and filters by them. In the photo view they act on the photo shown;
/// in the grid on the marked photos, else the focused one.
extension GridController {
    /// The photos the culling keys act on: in the grid (and the time zoom) the marked ones, else
    /// the focused one; in the photo view and in compare the one shown or focused.
    var cullingTargets: [PhotoID] {
        if !(topScreen is PhotoView), !(topScreen is CompareView), !marked.isEmpty { return gallery.photos.ids.filter { marked.contains($0) } }
        return topScreen.currentPhoto(context).map { [$0] } ?? []
    }

    /// Sets the rating of `targets` (-1 a reject, 0 none, 1-5 stars) and says so, or why not: a
    /// photo from elsewhere has no sidecar, and `--read-only` writes nothing.
    func rate(_ targets: [PhotoID], _ rating: Int) {
        guard !targets.isEmpty else { return }
        if settings.readOnly { notice = "read-only (--read-only): ratings are not saved"; return }
        var failures: [String] = [], done = 0, written = ""
        for id in targets {
            let photo = session.table[id]
            guard let file = photo.file else { failures.append("ratings are kept beside photos in a local folder only"); continue }
            let sidecar = Sidecar.of(file)
            if let problem = sidecar.save(rating: rating) { failures.append(sidecar.message(problem)); continue }
            written = sidecar.name
            gallery.ratings.set(rating, for: photo)
            // Its raw file too, where darktable and Lightroom look for the rating of the raw.
            if let raw = gallery.raws[photo.source], let rawFile = raw.file {
                let rawSidecar = Sidecar.of(rawFile)
                if let problem = rawSidecar.save(rating: rating) { failures.append(rawSidecar.message(problem)) } else { written += " and " + rawSidecar.name }
            }
            gallery.filtering.setSinceScan.insert(photo.source)
            done += 1
        }
        // The status line names the rating of the photo in focus; the notice says where it went.
        let said = targets.count == 1 ? Ratings.words(rating) + ", in " + written : "\(done) photos: " + Ratings.words(rating)
        notice = failures.isEmpty ? said : (done > 0 ? said + "; " : "") + failures[0]
        panelChanged()
    }

    /// `x`: rejects the targets, or takes the reject back when they are all rejected already.
    func toggleReject() {
        let targets = cullingTargets
        guard !targets.isEmpty else { return }
        rate(targets, targets.allSatisfy { gallery.rating(of: $0) < 0 } ? 0 : -1)
    }

    /// `L`: a colour label for the targets, typed next (`r` `y` `g` `b` `p`, `0` none).
    func askLabel() {
        let targets = cullingTargets
        guard !targets.isEmpty else { return }
        layers.append(ChoiceView(.label(targets)))
    }

    /// Sets the colour label of `targets` ("Red"...; empty: none) in their sidecars as `xmp:Label`,
    /// where Lightroom, darktable and digiKam read it; the catalog is told, so that the filter's
    /// `label:` finds it at once and in later runs, though the photo itself did not change.
    func setLabel(_ targets: [PhotoID], _ label: String) {
        guard !targets.isEmpty else { return }
        if settings.readOnly { notice = "read-only (--read-only): labels are not saved"; return }
        var failures: [String] = [], done = 0, written = ""
        var recorded: [(path: RawPath, label: String?)] = []
        for id in targets {
            let photo = session.table[id]
            guard let file = photo.file else { failures.append("labels are kept beside photos in a local folder only"); continue }
            let sidecar = Sidecar.of(file)
            if let problem = sidecar.save(label: label) { failures.append(sidecar.message(problem)); continue }
            written = sidecar.name
            if let raw = gallery.raws[photo.source], let rawFile = raw.file {
                let rawSidecar = Sidecar.of(rawFile)
                if let problem = rawSidecar.save(label: label) { failures.append(rawSidecar.message(problem)) } else { written += " and " + rawSidecar.name }
            }
            gallery.labels[photo.source] = label.isEmpty ? .some(nil) : label
            recorded.append((photo.relativePath, label.isEmpty ? nil : label))
            session.pipeline.forgetInfo(id)
            done += 1
        }
        gallery.readers.catalog?.setLabels(recorded)
        let words = label.isEmpty ? "no label" : label.lowercased() + " label"
        let said = targets.count == 1 ? words + ", in " + written : "\(done) photos: " + words
        notice = failures.isEmpty ? said : (done > 0 ? said + "; " : "") + failures[0]
        panelChanged()
    }

    /// `t`: keywords for the targets, typed next, with the gallery's keywords to complete from.
    func askKeywords() {
        let targets = cullingTargets
        guard !targets.isEmpty else { return }
        if settings.readOnly { notice = "read-only (--read-only): keywords are not saved"; return }
        var known = Set(gallery.readers.catalog?.keywords() ?? [])
        for list in gallery.keywords.values { known.formUnion(list) }
        layers.append(KeywordView(photos: targets, known: known.sorted { $0.lowercased() < $1.lowercased() }))
    }

    /// Adds and takes off keywords of `targets`: each photo's list as it is now (its sidecar's,
    /// else its own), changed, written whole into the sidecar as `dc:subject` (darktable's,
    /// digiKam's and Lightroom's keywords), and told to the catalog for the filter's `keyword:`.
    func setKeywords(_ targets: [PhotoID], adding: [String], removing: [String]) {
        guard !targets.isEmpty else { return }
        if settings.readOnly { notice = "read-only (--read-only): keywords are not saved"; return }
        var failures: [String] = [], done = 0, written = ""
        var recorded: [(path: RawPath, keywords: [String])] = []
        for id in targets {
            let photo = session.table[id]
            guard let file = photo.file else { failures.append("keywords are kept beside photos in a local folder only"); continue }
            let before = gallery.keywords[photo.source] ?? session.pipeline.info(id)?.keywords
                ?? gallery.readers.readInfo?(photo)?.keywords ?? Sidecar.of(file).keywords()
            var after = before.filter { word in !removing.contains { $0.lowercased() == word.lowercased() } }
            for word in adding where !after.contains(where: { $0.lowercased() == word.lowercased() }) { after.append(word) }
            guard after != before else { done += 1; continue }
            let sidecar = Sidecar.of(file)
            if let problem = sidecar.save(keywords: after) { failures.append(sidecar.message(problem)); continue }
            written = sidecar.name
            if let raw = gallery.raws[photo.source], let rawFile = raw.file {
                let rawSidecar = Sidecar.of(rawFile)
                if let problem = rawSidecar.save(keywords: after) { failures.append(rawSidecar.message(problem)) } else { written += " and " + rawSidecar.name }
            }
            gallery.keywords[photo.source] = after
            recorded.append((photo.relativePath, after))
            session.pipeline.forgetInfo(id)
            done += 1
        }
        gallery.readers.catalog?.setKeywords(recorded)
        let words = (adding.map { "+" + $0 } + removing.map { "-" + $0 }).joined(separator: " ")
        let said = targets.count == 1 ? "keywords " + words + (written.isEmpty ? " (no change)" : ", in " + written) : "\(done) photos: keywords " + words
        notice = failures.isEmpty ? said : (done > 0 ? said + "; " : "") + failures[0]
        panelChanged()
    }

    /// `R` in the grid: a rating for the targets, typed next.
    func askRating() {
        let targets = cullingTargets
        guard !targets.isEmpty else { return }
        layers.append(ChoiceView(.rating(targets)))
    }

    /// Shows the photos `filter` keeps. Every photo's rating must be known first: those not yet
    /// read are read in the background (`RatingScan`), and the filter applies when they are.
    package func setFilter(_ filter: RatingFilter) {
        gallery.filtering.scan?.cancel()
        gallery.filtering.scan = nil
        gallery.filtering.pending = nil
        if filter != .all, let startScan = gallery.readers.readRatings {
            let unknown = gallery.allPhotos.filter { gallery.ratings.known($0) == nil }
            if !unknown.isEmpty {
                gallery.filtering.pending = filter
                gallery.filtering.scan = startScan(unknown)
                gallery.filtering.setSinceScan = []
                return
            }
        }
        applyFilter(filter)
    }

    /// At a frame: a finished rating scan's filter applied.
    func finishRatingScan() {
        guard let scan = gallery.filtering.scan, scan.progress.finished, let filter = gallery.filtering.pending else { return }
        gallery.ratings.merge(scanned: scan.ratings, setSince: gallery.filtering.setSinceScan)
        gallery.filtering.scan = nil
        gallery.filtering.pending = nil
        applyFilter(filter)
    }

    private func applyFilter(_ filter: RatingFilter) {
        let all = gallery.allPhotos
        let kept = gallery.ratings.kept(all, by: filter)
        if kept.isEmpty {
            notice = filter.noneLeft + ": all \(all.count) shown"
            gallery.filter = .all
            if gallery.filtering.unfiltered != nil { showList(all) }
            return
        }
        gallery.filter = filter
        showList(all)
        // While a filter is on the status line says what it hides (`filterStatus`).
        if filter == .all { notice = "all \(all.count) photos shown" }
    }

}
