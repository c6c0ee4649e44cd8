import Glibc
import Testing
@testable import PhotoGridCatalog
@testable import PhotoGridSystem
import PhotoGridTestFixtures
import PhotoGridTestSupport

/// The catalog as a user meets it: a damaged file said and made again, and two photogrids on one
/// library at once, each sorting by date while the other writes.
@Suite(.startsPrograms, .serialized) struct CatalogInUseTests: PhotogridInTmux {
    /// A scratch XDG_CACHE_HOME, and the catalog's path in it.
    static func cacheHome(_ name: String) -> (home: String, catalog: String) {
        let home = TestImages.scratchFolder(name)
        #expect(RawPath(home + "/photogrid").makeDirectories(permissions: 0o700))
        return (home, home + "/photogrid/" + Catalog.fileName)
    }

    static func photosIn(_ catalog: String) throws -> Int64? {
        try SQLiteDatabase(path: catalog).integer("SELECT count(*) FROM photo WHERE taken IS NOT NULL")
    }

    @Test func aDamagedCatalogIsSaidAndMadeAgain() throws {
        let (home, catalog) = Self.cacheHome("catalog-damaged-tmux")
        defer { TestImages.remove(home) }
        TestImages.write(Array(repeating: 0x42, count: 8192), to: catalog)
        let tmux = try start("'\(Paths.gallery)'", environment: ["XDG_CACHE_HOME": home])
        var (ok, screen) = try tmux.waitFor { $0.contains("catalog was damaged and is made again") }
        #expect(ok, "\(screen)")
        try tmux.send("s")
        (ok, screen) = try tmux.waitFor { status($0).contains("by date") && !status($0).contains("estimated") }
        #expect(ok, "\(screen)")
        try tmux.send("q")
        (ok, _) = try tmux.waitFor { $0.contains("[exit 0]") }
        #expect(ok)
        #expect(try Self.photosIn(catalog) ?? 0 > 20, "the dates read went into the new catalog")
    }

    @Test func twoPhotogridsOnOneLibrarySortByDateAtOnce() throws {
        let (home, catalog) = Self.cacheHome("catalog-two")
        defer { TestImages.remove(home) }
        let first = try start("'\(Paths.gallery)'", environment: ["XDG_CACHE_HOME": home])
        let second = try start("'\(Paths.gallery)'", environment: ["XDG_CACHE_HOME": home])
        for tmux in [first, second] {
            let (ok, screen) = try tmux.waitFor { status($0).contains("1 of ") }
            #expect(ok, "\(screen)")
        }
        try first.send("s")
        try second.send("s")
        for tmux in [first, second] {
            let (ok, screen) = try tmux.waitFor { status($0).contains("by date") && !status($0).contains("estimated") }
            #expect(ok && !screen.contains("catalog could not"), "\(screen)")
            try tmux.send("q")
            #expect(try tmux.waitFor { $0.contains("[exit 0]") }.0)
        }
        let kept = try Self.photosIn(catalog) ?? 0
        #expect(kept > 20, "\(kept) dated photos in the catalog")
        // A third start reads them from the catalog and sorts at once.
        let third = try start("--sort date '\(Paths.gallery)'", environment: ["XDG_CACHE_HOME": home])
        let (ok, screen) = try third.waitFor { status($0).contains("by date") }
        #expect(ok, "\(screen)")
        try third.send("q")
    }
}
