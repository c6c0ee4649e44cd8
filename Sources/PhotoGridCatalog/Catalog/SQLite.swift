import CSQLite

/// What SQLite said went wrong: its extended code and its words.
package struct SQLiteError: Error, CustomStringConvertible, Sendable {
    package let code: Int32
    package let message: String

    /// The file is not a database, or its pages do not hold together: what rebuilding mends.
    package var isDamage: Bool {
        let primary = code & 0xff
        return primary == SQLITE_CORRUPT || primary == SQLITE_NOTADB
    }

    /// Another connection held the lock for longer than the busy timeout.
    package var isBusy: Bool { code & 0xff == SQLITE_BUSY || code & 0xff == SQLITE_LOCKED }

    package var description: String { message }
}

/// A value bound to a statement's parameter.
package enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null

    package static func integer(_ value: Int?) -> SQLiteValue { value.map { .integer(Int64($0)) } ?? .null }
    package static func real(_ value: Double?) -> SQLiteValue { value.map { .real($0) } ?? .null }
    package static func text(_ value: String?) -> SQLiteValue { value.map { .text($0) } ?? .null }
}

/// One connection to a database file (the one Swift file calling SQLite). Opened without
/// SQLite's own mutex: its owner keeps it behind one lock (`Catalog`), so it is Sendable only as
/// that lock's value.
package final class SQLiteDatabase: @unchecked Sendable {
    private var handle: OpaquePointer?

    /// Opens (and creates) the database at `path`, or one in memory for `nil`; waits up to
    /// `busyMilliseconds` for another process's lock before saying busy.
    package init(path: String?, busyMilliseconds: Int32 = 5000) throws(SQLiteError) {
        let flags = SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE | SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE
        let status = sqlite3_open_v2(path ?? ":memory:", &handle, flags, nil)
        guard status == SQLITE_OK else {
            let error = SQLiteError(code: status, message: handle.map { String(cString: sqlite3_errmsg($0)) } ?? "cannot open")
            sqlite3_close_v2(handle)
            handle = nil
            throw error
        }
        sqlite3_busy_timeout(handle, busyMilliseconds)
    }

    deinit { sqlite3_close_v2(handle) }

    private func failure(_ status: Int32) -> SQLiteError {
        SQLiteError(code: sqlite3_extended_errcode(handle) != 0 ? sqlite3_extended_errcode(handle) : status,
                    message: String(cString: sqlite3_errmsg(handle)))
    }

    /// Runs statements that return nothing wanted (schema, pragmas, BEGIN and COMMIT).
    package func execute(_ sql: String) throws(SQLiteError) {
        var message: UnsafeMutablePointer<CChar>?
        let status = sqlite3_exec(handle, sql, nil, nil, &message)
        guard status == SQLITE_OK else {
            let words = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(status))
            sqlite3_free(message)
            throw SQLiteError(code: sqlite3_extended_errcode(handle), message: words)
        }
    }

    package func prepare(_ sql: String) throws(SQLiteError) -> SQLiteStatement {
        var statement: OpaquePointer?
        let status = sqlite3_prepare_v2(handle, sql, -1, &statement, nil)
        guard status == SQLITE_OK, let statement else { throw failure(status) }
        return SQLiteStatement(statement, database: self)
    }

    /// Every row `sql` gives with `values` bound, each read by `row`.
    package func rows<T>(_ sql: String, _ values: [SQLiteValue] = [], _ row: (SQLiteStatement) -> T) throws(SQLiteError) -> [T] {
        let statement = try prepare(sql)
        try statement.bind(values)
        var result: [T] = []
        while try statement.step() { result.append(row(statement)) }
        return result
    }

    /// The first column of the first row, as an integer.
    package func integer(_ sql: String) throws(SQLiteError) -> Int64? {
        try rows(sql) { $0.integer(0) }.first ?? nil
    }

    /// The first column of the first row, as text.
    package func text(_ sql: String) throws(SQLiteError) -> String? {
        try rows(sql) { $0.text(0) }.first ?? nil
    }

    /// `body` inside one write transaction, taken at once (so that two writers wait in turn rather
    /// than fail when one upgrades its read), committed when it returns, rolled back when it throws.
    package func transaction<T>(_ body: () throws(SQLiteError) -> T) throws(SQLiteError) -> T {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    fileprivate func error(_ status: Int32) -> SQLiteError { failure(status) }
}

/// A prepared statement: bound, stepped through, read column by column.
package final class SQLiteStatement {
    private let statement: OpaquePointer
    private let database: SQLiteDatabase

    fileprivate init(_ statement: OpaquePointer, database: SQLiteDatabase) {
        self.statement = statement
        self.database = database
    }

    deinit { sqlite3_finalize(statement) }

    /// Binds `values` to the parameters in order, after a reset for another run.
    package func bind(_ values: [SQLiteValue]) throws(SQLiteError) {
        sqlite3_reset(statement)
        sqlite3_clear_bindings(statement)
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let status: Int32
            switch value {
            case .integer(let number): status = sqlite3_bind_int64(statement, index, number)
            case .real(let number): status = sqlite3_bind_double(statement, index, number)
            case .text(let words): status = sqlite3_bind_text(statement, index, words, -1, pg_sqlite_transient())
            case .blob(let bytes):
                status = bytes.withUnsafeBytes { sqlite3_bind_blob(statement, index, $0.baseAddress, Int32($0.count), pg_sqlite_transient()) }
            case .null: status = sqlite3_bind_null(statement, index)
            }
            guard status == SQLITE_OK else { throw database.error(status) }
        }
    }

    /// The next row: true when there is one to read, false when the statement is done.
    package func step() throws(SQLiteError) -> Bool {
        let status = sqlite3_step(statement)
        if status == SQLITE_ROW { return true }
        if status == SQLITE_DONE { return false }
        throw database.error(status)
    }

    /// Binds `values` and runs the statement to its end.
    package func run(_ values: [SQLiteValue]) throws(SQLiteError) {
        try bind(values)
        while try step() {}
    }

    private func isNull(_ column: Int32) -> Bool { sqlite3_column_type(statement, column) == SQLITE_NULL }

    package func integer(_ column: Int32) -> Int64? { isNull(column) ? nil : sqlite3_column_int64(statement, column) }
    package func real(_ column: Int32) -> Double? { isNull(column) ? nil : sqlite3_column_double(statement, column) }

    package func text(_ column: Int32) -> String? {
        guard !isNull(column), let characters = sqlite3_column_text(statement, column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        return String(decoding: UnsafeBufferPointer(start: characters, count: count), as: UTF8.self)
    }

    package func blob(_ column: Int32) -> [UInt8]? {
        guard !isNull(column) else { return nil }
        let count = Int(sqlite3_column_bytes(statement, column))
        guard count > 0, let bytes = sqlite3_column_blob(statement, column) else { return [] }
        return Array(UnsafeRawBufferPointer(start: bytes, count: count))
    }
}
