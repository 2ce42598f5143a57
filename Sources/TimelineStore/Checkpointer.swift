import CSQLite
import Foundation
import Synchronization

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
    /// `walPagesLimit` while a bulk write runs (128 MiB with 8 KiB pages). A commit of 50,000 events of the
    /// mix writes about 5,500 pages into a file of 3,000,000 events and about 8,000 into one of 10,000,000,
    /// so every second or third commit copies the rest of the WAL on the importing thread, and the WAL starts
    /// over: its first pages are written again while the page cache still holds them. With 65,536 pages the
    /// WAL grew to 512 MiB first, each page of it a new block of the file (allocated and zeroed by the file
    /// system, on the importing thread): 1,000,000 events into a file of 10,000,000 took 10.4-10.6 s so
    /// against 11.6-12.2 s, into one of 3,000,000 8.9-9.6 s against 9.3-10.6 s. With 8,192 pages every
    /// commit copies (12.3 s at 10,000,000). Atomic so a test can bound a smaller import (`bulkWalPages`
    /// is the value it has otherwise).
    static let bulkWalPagesLimit = Atomic<Int32>(bulkWalPages)
    static let bulkWalPages: Int32 = 16_384
    /// Longest a checkpoint is tried again while another connection's checkpoint runs (`retried`).
    static let retryTimeout: TimeInterval = 10

    /// The checkpoint job of the file at `path`.
    static func shared(path: String) -> BackgroundJob {
        BackgroundJob.shared(name: "checkpointer", path: path) { db in
            try db.execute("PRAGMA wal_checkpoint(PASSIVE)")
            return false
        }
    }

    /// Installs the hook on a writable connection (replaces SQLite's autocheckpoint); `bulk` while a bulk
    /// write runs (`bulkWalPagesLimit`).
    static func install(on db: Database, bulk: Bool = false) {
        let target = Unmanaged.passUnretained(shared(path: db.path)).toOpaque()
        // A C callback captures nothing: one closure per limit.
        if bulk {
            sqlite3_wal_hook(db.handle, { context, handle, _, pages in
                Checkpointer.committed(pages: pages, limit: Checkpointer.bulkWalPagesLimit.load(ordering: .relaxed),
                                       handle: handle, job: context)
            }, target)
        } else {
            sqlite3_wal_hook(db.handle, { context, handle, _, pages in
                Checkpointer.committed(pages: pages, limit: Checkpointer.walPagesLimit, handle: handle, job: context)
            }, target)
        }
    }

    /// The WAL hook's work after a commit that left `pages` in the WAL: catch up on the committing
    /// connection from `limit` on, else wake the background job from `walPagesThreshold` on.
    private static func committed(pages: Int32, limit: Int32, handle: OpaquePointer?, job: UnsafeMutableRawPointer?) -> Int32 {
        if pages >= limit, let handle {
            catchUp(handle)
        } else if pages >= walPagesThreshold, let job {
            Unmanaged<BackgroundJob>.fromOpaque(job).takeUnretainedValue().request()
        }
        return SQLITE_OK
    }

    /// Copies every WAL page no reader still needs into the database file, on the calling connection
    /// (`PASSIVE`: never waits for readers or writers), once the background job's pass is over.
    static func catchUp(_ handle: OpaquePointer) {
        _ = retried { checkpoint(handle, mode: SQLITE_CHECKPOINT_PASSIVE) }
    }

    /// One checkpoint of `mode` on the connection `handle`: SQLite's result code, and the WAL's pages
    /// (-1 when the checkpoint could not start).
    static func checkpoint(_ handle: OpaquePointer, mode: Int32) -> (code: Int32, walPages: Int32) {
        var walPages: Int32 = -1
        var copied: Int32 = -1
        let code = sqlite3_wal_checkpoint_v2(handle, nil, mode, &walPages, &copied)
        return (code, walPages)
    }

    /// Runs `attempt` (one checkpoint) again while SQLite refuses it because another connection's
    /// checkpoint is running (busy, and it could not start: SQLite does not wait for those by itself), up
    /// to `retryTimeout`. A checkpoint blocked by readers past the busy timeout is not tried again (the
    /// background job finishes it once they move on). Returns the last attempt's result.
    static func retried(
        _ attempt: () throws -> (code: Int32, walPages: Int32)
    ) rethrows -> (code: Int32, walPages: Int32) {
        let deadline = Date().addingTimeInterval(retryTimeout)
        while true {
            let result = try attempt()
            if result.code != SQLITE_BUSY || result.walPages >= 0 || Date() >= deadline { return result }
            usleep(2_000)
        }
    }
}
