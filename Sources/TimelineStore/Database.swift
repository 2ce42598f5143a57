import CSQLite
import Foundation

/// One SQLite connection: opening, pragmas, plain SQL, transactions and a cache of prepared statements.
///
/// Not thread-safe by itself: its owner (`TimelineStore`) serializes every call with a lock.
public final class Database {
    /// How to open the file.
    public enum Mode: Sendable { case readOnly, readWrite, readWriteCreate }

    let handle: OpaquePointer
    /// Path of the database file.
    public let path: String
    private var cache: [String: Statement] = [:]
    private static let cacheLimit = 128

    /// Opens `path`. With `.readWriteCreate` a missing file is created with mode 0600 first.
    public init(path: String, mode: Mode, busyTimeout: Duration = .seconds(5)) throws {
        if mode == .readWriteCreate { try Self.createPrivateFile(at: path) }
        try Self.requireRegularFile(at: path)
        var flags = SQLITE_OPEN_NOMUTEX | SQLITE_OPEN_EXRESCODE | SQLITE_OPEN_NOFOLLOW
        switch mode {
        case .readOnly: flags |= SQLITE_OPEN_READONLY
        case .readWrite, .readWriteCreate: flags |= SQLITE_OPEN_READWRITE
        }
        _ = SQLiteProcessSettings.applied  // before SQLite's first connection in this process
        var handle: OpaquePointer?
        let rc = sqlite3_open_v2(path, &handle, flags, nil)
        guard rc == SQLITE_OK, let handle else {
            let error = SQLiteError(connection: handle, code: rc, sql: nil)
            sqlite3_close_v2(handle)
            throw error
        }
        self.handle = handle
        self.path = path
        let millis = busyTimeout.components.seconds * 1000 + busyTimeout.components.attoseconds / 1_000_000_000_000_000
        sqlite3_busy_timeout(handle, Int32(clamping: millis))
        sqlite3_extended_result_codes(handle, 1)
    }

    deinit {
        cache.removeAll()
        sqlite3_close_v2(handle)
    }

    /// Creates an empty file readable only by its owner, unless it exists already.
    static func createPrivateFile(at path: String) throws {
        let fd = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        if fd >= 0 {
            close(fd)
            return
        }
        guard errno == EEXIST else {
            let reason = String(cString: strerror(errno))
            throw SQLiteError(code: SQLITE_CANTOPEN, message: "cannot create \(path): \(reason)")
        }
    }

    /// Throws unless `path` is a regular file itself: a FIFO would hang every read, a device or a link
    /// would let whatever it points at be taken over as the database.
    static func requireRegularFile(at path: String) throws {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }  // missing: SQLite says so in its own words
        let kind = info.st_mode & S_IFMT
        if kind == S_IFREG { return }
        let what = switch kind {
        case S_IFLNK: "a symbolic link"
        case S_IFIFO: "a FIFO"
        case S_IFDIR: "a directory"
        case S_IFSOCK: "a socket"
        case S_IFCHR, S_IFBLK: "a device"
        default: "not a regular file"
        }
        throw StoreError.notARegularFile(path: path, what: what)
    }

    /// Runs one or more SQL statements that return no rows.
    public func execute(_ sql: String) throws {
        var message: UnsafeMutablePointer<CChar>?
        let rc = sqlite3_exec(handle, sql, nil, nil, &message)
        guard rc == SQLITE_OK else {
            let text = message.map { String(cString: $0) } ?? String(cString: sqlite3_errstr(rc))
            sqlite3_free(message)
            throw SQLiteError(code: rc, extendedCode: sqlite3_extended_errcode(handle), message: text, sql: sql)
        }
    }

    /// A new statement, not cached (for one-off SQL).
    public func prepare(_ sql: String) throws -> Statement {
        try Statement(connection: handle, sql: sql, persistent: false)
    }

    /// A cached statement for `sql`, reset and with cleared bindings.
    public func cached(_ sql: String) throws -> Statement {
        if let statement = cache[sql] {
            statement.reset()
            return statement
        }
        if cache.count >= Self.cacheLimit { cache.removeAll(keepingCapacity: true) }
        let statement = try Statement(connection: handle, sql: sql, persistent: true)
        cache[sql] = statement
        return statement
    }

    /// Runs `body` in a transaction (IMMEDIATE takes the write lock at once, waiting up to the busy timeout).
    /// Commits when `body` returns, rolls back when it throws.
    public func transaction<T>(immediate: Bool = true, _ body: () throws -> T) throws -> T {
        try execute(immediate ? "BEGIN IMMEDIATE" : "BEGIN DEFERRED")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            if sqlite3_get_autocommit(handle) == 0 { try? execute("ROLLBACK") }
            throw error
        }
    }

    /// Runs `body` in one read transaction (every statement of it reads the same snapshot); inside an open
    /// transaction, in that one.
    public func readTransaction<T>(_ body: () throws -> T) throws -> T {
        sqlite3_get_autocommit(handle) == 0 ? try body() : try transaction(immediate: false, body)
    }

    /// The first column of the first row of `sql` as an integer (0 when there is no row).
    public func scalarInt(_ sql: String, _ values: [SQLiteValue] = []) throws -> Int64 {
        let statement = try cached(sql)
        defer { statement.reset() }
        try statement.bind(values)
        return try statement.step() == .row ? statement.int64(0) : 0
    }

    /// The first column of the first row of `sql` as text, if any.
    public func scalarString(_ sql: String) throws -> String? {
        let statement = try prepare(sql)
        return try statement.step() == .row ? statement.optionalString(0) : nil
    }

    /// `PRAGMA data_version`: changes when another connection commits to the file.
    public func dataVersion() throws -> Int64 { try scalarInt("PRAGMA data_version") }

    /// `PRAGMA user_version`: the schema version.
    public func userVersion() throws -> Int64 { try scalarInt("PRAGMA user_version") }

    /// Rows changed by this connection since it opened.
    public var totalChanges: Int64 { sqlite3_total_changes64(handle) }

    /// Rows changed by the most recent INSERT/UPDATE/DELETE on this connection.
    public var changes: Int64 { sqlite3_changes64(handle) }

    /// Rowid of the most recent successful INSERT on this connection.
    public var lastInsertRowID: Int64 { sqlite3_last_insert_rowid(handle) }
}
