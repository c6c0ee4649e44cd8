import PhotoGridDecoding
import PhotoGridGallery
import PhotoGridModel
import PhotoGridSystem
import PhotoGridTerminal

/// Culling, as photographers' tools key it: stars and rejects written to the photo's XMP sidecar
/// (`Sidecar.save(rating:)`), and filters by them. In the photo view they act on the photo shown;
/// in the grid on the marked photos, else the focused one.
extension GridController {
    /// Photo `index`'s rating, 0 when it has none.
    func rating(ofPhoto index: Int) -> Int {
        guard session.photos.indices.contains(index) else { return 0 }
        return gallery.ratings.rating(of: session.photos[index], info: session.pipeline.info(index))
    }

    /// The photos the culling keys act on, as indexes: in the grid the marked ones, else the
    /// focused one; in the photo view and in compare the one shown or focused.
    var cullingTargets: [Int] {
        if !(topScreen is PhotoView), !(topScreen is CompareView), !marked.isEmpty { return session.photos.indices.filter { marked.contains(session.photos[$0].source) } }
        let photo = topScreen.currentPhoto
        return session.photos.indices.contains(photo) ? [photo] : []
    }

    /// Sets the rating of the culling targets (-1 a reject, 0 none, 1-5 stars) and says so, or
    /// why not: a photo from elsewhere has no sidecar, and `--read-only` writes nothing.
    func rate(_ rating: Int) {
        let targets = cullingTargets
        guard !targets.isEmpty else { return }
        if settings.readOnly { notice = "read-only (--read-only): ratings are not saved"; return }
        var failures: [String] = [], done = 0, written = ""
        for index in targets {
            let photo = session.photos[index]
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
        rate(targets.allSatisfy { rating(ofPhoto: $0) < 0 } ? 0 : -1)
    }

    /// `R` in the grid: a rating for the targets, typed next.
    func askRating() {
        let count = cullingTargets.count
        let question = count > 1 ? "rate \(count) marked photos: 1-5 stars, 0 none, x reject" : "rate: 1-5 stars, 0 none, x reject"
        layers.append(ChoiceView(app: self, question: question) { [unowned self] key in
            switch key {
            case .character(let c) where ("0"..."5").contains(c): rate(Int(String(c))!)
            case .character("x"): rate(-1)
            default: return false
            }
            return true
        })
    }

    /// `f`: which photos to show by rating, typed next.
    func askFilter() {
        layers.append(ChoiceView(app: self, question: "show: 1-5 at least that many stars, x rejects, 0 all") { [unowned self] key in
            switch key {
            case .character(let c) where ("1"..."5").contains(c): setFilter(.atLeast(Int(String(c))!))
            case .character("0"): setFilter(.all)
            case .character("x"): setFilter(.rejected)
            default: return false
            }
            return true
        })
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
            if gallery.filtering.unfiltered != nil { replacePhotos(all) }
            return
        }
        gallery.filter = filter
        replacePhotos(all)
        // While a filter is on the status line says what it hides (`filterStatus`).
        if filter == .all { notice = "all \(all.count) photos shown" }
    }

    /// "4+ stars: 120 hidden", or how far the ratings are read, for the status line.
    var filterStatus: String? {
        if let scan = gallery.filtering.scan { return "reading ratings \(scan.progress.done) of \(scan.total)" }
        guard let words = gallery.filter.words, let all = gallery.filtering.unfiltered else { return nil }
        return words + ": \(all.count - session.photos.count) hidden"
    }
}
