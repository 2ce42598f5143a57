import CSQLite

/// A failed SQLite call: primary and extended result code, SQLite's message and the SQL involved.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
    /// Primary result code (`SQLITE_BUSY`, `SQLITE_CONSTRAINT`, …).
    public var code: Int32
    /// Extended result code (`SQLITE_CONSTRAINT_UNIQUE`, …); equals `code` when there is none.
    public var extendedCode: Int32
    /// SQLite's own message for the failure.
    public var message: String
    /// The statement that failed, when there was one.
    public var sql: String?

    public init(code: Int32, extendedCode: Int32? = nil, message: String, sql: String? = nil) {
        self.code = code & 0xFF
        self.extendedCode = extendedCode ?? code
        self.message = message
        self.sql = sql
    }

    /// Reads the last error of a connection.
    init(connection: OpaquePointer?, code: Int32, sql: String? = nil) {
        let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
            ?? String(cString: sqlite3_errstr(code))
        let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
        self.init(code: code, extendedCode: extended, message: message, sql: sql)
    }

    /// The database was locked by another connection for longer than the busy timeout.
    public var isBusy: Bool { code == SQLITE_BUSY || code == SQLITE_LOCKED }

    /// What it means and what to do first (see `explanation`), then the SQL involved.
    public var description: String {
        var text = explanation
        if let sql { text += " [in: \(sql.prefix(200))]" }
        return text
    }
}
