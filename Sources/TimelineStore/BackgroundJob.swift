import Foundation

/// Upkeep of one database file that must stay off the ingest path (WAL checkpoints, full-text merges):
/// `request()` only wakes a thread, which runs the job on its own connection until the job says it is done.
/// One per job and file per process; the thread ends (closing its connection) after a few idle seconds
/// and starts again on the next request.
final class BackgroundJob: @unchecked Sendable {
    /// How long the thread waits for another request before it ends.
    static let idleSeconds: TimeInterval = 5
    /// How much nicer than the process the jobs' threads run.
    static let niceIncrement: Int32 = 10

    /// Upkeep yields to the threads people wait on (a poller's commit, a search): on a busy machine it gets
    /// the cores those leave (ingest p99 at 1,000,000 events: 3.1–5.0 ms, then 2.9–4.1 ms). On Linux the
    /// nice value belongs to a thread, and `who` 0 is the calling thread.
    static func lowerThisThreadsPriority() {
        let which = __priority_which_t(PRIO_PROCESS.rawValue)
        errno = 0
        let current = getpriority(which, 0)
        guard errno == 0 else { return }
        _ = setpriority(which, 0, min(19, current + niceIncrement))
    }

    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [String: BackgroundJob] = [:]

    /// The job called `name` for the file at `path` (made on first use with `work`). `work` runs on the
    /// job's thread with its connection, and returns whether more work is left (then it runs again).
    static func shared(name: String, path: String, work: @escaping @Sendable (Database) throws -> Bool) -> BackgroundJob {
        registryLock.withLock {
            let key = name + "\u{0}" + path
            if let existing = registry[key] { return existing }
            let made = BackgroundJob(name: name, path: path, work: work)
            registry[key] = made
            return made
        }
    }

    private let name: String
    private let path: String
    private let work: @Sendable (Database) throws -> Bool
    private let condition = NSCondition()
    private var requested = false
    private var threadRunning = false
    /// Runs of the job so far (for tests).
    private var completed = 0

    private init(name: String, path: String, work: @escaping @Sendable (Database) throws -> Bool) {
        self.name = name
        self.path = path
        self.work = work
    }

    /// Asks for a run soon (coalesces; never blocks on I/O).
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
        thread.name = "timeline-\(name)"
        thread.start()
    }

    /// Runs completed so far, read under the lock.
    var completedCount: Int { condition.withLock { completed } }

    private func run() {
        Self.lowerThisThreadsPriority()
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
            if db == nil {
                db = try? Database(path: path, mode: .readWrite)
                if let db {
                    // As the store's own connections: in WAL, NORMAL is crash-safe and skips a sync per commit.
                    try? db.execute("PRAGMA synchronous = NORMAL")
                    Checkpointer.install(on: db)
                }
            }
            // Busy (e.g. another process) or failing: the next request retries.
            if let db { while (try? work(db)) == true {} }
            condition.lock()
            completed += 1
        }
        threadRunning = false
        condition.unlock()
        db = nil
    }
}

/// Serializes the writes of one file within this process (ingest and the background jobs), so a
/// background job never makes an ingest wait in SQLite's busy handler (which sleeps 1, 2, 5… ms), and
/// tells the background jobs how long the file has been idle.
final class WriteGate: @unchecked Sendable {
    private static let registryLock = NSLock()
    nonisolated(unsafe) private static var registry: [String: WriteGate] = [:]

    /// The gate of the file at `path`.
    static func shared(path: String) -> WriteGate {
        registryLock.withLock {
            if let existing = registry[path] { return existing }
            let made = WriteGate()
            registry[path] = made
            return made
        }
    }

    private let lock = NSLock()
    private let clock = ContinuousClock()
    /// When the last `withWriteLock` body ended (read and written under `lock`).
    private var lastWrite: ContinuousClock.Instant

    private init() { lastWrite = clock.now }

    /// Runs `body` (a write transaction) alone among this process's writers of the file.
    func withWriteLock<T>(_ body: () throws -> T) rethrows -> T {
        lock.lock()
        defer {
            lastWrite = clock.now
            lock.unlock()
        }
        return try body()
    }

    /// Runs `body` under the lock if no write ended within `quiet`; returns nil (without waiting) otherwise.
    func whenIdle<T>(for quiet: Duration, _ body: () throws -> T) rethrows -> T? {
        lock.lock()
        defer { lock.unlock() }
        guard clock.now - lastWrite >= quiet else { return nil }
        return try body()
    }
}
