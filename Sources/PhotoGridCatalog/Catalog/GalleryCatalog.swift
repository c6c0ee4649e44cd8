import PhotoGridModel
import PhotoGridSystem

/// The catalog as one gallery sees it: its photos by their paths relative to its folder. A
/// catalog that cannot be read or written (a lock held past the timeout, a full disk) costs the
/// photos a second reading next time, never the run: the failure is said once, as a notice.
package struct GalleryCatalog: Sendable {
    package let catalog: Catalog
    /// The gallery's folder, absolute and resolved, so that one photo has one path in the catalog
    /// from wherever photogrid is started.
    package let root: RawPath

    package init(catalog: Catalog, root: RawPath) {
        self.catalog = catalog
        self.root = root
    }

    /// What the catalog knows of the gallery's photos, by relative path.
    package func entries() -> [RawPath: CatalogEntry] {
        do {
            return try catalog.entries(under: root)
        } catch {
            catalog.say("the catalog could not be read: \(error)")
            return [:]
        }
    }

    /// Each photo the catalog knows of the gallery, one at a time (`Catalog.scan`).
    package func scan(condition: (sql: String, values: [SQLiteValue])? = nil, _ body: (RawPath, CatalogEntry) -> Void) {
        do {
            try catalog.scan(under: root, condition: condition, body)
        } catch {
            catalog.say("the catalog could not be read: \(error)")
        }
    }

    /// The photos of `photos` that match `query`: by their catalog entries where the catalog
    /// knows them (the rows that can match read one at a time, only the matches kept), by their names and
    /// kinds where it does not. `rating` is a photo's rating as the app knows it, if it does.
    package func matching(_ query: PhotoQuery, among photos: [Photo], rating: (Photo) -> Int? = { _ in nil },
                          label: (Photo) -> String?? = { _ in nil }, keywords: (Photo) -> [String]? = { _ in nil }) -> Set<PhotoSource> {
        var byPath: [RawPath: Int] = [:]
        byPath.reserveCapacity(photos.count)
        for (index, photo) in photos.enumerated() { byPath[photo.relativePath] = index }
        var seen = [Bool](repeating: false, count: photos.count)
        var matches: Set<PhotoSource> = []
        // Only the rows that can match are read, where SQLite can tell (`catalogCondition`);
        // then a photo whose row was not read cannot match either.
        let condition = query.catalogCondition
        if query.needsCatalog {
            scan(condition: condition) { path, entry in
                guard let index = byPath[path], photos[index].stamp.map({ $0 == entry.stamp }) ?? true else { return }
                seen[index] = true
                let photo = photos[index]
                if query.matches(PhotoQuery.Facts(photo: photo, entry: entry, rating: rating(photo), label: label(photo), keywords: keywords(photo))) { matches.insert(photo.source) }
            }
        }
        guard condition == nil else { return matches }
        for (index, photo) in photos.enumerated() where !seen[index] {
            if query.matches(PhotoQuery.Facts(photo: photo, entry: nil, rating: rating(photo), label: label(photo), keywords: keywords(photo))) {
                matches.insert(photo.source)
            }
        }
        return matches
    }

    /// Labels set since the photos were read (sidecars changed, the photos not): kept in their
    /// rows, so that the filter finds them without reading the photos again.
    package func setLabels(_ labels: [(path: RawPath, label: String?)]) {
        guard !labels.isEmpty else { return }
        do {
            try catalog.setLabels(labels, under: root)
        } catch {
            catalog.say("the catalog could not be written: \(error)")
        }
    }

    /// Keywords set since the photos were read, the same way.
    package func setKeywords(_ keywords: [(path: RawPath, keywords: [String])]) {
        guard !keywords.isEmpty else { return }
        do {
            try catalog.setKeywords(keywords, under: root)
        } catch {
            catalog.say("the catalog could not be written: \(error)")
        }
    }

    /// Every keyword the catalog knows in the gallery (none when it cannot be read).
    package func keywords() -> [String] { (try? catalog.keywords(under: root)) ?? [] }

    /// Keeps what was read of these photos (paths relative to the folder).
    package func record(_ entries: [(path: RawPath, entry: CatalogEntry)]) {
        do {
            try catalog.record(entries, under: root)
        } catch {
            catalog.say("the catalog could not be written: \(error)")
        }
    }
}
