import CSQLite

/// A value bound to a statement parameter.
public enum SQLiteValue: Sendable, Equatable {
    case integer(Int64)
    case real(Double)
    case text(String)
    case blob([UInt8])
    case null
}

/// One prepared statement; finalized when released.
public final class Statement {
    /// What one `step()` produced.
    public enum StepResult { case row, done }

    let handle: OpaquePointer
    private let connection: OpaquePointer
    /// The SQL text the statement was prepared from.
    public let sql: String

    /// Prepares `sql` on `connection`; throws on a syntax error or unknown table.
    init(connection: OpaquePointer, sql: String, persistent: Bool) throws {
        var handle: OpaquePointer?
        let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
        let rc = sqlite3_prepare_v3(connection, sql, -1, flags, &handle, nil)
        guard rc == SQLITE_OK, let handle else {
            throw SQLiteError(connection: connection, code: rc, sql: sql)
        }
        self.handle = handle
        self.connection = connection
        self.sql = sql
    }

    deinit { sqlite3_finalize(handle) }

    // MARK: Binding (1-based indexes, like SQLite)

    public func bind(_ value: Int64, at index: Int32) throws {
        try check(sqlite3_bind_int64(handle, index, value))
    }

    public func bind(_ value: Int, at index: Int32) throws { try bind(Int64(value), at: index) }

    public func bind(_ value: Double, at index: Int32) throws {
        try check(sqlite3_bind_double(handle, index, value))
    }

    public func bind(_ value: String, at index: Int32) throws {
        var copy = value
        let rc = copy.withUTF8 { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return sqlite3_bind_text(handle, index, "", 0, tl_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                sqlite3_bind_text(handle, index, $0, Int32(buffer.count), tl_sqlite_transient())
            }
        }
        try check(rc)
    }

    /// Binds UTF-8 bytes as TEXT.
    public func bind(text bytes: [UInt8], at index: Int32) throws {
        let rc = bytes.withUnsafeBufferPointer { buffer -> Int32 in
            guard let base = buffer.baseAddress, buffer.count > 0 else {
                return sqlite3_bind_text(handle, index, "", 0, tl_sqlite_transient())
            }
            return base.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
                sqlite3_bind_text(handle, index, $0, Int32(buffer.count), tl_sqlite_transient())
            }
        }
        try check(rc)
    }

    public func bind(blob bytes: [UInt8], at index: Int32) throws {
        let rc = bytes.withUnsafeBytes { raw -> Int32 in
            guard let base = raw.baseAddress, raw.count > 0 else { return sqlite3_bind_zeroblob(handle, index, 0) }
            return sqlite3_bind_blob(handle, index, base, Int32(raw.count), tl_sqlite_transient())
        }
        try check(rc)
    }

    public func bindNull(at index: Int32) throws { try check(sqlite3_bind_null(handle, index)) }

    public func bind(_ value: String?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: Double?, at index: Int32) throws {
        if let value { try bind(value, at: index) } else { try bindNull(at: index) }
    }

    public func bind(_ value: SQLiteValue, at index: Int32) throws {
        switch value {
        case .integer(let v): try bind(v, at: index)
        case .real(let v): try bind(v, at: index)
        case .text(let v): try bind(v, at: index)
        case .blob(let v): try bind(blob: v, at: index)
        case .null: try bindNull(at: index)
        }
    }

    /// Binds `values` to parameters 1…n.
    public func bind(_ values: [SQLiteValue]) throws {
        for (offset, value) in values.enumerated() { try bind(value, at: Int32(offset + 1)) }
    }

    // MARK: Execution

    /// Advances the statement. Every code other than ROW and DONE becomes a `SQLiteError`.
    @discardableResult
    public func step() throws -> StepResult {
        let rc = sqlite3_step(handle)
        switch rc {
        case SQLITE_ROW: return .row
        case SQLITE_DONE: return .done
        case SQLITE_OK:
            // sqlite3_step never answers OK; treat it as a broken contract, not as success.
            throw SQLiteError(code: rc, message: "sqlite3_step returned SQLITE_OK", sql: sql)
        default:
            let error = SQLiteError(connection: connection, code: rc, sql: sql)
            sqlite3_reset(handle)
            throw error
        }
    }

    /// Resets the statement for another run and clears its bindings.
    public func reset() {
        sqlite3_reset(handle)
        sqlite3_clear_bindings(handle)
    }

    /// Runs a statement that returns no rows.
    public func run() throws {
        defer { reset() }
        while try step() == .row {}
    }

    // MARK: Columns (0-based indexes, like SQLite)

    public func isNull(_ column: Int32) -> Bool { sqlite3_column_type(handle, column) == SQLITE_NULL }

    public func int64(_ column: Int32) -> Int64 { sqlite3_column_int64(handle, column) }

    public func int(_ column: Int32) -> Int { Int(sqlite3_column_int64(handle, column)) }

    public func double(_ column: Int32) -> Double { sqlite3_column_double(handle, column) }

    public func optionalDouble(_ column: Int32) -> Double? { isNull(column) ? nil : double(column) }

    /// The column as text; invalid UTF-8 is repaired with U+FFFD.
    public func string(_ column: Int32) -> String {
        guard let pointer = sqlite3_column_text(handle, column) else { return "" }
        let count = Int(sqlite3_column_bytes(handle, column))
        return String(decoding: UnsafeBufferPointer(start: pointer, count: count), as: UTF8.self)
    }

    public func optionalString(_ column: Int32) -> String? { isNull(column) ? nil : string(column) }

    /// Calls `body` with the column's text bytes in place (nil for NULL), valid only during the call.
    func withText<T>(_ column: Int32, _ body: (UnsafeBufferPointer<UInt8>?) throws -> T) rethrows -> T {
        guard let pointer = sqlite3_column_text(handle, column) else { return try body(nil) }
        return try body(UnsafeBufferPointer(start: pointer, count: Int(sqlite3_column_bytes(handle, column))))
    }

    /// The column's bytes exactly as stored.
    public func bytes(_ column: Int32) -> [UInt8] {
        guard let pointer = sqlite3_column_blob(handle, column) else { return [] }
        let count = Int(sqlite3_column_bytes(handle, column))
        return Array(UnsafeRawBufferPointer(start: pointer, count: count))
    }

    private func check(_ rc: Int32) throws {
        guard rc == SQLITE_OK else { throw SQLiteError(connection: connection, code: rc, sql: sql) }
    }
}
