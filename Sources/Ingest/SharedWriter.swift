import Foundation
import SQSClient
import Synchronization
import TimelineStore

/// One writer connection for all of a poller's workers: they take turns on the store's lock instead of on
/// SQLite's file lock, and each commit finds the page cache warm (another connection's commit empties it).
/// Opened on first use; an open that fails is tried again by the next caller.
final class SharedWriter: Sendable {
    private let path: String
    private let opened = Mutex<TimelineStore?>(nil)

    init(path: String) { self.path = path }

    @Sendable func store() throws -> TimelineStore {
        try opened.withLock { opened in
            if let opened { return opened }
            let store = try TimelineStore(path: path)
            opened = store
            return store
        }
    }
}

extension Poller {
    /// A poller storing into the database at `databasePath` through one shared writer connection: the one
    /// way `poll`, `drain` and `tui` build theirs.
    public convenience init(
        client: SQSClient, configuration: PollerConfiguration, databasePath: String, timing: PollerTiming = .system,
        onBatch: (@Sendable (BatchOutcome) -> Void)? = nil, onCommit: (@Sendable () -> Void)? = nil
    ) {
        self.init(client: client, configuration: configuration, makeStore: SharedWriter(path: databasePath).store,
                  timing: timing, onBatch: onBatch, onCommit: onCommit)
    }
}
