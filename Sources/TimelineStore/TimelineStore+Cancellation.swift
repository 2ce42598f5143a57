import CSQLite
import TimelineCore

extension TimelineStore: CancellableReading {
    /// SQLite virtual-machine steps between two `isCancelled` checks (a check is a lock and a compare;
    /// a thousand steps take a few microseconds).
    static let cancellationCheckSteps: Int32 = 1_000

    /// Runs `body` with a progress handler that aborts the connection's running statement as soon as
    /// `isCancelled()` is true; the abort surfaces as `ReadCancelled`.
    public func cancellable<T>(when isCancelled: @escaping @Sendable () -> Bool, _ body: () throws -> T) throws -> T {
        if isCancelled() { throw ReadCancelled() }
        let check = Unmanaged.passRetained(CancellationCheck(isCancelled))
        sqlite3_progress_handler(db.handle, Self.cancellationCheckSteps, { context in
            guard let context else { return 0 }
            return Unmanaged<CancellationCheck>.fromOpaque(context).takeUnretainedValue().isCancelled() ? 1 : 0
        }, check.toOpaque())
        defer {
            sqlite3_progress_handler(db.handle, 0, nil, nil)
            check.release()
        }
        do {
            return try body()
        } catch let error as SQLiteError where error.code == SQLITE_INTERRUPT {
            throw ReadCancelled()
        }
    }
}

/// The closure a progress handler asks (boxed: C callbacks take a pointer).
private final class CancellationCheck {
    let isCancelled: @Sendable () -> Bool
    init(_ isCancelled: @escaping @Sendable () -> Bool) { self.isCancelled = isCancelled }
}
