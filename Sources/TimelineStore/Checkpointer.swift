import CSQLite
import Foundation

/// Keeps WAL checkpoints off the ingest path: writable connections run with SQLite's automatic
/// checkpoint off and a WAL hook instead, which (after a commit that leaves `walPagesThreshold` pages
/// or more in the log) only wakes a `BackgroundJob` that runs `wal_checkpoint(PASSIVE)` on its own
/// thread and connection, which never blocks writers or readers.
enum Checkpointer {
    /// SQLite's own autocheckpoint threshold (pages in the WAL after a commit).
    static let walPagesThreshold: Int32 = 1_000

    /// The checkpoint job of the file at `path`.
    static func shared(path: String) -> BackgroundJob {
        BackgroundJob.shared(name: "checkpointer", path: path) { db in
            try db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            return false
        }
    }

    /// Installs the hook on a writable connection (replaces SQLite's autocheckpoint).
    static func install(on db: Database) {
        let target = Unmanaged.passUnretained(shared(path: db.path)).toOpaque()
        sqlite3_wal_hook(db.handle, { context, _, _, pages in
            if pages >= Checkpointer.walPagesThreshold, let context {
                Unmanaged<BackgroundJob>.fromOpaque(context).takeUnretainedValue().request()
            }
            return SQLITE_OK
        }, target)
    }
}
