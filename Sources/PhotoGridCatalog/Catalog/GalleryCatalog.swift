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

    /// The catalog's row of each of `photos` it holds for the file as it is now (the same
    /// stamp), one at a time by the photo's index; `condition`: only the rows that meet it.
    package func rows(of photos: [Photo], condition: (sql: String, values: [SQLiteValue])? = nil, _ body: (Int, CatalogEntry) -> Void) {
        var byPath: [RawPath: Int] = [:]
        byPath.reserveCapacity(photos.count)
        for (index, photo) in photos.enumerated() where photo.stamp != nil { byPath[photo.relativePath] = index }
        scan(condition: condition) { path, entry in
            guard let index = byPath[path], photos[index].stamp == entry.stamp else { return }
            body(index, entry)
        }
    }

    /// The photos of `photos` that match `query`: by their catalog rows where the catalog knows
    /// them (the rows that can match read one at a time, only the matches kept), by their names
    /// and kinds where it does not; `known` is what the app knows of them since.
    package func matching(_ query: PhotoQuery, among photos: [Photo], known: PhotoQuery.Known = .nothing) -> Set<PhotoSource> {
        guard query.needsCatalog else { return query.matching(photos, known: known) }
        var seen = [Bool](repeating: false, count: photos.count)
        var matches: Set<PhotoSource> = []
        // Only the rows that can match are read, where SQLite can tell (`catalogCondition`);
        // then a photo whose row was not read cannot match either.
        let condition = query.catalogCondition
        rows(of: photos, condition: condition) { index, entry in
            seen[index] = true
            if query.matches(known.facts(photos[index], entry)) { matches.insert(photos[index].source) }
        }
        guard condition == nil else { return matches }
        return matches.union(query.matching(photos.indices.lazy.filter { !seen[$0] }.map { photos[$0] }, known: known))
    }

    /// Labels or keywords set since the photos were read (sidecars changed, the photos not):
    /// kept in their rows, so that the filter finds them without reading the photos again.
    package func update(_ column: Catalog.SidecarColumn, _ values: [(path: RawPath, value: SQLiteValue)]) {
        guard !values.isEmpty else { return }
        do {
            try catalog.update(column, values, under: root)
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
