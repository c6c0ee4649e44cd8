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

    /// Keeps what was read of these photos (paths relative to the folder).
    package func record(_ entries: [(path: RawPath, entry: CatalogEntry)]) {
        do {
            try catalog.record(entries, under: root)
        } catch {
            catalog.say("the catalog could not be written: \(error)")
        }
    }
}
