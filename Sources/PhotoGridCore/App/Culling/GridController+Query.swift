import PhotoGridCatalog
import PhotoGridGallery
import PhotoGridModel

/// `--filter` and `\`: only the photos that match what they are (`PhotoQuery`), with the rating
/// filter by and. Photos the catalog has not been told of yet are read first, by the same
/// reading as the dates, in the background; then the catalog is asked, row by row, and only
/// the matches are kept.
extension GridController {
    package func setQuery(_ query: PhotoQuery?) {
        gallery.dates.pendingQuery = nil
        guard let query else {
            let wasOn = gallery.query != nil
            gallery.query = nil
            if wasOn {
                showList(gallery.allPhotos)
                notice = "filter off: \(session.photos.count) photos shown"
            }
            return
        }
        if query.needsCatalog, gallery.readers.catalog != nil, gallery.readers.readDates != nil,
           gallery.allPhotos.contains(where: { gallery.dates.known[$0.source] == nil }) {
            gallery.dates.pendingQuery = query
            gallery.startReadingDates()
            return
        }
        applyQuery(query)
    }

    /// The filter, once what it asks is known: the photos that match, or all of them and why.
    func applyQuery(_ query: PhotoQuery) {
        let all = gallery.allPhotos
        let ratings = gallery.ratings, labels = gallery.labels, keywords = gallery.keywords
        let known = PhotoQuery.Known(rating: { ratings.known($0) }, label: { labels[$0.source] }, keywords: { keywords[$0.source] })
        let matches = gallery.readers.catalog?.matching(query, among: all, known: known) ?? query.matching(all, known: known)
        guard !matches.isEmpty else {
            notice = "no photo matches the filter \(query): all \(all.count) shown"
            if gallery.query != nil {
                gallery.query = nil
                showList(all)
            }
            return
        }
        gallery.query = query
        gallery.queryMatches = matches
        showList(all)
        if query.needsCatalog && gallery.readers.catalog == nil {
            notice = "filter: only the names are matched here (what photos are is kept for folders)"
        }
    }
}
