import PhotoGridCatalog
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
        if !(topScreen is PhotoView), !(topScreen is CompareView), !marked.isEmpty { return expandingStacks(gallery.photos.ids.filter { marked.contains($0) }) }
        // The photo view shows one photo, and acts on that one; the grid's tile, on its stack.
        let focus = topScreen.currentPhoto(context).map { [$0] } ?? []
        return topScreen is PhotoView || topScreen is CompareView ? focus : expandingStacks(focus)
    }

    /// Sets the rating of `targets` (-1 a reject, 0 none, 1-5 stars) and says so, or why not: a
    /// photo from elsewhere has no sidecar, and `--read-only` writes nothing.
    func rate(_ targets: [PhotoID], _ rating: Int) {
        guard !targets.isEmpty else { return }
        if settings.readOnly { notice = "read-only (--read-only): ratings are not saved"; return }
        let result = writeSidecars(targets, kept: "ratings", { _, _ in .save { $0.save(rating: rating) } }) { _, photo in
            gallery.ratings.set(rating, for: photo)
            gallery.filtering.setSinceScan.insert(photo.source)
        }
        // The status line names the rating of the photo in focus; the notice says where it went.
        notice = sidecarNotice(targets.count, result, Ratings.words(rating))
        panelChanged()
    }

    /// What `writeSidecars` does to one photo's sidecar: nothing (it holds that already), or a save.
    enum SidecarEdit {
        case unchanged
        case save((Sidecar) -> Sidecar.Problem?)
    }

    /// Each target's sidecar edited (`edit` says how), and that of a raw file shown with it, where
    /// darktable and Lightroom look for the raw's; `saved` runs for each photo written. What was
    /// written, how many were done, and what failed, for the notice.
    func writeSidecars(_ targets: [PhotoID], kept what: String, _ edit: (PhotoID, Photo) -> SidecarEdit,
                       saved: (PhotoID, Photo) -> Void) -> (done: Int, written: String, failures: [String]) {
        var failures: [String] = [], done = 0, written = ""
        for id in targets {
            let photo = session.table[id]
            guard let file = photo.file else { failures.append("\(what) are kept beside photos in a local folder only"); continue }
            guard case .save(let save) = edit(id, photo) else { done += 1; continue }
            let sidecar = Sidecar.of(file)
            if let problem = save(sidecar) { failures.append(sidecar.message(problem)); continue }
            written = sidecar.name
            if let raw = gallery.raws[photo.source], let rawFile = raw.file {
                let rawSidecar = Sidecar.of(rawFile)
                if let problem = save(rawSidecar) { failures.append(rawSidecar.message(problem)) } else { written += " and " + rawSidecar.name }
            }
            saved(id, photo)
            done += 1
        }
        return (done, written, failures)
    }

    /// "4 stars, in a.jpg.xmp", "3 photos: 4 stars", and the first failure after it.
    func sidecarNotice(_ count: Int, _ result: (done: Int, written: String, failures: [String]), _ words: String) -> String {
        let said = count == 1 ? words + (result.written.isEmpty ? " (no change)" : ", in " + result.written) : "\(result.done) photos: " + words
        return result.failures.isEmpty ? said : (result.done > 0 ? said + "; " : "") + result.failures[0]
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
        var recorded: [(path: RawPath, value: SQLiteValue)] = []
        let result = writeSidecars(targets, kept: "labels", { _, _ in .save { $0.save(label: label) } }) { id, photo in
            gallery.labels[photo.source] = label.isEmpty ? .some(nil) : label
            recorded.append((photo.relativePath, Catalog.value(label: label.isEmpty ? nil : label)))
            session.pipeline.forgetInfo(id)
        }
        gallery.readers.catalog?.update(.label, recorded)
        notice = sidecarNotice(targets.count, result, label.isEmpty ? "no label" : label.lowercased() + " label")
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
        var recorded: [(path: RawPath, value: SQLiteValue)] = [], lists: [PhotoID: [String]] = [:]
        let result = writeSidecars(targets, kept: "keywords", { id, photo in
            let before = gallery.keywords[photo.source] ?? session.pipeline.info(id)?.keywords
                ?? gallery.readers.readInfo?(photo)?.keywords ?? photo.file.map { Sidecar.of($0).keywords() } ?? []
            var after = before.filter { word in !removing.contains { $0.lowercased() == word.lowercased() } }
            for word in adding where !after.contains(where: { $0.lowercased() == word.lowercased() }) { after.append(word) }
            guard after != before else { return .unchanged }
            lists[id] = after
            return .save { $0.save(keywords: after) }
        }) { id, photo in
            gallery.keywords[photo.source] = lists[id]
            recorded.append((photo.relativePath, Catalog.value(keywords: lists[id] ?? [])))
            session.pipeline.forgetInfo(id)
        }
        gallery.readers.catalog?.update(.keywords, recorded)
        notice = sidecarNotice(targets.count, result, "keywords " + (adding.map { "+" + $0 } + removing.map { "-" + $0 }).joined(separator: " "))
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
