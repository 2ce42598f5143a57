import Foundation
import Synchronization
import TimelineCore

/// Upkeep of one database file that must stay off the ingest path (WAL checkpoints, full-text merges):
/// `request()` only wakes a thread, which runs the job on its own connection until the job says it is done.
/// One per job and file per process; the thread ends (closing its connection) after a few idle seconds
/// and starts again on the next request.
final class BackgroundJob: Sendable {
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

    private static let registry = Mutex<[String: BackgroundJob]>([:])

    /// The job called `name` for the file at `path` (made on first use with `work`). `work` runs on the
    /// job's thread with its connection, and returns whether more work is left (then it runs again).
    static func shared(name: String, path: String, work: @escaping @Sendable (Database) throws -> Bool) -> BackgroundJob {
        registry.withLock { registry in
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
    private struct State {
        var requested = false
        var threadRunning = false
        /// Runs of the job so far (for tests).
        var completed = 0
    }
    private let state = Mutex(State())
    /// Signalled after a request while the thread runs (extra signals only make it look again).
    private let wake = DispatchSemaphore(value: 0)

    private init(name: String, path: String, work: @escaping @Sendable (Database) throws -> Bool) {
        self.name = name
        self.path = path
        self.work = work
    }

    /// Asks for a run soon (coalesces; never blocks on I/O).
    func request() {
        let startThread = state.withLock { state -> Bool in
            state.requested = true
            if state.threadRunning { return false }
            state.threadRunning = true
            return true
        }
        guard startThread else {
            wake.signal()
            return
        }
        Thread { [self] in
            ThreadName.nameThisThread("tl-\(name)")  // tl-checkpointer, tl-search-merge(r)
            run()
        }.start()
    }

    /// Runs completed so far.
    var completedCount: Int { state.withLock { $0.completed } }

    private func run() {
        Self.lowerThisThreadsPriority()
        var db: Database?
        while takeRequest() {
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
            state.withLock { $0.completed += 1 }
        }
        db = nil
    }

    /// Takes the waiting request, else waits up to `idleSeconds` for one; false when none came (the thread
    /// is then marked as ended, under the lock, so the next request starts a new one).
    private func takeRequest() -> Bool {
        let deadline = DispatchTime.now() + Self.idleSeconds
        while true {
            let taken = state.withLock { state -> Bool in
                guard state.requested else { return false }
                state.requested = false
                return true
            }
            if taken { return true }
            if wake.wait(timeout: deadline) == .timedOut {
                return state.withLock { state -> Bool in
                    if state.requested {
                        state.requested = false
                        return true
                    }
                    state.threadRunning = false
                    return false
                }
            }
        }
    }
}

/// Serializes the writes of one file within this process (ingest and the background jobs), so a
/// background job never makes an ingest wait in SQLite's busy handler (which sleeps 1, 2, 5… ms), and
/// tells the background jobs how long the file has been idle.
final class WriteGate: Sendable {
    private static let registry = Mutex<[String: WriteGate]>([:])

    /// The gate of the file at `path`.
    static func shared(path: String) -> WriteGate {
        registry.withLock { registry in
            if let existing = registry[path] { return existing }
            let made = WriteGate()
            registry[path] = made
            return made
        }
    }

    private let clock = ContinuousClock()
    /// When the last `withWriteLock` body ended; held while a body runs.
    private let lastWrite: Mutex<ContinuousClock.Instant>

    private init() { lastWrite = Mutex(clock.now) }

    /// Runs `body` (a write transaction) alone among this process's writers of the file.
    func withWriteLock<T>(_ body: () throws -> T) rethrows -> T {
        try lastWrite.withLock { lastWrite in
            defer { lastWrite = clock.now }
            return try body()
        }
    }

    /// Runs `body` under the lock if no write is under way and none ended within `quiet`; returns nil
    /// (without waiting) otherwise. A write under way is not waited for: the lock's waiters spin in the
    /// kernel while its owner runs (a priority-inheriting futex), and a background job that asked every few
    /// milliseconds spent a tenth of its CPU so beside a busy poller.
    func whenIdle<T>(for quiet: Duration, _ body: () throws -> T) rethrows -> T? {
        let ran: T?? = try lastWrite.withLockIfAvailable { lastWrite in
            guard clock.now - lastWrite >= quiet else { return nil }
            return try body()
        }
        return ran ?? nil
    }
}
