import CSQLite
import Foundation

/// Keeps WAL checkpoints off the ingest path: writable connections run with SQLite's automatic
/// checkpoint off and a WAL hook instead, which (after a commit that leaves `walPagesThreshold` pages
/// or more in the log) only wakes a `BackgroundJob` that runs `wal_checkpoint(PASSIVE)` on its own
/// thread and connection, which never blocks writers or readers.
///
/// Under back-to-back commits (a bulk import, a drain of a deep backlog) that job alone does not bound
/// the WAL: each of its passes ends behind the writer, and the WAL only starts over once a pass has
/// copied all of it (1,000,000 events made a 1.5 GB WAL). So a commit that leaves `walPagesLimit` pages
/// or more checkpoints on its own connection until the WAL is copied, and the next commit starts it over.
enum Checkpointer {
    /// SQLite's own autocheckpoint threshold (pages in the WAL after a commit).
    static let walPagesThreshold: Int32 = 1_000
    /// Pages in the WAL after a commit from which the committing connection catches up by itself
    /// (128 MiB with 8 KiB pages): never reached while commits leave the background job time to copy.
    /// Under back-to-back batches of 10 at 1,000,000 events that commit takes about 20 ms, once every
    /// ~210 batches (4,096 pages: once every ~54, which put those commits in the ingest p99).
    static let walPagesLimit: Int32 = 16_384
    /// Longest a committing connection waits for the background job's pass before its own.
    static let catchUpTimeout: TimeInterval = 10

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
        sqlite3_wal_hook(db.handle, { context, handle, _, pages in
            if pages >= Checkpointer.walPagesLimit, let handle {
                Checkpointer.catchUp(handle)
            } else if pages >= Checkpointer.walPagesThreshold, let context {
                Unmanaged<BackgroundJob>.fromOpaque(context).takeUnretainedValue().request()
            }
            return SQLITE_OK
        }, target)
    }

    /// Copies every WAL page no reader still needs into the database file, on the calling connection
    /// (`PASSIVE`: never waits for readers or writers). SQLite refuses at once while the background job
    /// runs its pass; this waits for that pass (up to `catchUpTimeout`), then copies the rest.
    static func catchUp(_ handle: OpaquePointer) {
        let deadline = Date().addingTimeInterval(catchUpTimeout)
        repeat {
            var walPages: Int32 = -1
            var copied: Int32 = -1
            let code = sqlite3_wal_checkpoint_v2(handle, nil, SQLITE_CHECKPOINT_PASSIVE, &walPages, &copied)
            // -1 pages: the checkpoint could not start (another one is running).
            if code != SQLITE_BUSY || walPages >= 0 { return }
            usleep(2_000)
        } while Date() < deadline
    }
}
