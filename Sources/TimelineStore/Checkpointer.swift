import CSQLite
import Foundation

/// Keeps WAL checkpoints off the ingest path: writable connections run with SQLite's automatic
/// checkpoint off and a WAL hook instead, which (after a commit that leaves `walPagesThreshold` pages
/// or more in the log) only wakes this checkpointer. It runs `wal_checkpoint(PASSIVE)` on its own
/// thread and connection, which never blocks writers or readers. One per database file per process;
/// the thread ends (closing its connection) after a few idle seconds and starts again when needed.
final class Checkpointer: @unchecked Sendable {
    /// SQLite's own autocheckpoint threshold (pages in the WAL after a commit).
    static let walPagesThreshold: Int32 = 1_000
    /// How long the thread waits for another request before it ends.
    static let idleSeconds: TimeInterval = 5

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [String: Checkpointer] = [:]

    /// The checkpointer of the file at `path` (made on first use).
    static func shared(path: String) -> Checkpointer {
        registryLock.withLock {
            if let existing = registry[path] { return existing }
            let made = Checkpointer(path: path)
            registry[path] = made
            return made
        }
    }

    private let path: String
    private let condition = NSCondition()
    private var requested = false
    private var threadRunning = false
    /// Checkpoints run so far (for tests).
    private(set) var completed = 0

    private init(path: String) { self.path = path }

    /// Asks for a checkpoint soon (coalesces; never blocks on I/O).
    func request() {
        condition.lock()
        defer { condition.unlock() }
        requested = true
        if threadRunning {
            condition.signal()
            return
        }
        threadRunning = true
        let thread = Thread { [self] in run() }
        thread.name = "timeline-checkpointer"
        thread.start()
    }

    /// Checkpoints run so far, read under the lock.
    var completedCount: Int { condition.withLock { completed } }

    private func run() {
        var db: Database?
        condition.lock()
        while true {
            if !requested {
                let deadline = Date().addingTimeInterval(Self.idleSeconds)
                while !requested && condition.wait(until: deadline) {}
                if !requested { break }
            }
            requested = false
            condition.unlock()
            if db == nil { db = try? Database(path: path, mode: .readWrite) }
            // Busy (another checkpoint, e.g. another process's) or failing: the next request retries.
            try? db?.execute("PRAGMA wal_checkpoint(PASSIVE)")
            condition.lock()
            completed += 1
        }
        threadRunning = false
        condition.unlock()
        db = nil
    }

    /// Installs the hook on a writable connection (replaces SQLite's autocheckpoint).
    static func install(on db: Database) {
        let target = Unmanaged.passUnretained(shared(path: db.path)).toOpaque()
        sqlite3_wal_hook(db.handle, { context, _, _, pages in
            if pages >= Checkpointer.walPagesThreshold, let context {
                Unmanaged<Checkpointer>.fromOpaque(context).takeUnretainedValue().request()
            }
            return SQLITE_OK
        }, target)
    }
}
