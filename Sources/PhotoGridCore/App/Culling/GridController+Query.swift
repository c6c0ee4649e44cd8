import PhotoGridCatalog
import PhotoGridGallery
import PhotoGridModel

/// `--filter` and `\`: only the photos that match what they are (`PhotoQuery`), with the rating
/// filter by and. What the terms ask of photos the catalog has not told yet is read first, by the
/// same reading as the dates (whole entries), in the background; the filter applies when it ends.
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
        if query.needsCatalog, gallery.readers.readDates != nil,
           gallery.allPhotos.contains(where: { gallery.dates.entries[$0.source] == nil }) {
            gallery.dates.pendingQuery = query
            gallery.startReadingDates()
            return
        }
        applyQuery(query)
    }

    /// The filter, once what it asks is known: the photos that match, or all of them and why.
    func applyQuery(_ query: PhotoQuery) {
        let all = gallery.allPhotos
        guard all.contains(where: { gallery.matches(query, $0) }) else {
            notice = "no photo matches the filter \(query): all \(all.count) shown"
            if gallery.query != nil {
                gallery.query = nil
                showList(all)
            }
            return
        }
        gallery.query = query
        showList(all)
    }
}

extension GalleryModel {
    /// Whether `photo` matches `query`, by its catalog entry and the rating known here.
    func matches(_ query: PhotoQuery, _ photo: Photo) -> Bool {
        query.matches(PhotoQuery.Facts(photo: photo, entry: dates.entries[photo.source], rating: ratings.known(photo)))
    }
}
