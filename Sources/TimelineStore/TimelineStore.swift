import CSQLite
import Foundation
import Synchronization
import TimelineCore

/// Why the store refused to open a file.
public enum StoreError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file was written by a newer `timeline` (its schema version is unknown here).
    case schemaTooNew(found: Int64, supported: Int64)
    /// A read-only open of a file whose schema has not been created or migrated yet.
    case schemaNotReady(found: Int64, needed: Int64)
    /// An SQLite file made by something else (it has tables but not timeline's): never touched.
    case notATimelineDatabase(path: String, tables: [String])
    /// The database path names a link, a FIFO, a directory or a device: never opened.
    case notARegularFile(path: String, what: String)
    /// A write-ahead log left beside the database on a read-only file system (`LeftWriteAheadLog`).
    case logLeftOnReadOnlyFileSystem(path: String)

    public var description: String {
        switch self {
        case .schemaTooNew(let found, let supported):
            "database schema version \(found) is newer than this timeline understands (\(supported)); upgrade timeline"
        case .schemaNotReady(let found, let needed):
            "database schema version \(found) needs migrating to \(needed); open it once read-write (e.g. timeline import)"
        case .notATimelineDatabase(let path, let tables):
            "\(path) is an SQLite database of another program (tables: \(tables.prefix(5).joined(separator: ", "))"
                + "\(tables.count > 5 ? ", …" : "")), not a timeline database; it was left untouched. "
                + "Choose another file with --db or TIMELINE_DB"
        case .notARegularFile(let path, let what):
            "\(DisplayText.escaped(path)) is \(what), not a database file; it was left untouched. "
                + "Give the file itself with --db or TIMELINE_DB"
        case .logLeftOnReadOnlyFileSystem(let path):
            "\(DisplayText.escaped(path)) cannot be opened: its file system is read-only, and the write-ahead log a "
                + "writer left beside it (-wal) can only be read through a shared-memory file (-shm) that cannot be "
                + "created there. Remount the file system read-write once (the next timeline command folds the log "
                + "in), or copy the database and its -wal file to a writable directory and open that copy with --db"
        }
    }
}

/// The SQLite timeline store: every event, one timeline row per task (newest wins), rejected messages,
/// and a full-text index over the current timeline rows.
///
/// One connection per instance; every call is serialized by a lock, so an instance may be shared across
/// threads. Several instances (in this or other processes) may open the same file: WAL mode plus a busy
/// timeout let them read while one writes, and `changeToken()` notices the others' commits.
// @unchecked: it owns an sqlite3 connection (`db`), which every call reaches only through `locked`.
public final class TimelineStore: @unchecked Sendable {
    let db: Database
    private let lock = Mutex(())
    /// The tokenizer of the full-text index (trigram unless the SQLite library lacks it).
    public let searchTokenizer: SearchTokenizer
    /// Which piece of a qualifier's needle its full-text clause looks for (reads only).
    let qualifierPieces = QualifierPieces()
    /// The payloads this connection's reads rendered last (reads only).
    let renderedPayloads = RenderedPayloads()
    /// The progress points of running rows this connection's reads found last (reads only).
    let progressPoints = ProgressPointsCache()
    /// The text of rows waiting for the full-text index, as this connection's searches read it (reads only).
    let waitingTexts = WaitingRowTexts()
    /// Rows this connection's ingests indexed since one of them took a merge step (`searchIndexShare`).
    var searchRowsIndexedSinceMerge = 0
    /// Rows this connection's ingests can still leave waiting before the settled ones may reach
    /// `searchIndexBacklog` (what the last count of them left, less the events stored since): while it
    /// is above 0 they are not counted (`searchIndexShare`).
    var settledRoomLeft = 0
    /// Ingests left before one counts every waiting row again (`searchIndexShare`); 0: the next one does.
    var ingestsUntilWaitingRowsCount = 0
    /// Whether the last such count found `mostRowsWaiting` rows: ingests then index rows in progress, and
    /// count at each ingest until fewer wait.
    var rowsInProgressToIndex = false
    /// Bulk writes under way on this connection (`useBulkSettings`): the settings change at the first and last.
    var bulkWritesUnderWay = 0
    /// Path of the database file.
    public var path: String { db.path }

    /// Opens (and when writable, creates and migrates) the store at `path`.
    /// A new file is created with mode 0600; its directory must exist.
    public convenience init(path: String, readOnly: Bool = false) throws {
        do {
            try self.init(opening: path, readOnly: readOnly)
        } catch let error as SQLiteError where error.problem == .cannotOpen && LeftWriteAheadLog.blocksOpening(path) {
            throw StoreError.logLeftOnReadOnlyFileSystem(path: path)
        }
    }

    /// `init(path:readOnly:)` without telling its failures apart.
    private init(opening path: String, readOnly: Bool) throws {
        let db = try Database(path: path, mode: readOnly ? .readOnly : .readWriteCreate)
        self.db = db
        try db.registerUnicodeContains()
        try db.registerEventIDKey()
        try db.registerPayloadRendering()
        // A modest page cache per connection (the TUI opens two or three): windows touch a few pages, and
        // the OS page cache holds the file anyway. Bulk imports raise it while they run (`ingest`).
        // Temporary b-trees (counts over large match sets) go to temp files, not the heap.
        // Read-only connections (the viewer's lanes) keep a smaller cache still: their queries walk an index
        // edge and a window of rows, so a bigger cache only grows the viewer's RSS with the history.
        let cacheKiB = readOnly ? Self.readerPageCacheKiB : Self.pageCacheKiB
        // No memory-mapped reads (whatever the library's default): mapped pages of a large file would count
        // in the process's RSS; the OS page cache serves the reads anyway.
        try db.execute("PRAGMA temp_store = FILE; PRAGMA cache_size = \(cacheKiB); PRAGMA mmap_size = 0")
        if !readOnly {
            // Settings of writes only (a read-only connection never syncs or writes the WAL). A WAL file that
            // grew past 128 MiB (one large transaction) is cut back to that once it starts over. Not less:
            // sustained writes fill the WAL up to `Checkpointer.walPagesLimit` (128 MiB with 8 KiB pages)
            // before it starts over, and cutting the file back each time made that commit pay an ftruncate
            // and then the next ones allocate new blocks (ingest p99 at 1,000,000 events 5.1–5.4 ms with a
            // 64 MiB limit, 3.7–3.8 ms so).
            try db.execute("PRAGMA synchronous = NORMAL; PRAGMA journal_size_limit = \(Self.walFileLimitBytes)")
        }
        var tokenizer = try Self.refuseForeignDatabase(db)
        let found = try db.userVersion()
        if found > Schema.latestVersion {
            throw StoreError.schemaTooNew(found: found, supported: Schema.latestVersion)
        }
        if readOnly {
            if found < Schema.latestVersion {
                throw StoreError.schemaNotReady(found: found, needed: Schema.latestVersion)
            }
        } else {
            // 8 KiB pages: a poller's small commit writes every page it touches to the WAL whole (about 30
            // pages land at random places in the indexes), so smaller pages halve its bytes (ingest batch of
            // 10 at 1,000,000 events, p99: 6.2–7.2 ms with 16 KiB, 2.4–5.1 with 8 KiB), while bulk imports keep most
            // of what larger pages gave them (fewer splits: 4 KiB was ~15% slower). Only takes effect on a
            // new, empty file; older files keep their page size.
            if found == 0 { try db.execute("PRAGMA page_size = \(Self.pageSize)") }
            try Self.retryWhileBusy { try db.execute("PRAGMA journal_mode = WAL") }
            try Schema.migrate(db)
            // Checkpoints run on a background thread, never on the ingest path (see `Checkpointer`).
            Checkpointer.install(on: db)
            // A new file got its tokenizer from the migrations.
            if tokenizer == nil { tokenizer = try db.scalarString(Self.tokenizerSQL) }
        }
        searchTokenizer = tokenizer.flatMap(SearchTokenizer.init(rawValue:)) ?? .unicode61
    }

    /// Throws unless the file is empty (new) or holds timeline's schema; reads only, so a foreign file is
    /// never modified (checked before any write: WAL mode, page size, migrations). Returns the tokenizer
    /// the file's `meta` names (nil for a new file).
    static func refuseForeignDatabase(_ db: Database) throws -> String? {
        let statement = try db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' ORDER BY name")
        var tables: [String] = []
        while try statement.step() == .row { tables.append(statement.optionalString(0) ?? "") }
        if tables.isEmpty { return nil }
        let tokenizer = tables.contains("meta") ? (try? db.scalarString(tokenizerSQL)) : nil
        if tokenizer == nil || !tables.contains("events") {
            throw StoreError.notATimelineDatabase(path: db.path, tables: tables)
        }
        return tokenizer
    }

    /// The tokenizer of the full-text index, as the file's `meta` names it.
    static let tokenizerSQL = "SELECT value FROM meta WHERE key = 'search_tokenizer'"

    /// `PRAGMA journal_size_limit`: the size a WAL file is cut back to when it starts over.
    static let walFileLimitBytes = 128 * 1024 * 1024
    /// Page size of new database files (bytes).
    static let pageSize = 8_192
    /// `PRAGMA cache_size` of writable connections (negative: KiB).
    static let pageCacheKiB = -4_096
    /// `PRAGMA cache_size` of read-only connections (negative: KiB).
    static let readerPageCacheKiB = -1_024
    /// `PRAGMA cache_size` while a bulk import (`ingest(_:deferSearchIndex: true)`) runs: its inserts land
    /// all over the event indexes, and a cache that holds them avoids re-reading pages.
    static let bulkImportPageCacheKiB = -262_144

    /// Switching a new file to WAL needs an exclusive lock and fails at once (without the busy handler)
    /// while another connection is creating the same file: retry for up to 5 s.
    private static func retryWhileBusy(_ body: () throws -> Void) throws {
        let deadline = Date().addingTimeInterval(5)
        while true {
            do {
                return try body()
            } catch let error as SQLiteError where error.isBusy && Date() < deadline {
                Thread.sleep(forTimeInterval: 0.01)
            }
        }
    }

    /// Runs `body` while holding the connection lock.
    func locked<T>(_ body: () throws -> T) rethrows -> T {
        try lock.withLock { _ in try body() }
    }

    /// Counts of events, tasks and rejected messages, and the bytes on disk.
    public func stats() throws -> StoreStats {
        try locked {
            let events = try db.scalarInt("SELECT count(*) FROM events")
            let tasks = try db.scalarInt("SELECT count(*) FROM timeline")
            let rejected = try db.scalarInt("SELECT count(*) FROM rejected")
            return StoreStats(events: Int(events), tasks: Int(tasks), rejected: Int(rejected),
                              fileBytes: Self.fileSize(path) + Self.fileSize(path + "-wal"))
        }
    }

    /// Writes the whole WAL back into the main file and truncates it to zero bytes (never needed for
    /// correctness: for accurate size figures, and so a bulk write leaves no large WAL behind, on disk and
    /// in every reader's WAL index). Waits for a background checkpoint in the way (`Checkpointer.retried`;
    /// the store's lock is taken per attempt, not while waiting).
    public func checkpoint() throws {
        let result = Checkpointer.retried { locked { Checkpointer.checkpoint(db.handle, mode: SQLITE_CHECKPOINT_TRUNCATE) } }
        if result.code != SQLITE_OK && result.code != SQLITE_BUSY {
            throw SQLiteError(connection: db.handle, code: result.code, sql: "wal_checkpoint(TRUNCATE)")
        }
    }

    static func fileSize(_ path: String) -> Int64 {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : 0
    }
}
