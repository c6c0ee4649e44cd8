import PhotoGridModel
import PhotoGridSystem

/// What photogrid knows of every photo it has read, kept between runs in one SQLite database
/// (`catalog.sqlite` beside the disk cache, or in memory with `--no-disk-cache`): each photo by
/// its absolute path, with the stamp it was read at, its date, size, camera, exposure, rating,
/// label and keywords (docs/decisions.md, "The catalog"). It is cache: a file from another
/// version or a damaged one is made again, never trusted, and the next reading fills it.
/// WAL mode, so that a second photogrid on the same library reads while the first writes.
package final class Catalog: Sendable {
    /// The schema's version, kept in the file's `user_version`: a file of another is made again.
    package static let version: Int64 = 1
    package static let fileName = "catalog.sqlite"

    /// The database file, nil for one in memory.
    package let path: String?
    private let database: Locked<SQLiteDatabase?>
    private let notices = Locked<[String]>([])

    /// Opens the catalog at `path` (nil: in memory), making it anew when it is damaged or of
    /// another version. Throws only when no database can be had there at all (the folder cannot
    /// be written): the caller goes on without one and says so.
    package init(path: String?) throws(SQLiteError) {
        self.path = path
        database = Locked(nil)
        let (opened, notice) = try Self.open(path)
        database.withLock { $0 = opened }
        if let notice { notices.withLock { $0.append(notice) } }
    }

    /// The catalog in `directory` (the disk cache's folder).
    package convenience init(directory: String) throws(SQLiteError) {
        try self.init(path: directory + "/" + Self.fileName)
    }

    /// What happened to the catalog that the user should hear of (a damaged file made again),
    /// each said once.
    package func takeNotices() -> [String] {
        notices.withLock { list in defer { list = [] }; return list }
    }

    /// Says `words` once, unless the same is waiting to be said.
    package func say(_ words: String) {
        notices.withLock { if !$0.contains(words) { $0.append(words) } }
    }

    private static func open(_ path: String?) throws(SQLiteError) -> (SQLiteDatabase, String?) {
        do throws(SQLiteError) {
            let database = try SQLiteDatabase(path: path)
            if try prepare(database) { return (database, nil) }
        } catch where error.isDamage {
            guard let path else { throw error }
            remove(path)
            let database = try SQLiteDatabase(path: path)
            _ = try prepare(database)
            return (database, "the catalog was damaged and is made again (\(path))")
        }
        // Another version's file: made again without a word, as any cache of another version.
        guard let path else { throw SQLiteError(code: 1, message: "an in-memory catalog of another version") }
        remove(path)
        let database = try SQLiteDatabase(path: path)
        _ = try prepare(database)
        return (database, nil)
    }

    /// WAL, and the schema where the file is new. False when the file holds another version.
    private static func prepare(_ database: SQLiteDatabase) throws(SQLiteError) -> Bool {
        // Reading the header first: a file that is not a database says so here.
        let version = try database.integer("PRAGMA user_version") ?? 0
        if version != 0 && version != Self.version { return false }
        _ = try database.text("PRAGMA journal_mode = WAL")
        try database.execute("PRAGMA synchronous = NORMAL")
        if version == 0 {
            try database.execute(Self.schema + "PRAGMA user_version = \(Self.version);")
        }
        return true
    }

    static let schema = """
        CREATE TABLE IF NOT EXISTS photo (
            id INTEGER PRIMARY KEY,
            path BLOB NOT NULL UNIQUE,
            size INTEGER NOT NULL,
            mtime INTEGER NOT NULL,
            taken INTEGER,
            width INTEGER, height INTEGER,
            make TEXT, model TEXT, lens TEXT,
            iso INTEGER, fnumber REAL, exposure REAL, focal REAL,
            gps INTEGER NOT NULL DEFAULT 0,
            rating INTEGER, label TEXT, keywords TEXT
        );
        """

    private static func remove(_ path: String) {
        for suffix in ["", "-wal", "-shm"] { _ = RawPath(path + suffix).remove() }
    }

    /// Runs `body` on the database; a damaged file found on the way is made again (and said),
    /// and `body` runs once more on the new one.
    private func using<T>(_ body: (SQLiteDatabase) throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try database.withLock { (held: inout SQLiteDatabase?) throws(SQLiteError) -> T in
            if held == nil { held = try Self.open(path).0 }
            do throws(SQLiteError) {
                return try body(held!)
            } catch where error.isDamage && path != nil {
                held = nil
                Self.remove(path!)
                let fresh = try SQLiteDatabase(path: path)
                _ = try Self.prepare(fresh)
                held = fresh
                notices.withLock { $0.append("the catalog was damaged and is made again (\(path!))") }
                return try body(fresh)
            }
        }
    }

    /// Every photo the catalog holds under `root` (an absolute, resolved folder), by its path
    /// relative to it.
    package func entries(under root: RawPath) throws(SQLiteError) -> [RawPath: CatalogEntry] {
        var result: [RawPath: CatalogEntry] = [:]
        try scan(under: root) { path, entry in result[path] = entry }
        return result
    }

    /// Each photo the catalog holds under `root`, handed to `body` one at a time as the rows
    /// are read: a library's whole catalog is never in memory at once.
    /// `condition`: only the rows that meet it (a query's part SQLite answers, `PhotoQuery`).
    package func scan(under root: RawPath, condition: (sql: String, values: [SQLiteValue])? = nil,
                      _ body: (RawPath, CatalogEntry) -> Void) throws(SQLiteError) {
        let (low, high) = Self.range(under: root)
        try using { (database) throws(SQLiteError) in
            let statement = try database.prepare(Self.select + " WHERE path >= ? AND path < ?" + (condition.map { " AND " + $0.sql } ?? ""))
            try statement.bind([.blob(low), .blob(high)] + (condition?.values ?? []))
            while try statement.step() {
                guard let path = statement.blob(0), path.count > low.count else { continue }
                body(RawPath(Array(path[low.count...])), Self.entry(statement))
            }
        }
    }

    /// Keeps `entries` (paths relative to `root`), replacing what was known of them, in one
    /// transaction.
    package func record(_ entries: [(path: RawPath, entry: CatalogEntry)], under root: RawPath) throws(SQLiteError) {
        guard !entries.isEmpty else { return }
        let (prefix, _) = Self.range(under: root)
        try using { (database) throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                let insert = try database.prepare(Self.upsert)
                for (path, entry) in entries {
                    try insert.run([.blob(prefix + path.bytes)] + Self.values(entry))
                }
            }
        }
    }

    /// What a key changes in a photo's sidecar and not in the photo, so that no stamp tells the
    /// catalog: its columns photogrid updates itself.
    package enum SidecarColumn: String, Sendable { case label, keywords }

    /// One column of photos already held (paths relative to `root`), in one transaction: rows
    /// not there are left to the next reading.
    package func update(_ column: SidecarColumn, _ values: [(path: RawPath, value: SQLiteValue)], under root: RawPath) throws(SQLiteError) {
        let (prefix, _) = Self.range(under: root)
        try using { (database) throws(SQLiteError) in
            try database.transaction { () throws(SQLiteError) in
                let update = try database.prepare("UPDATE photo SET \(column.rawValue) = ? WHERE path = ?")
                for (path, value) in values { try update.run([value, .blob(prefix + path.bytes)]) }
            }
        }
    }

    /// A label or keywords as the catalog keeps them (`values`).
    package static func value(label: String?) -> SQLiteValue { label.map { .text($0) } ?? .null }
    package static func value(keywords: [String]) -> SQLiteValue { keywords.isEmpty ? .null : .text(keywords.joined(separator: "\n")) }

    /// Every keyword of the photos under `root`, each once, in order (for completion).
    package func keywords(under root: RawPath) throws(SQLiteError) -> [String] {
        let (low, high) = Self.range(under: root)
        var found = Set<String>()
        try using { (database) throws(SQLiteError) in
            let statement = try database.prepare("SELECT DISTINCT keywords FROM photo WHERE path >= ? AND path < ? AND keywords IS NOT NULL")
            try statement.bind([.blob(low), .blob(high)])
            while try statement.step() {
                for word in statement.text(0)?.split(separator: "\n") ?? [] { found.insert(String(word)) }
            }
        }
        return found.sorted { $0.lowercased() < $1.lowercased() }
    }

    /// How many photos the catalog holds in all.
    package func count() throws(SQLiteError) -> Int {
        Int(try using { (database) throws(SQLiteError) in try database.integer("SELECT count(*) FROM photo") } ?? 0)
    }

    /// The bounds of the paths under `root`: `root/` up to `root0` ('0' follows '/'), compared
    /// byte by byte as SQLite compares blobs.
    static func range(under root: RawPath) -> (low: [UInt8], high: [UInt8]) {
        var base = root.bytes
        while base.count > 1 && base.last == UInt8(ascii: "/") { base.removeLast() }
        if base == [UInt8(ascii: "/")] { base = [] }
        return (base + [UInt8(ascii: "/")], base + [UInt8(ascii: "0")])
    }

    static let columns = "size, mtime, taken, width, height, make, model, lens, iso, fnumber, exposure, focal, gps, rating, label, keywords"
    static let select = "SELECT path, " + columns + " FROM photo"
    static let upsert = "INSERT INTO photo (path, " + columns + ") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) "
        + "ON CONFLICT (path) DO UPDATE SET "
        + columns.split(separator: ",").map { $0.filter { $0 != " " } }.map { "\($0) = excluded.\($0)" }.joined(separator: ", ")

    static func values(_ entry: CatalogEntry) -> [SQLiteValue] {
        [.integer(Int64(entry.stamp.size)), .integer(entry.stamp.modified), entry.taken.map { .integer($0) } ?? .null,
         .integer(entry.width), .integer(entry.height), .text(entry.make), .text(entry.model), .text(entry.lens),
         .integer(entry.iso), .real(entry.fNumber), .real(entry.exposureTime), .real(entry.focalLength),
         .integer(entry.hasGPS ? 1 : 0), .integer(entry.rating), .text(entry.label),
         Self.value(keywords: entry.keywords)]
    }

    static func entry(_ row: SQLiteStatement) -> CatalogEntry {
        var entry = CatalogEntry(stamp: FileStamp(size: Int(row.integer(1) ?? 0), modified: row.integer(2) ?? 0), taken: row.integer(3))
        entry.width = row.integer(4).map(Int.init)
        entry.height = row.integer(5).map(Int.init)
        entry.make = row.text(6)
        entry.model = row.text(7)
        entry.lens = row.text(8)
        entry.iso = row.integer(9).map(Int.init)
        entry.fNumber = row.real(10)
        entry.exposureTime = row.real(11)
        entry.focalLength = row.real(12)
        entry.hasGPS = row.integer(13) == 1
        entry.rating = row.integer(14).map(Int.init)
        entry.label = row.text(15)
        entry.keywords = row.text(16).map { $0.split(separator: "\n").map(String.init) } ?? []
        return entry
    }
}
