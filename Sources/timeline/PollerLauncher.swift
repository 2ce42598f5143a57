import Foundation
import Ingest
import SQSClient
import TimelineStore

/// Resolves the queue options and builds a poller on a database: shared by `poll`, `drain` and `tui`.
struct PollerLauncher {
    let configuration: SQSConfiguration
    let client: SQSClient
    let queueURLs: [String]

    /// Resolves settings; a queue name is looked up with GetQueueUrl (a network call).
    /// `configuration`: already resolved (e.g. credentials fetched before the TUI draws), else from `options`.
    init(options: QueueOptions, configuration resolved: SQSConfiguration? = nil) throws {
        configuration = try resolved ?? options.configuration()
        client = configuration.makeClient()
        let first = try configuration.queueURL(using: client).value
        queueURLs = [first] + (try options.extraQueueURLs(after: configuration))
    }

    func poller(
        databasePath: String, concurrency: Int, waitSeconds: Int = 20, peek: Bool, stopWhenEmpty: Bool = false,
        giveUpAfter: TimeInterval? = nil, storeGiveUpAfter: TimeInterval? = nil,
        backlogGatherTime: TimeInterval = PollerConfiguration.viewerBacklogGatherTime,
        onBatch: (@Sendable (BatchOutcome) -> Void)? = nil, onCommit: (@Sendable () -> Void)? = nil
    ) -> Poller {
        Poller(
            client: client,
            configuration: PollerConfiguration(
                queueURLs: queueURLs, concurrency: concurrency, waitSeconds: waitSeconds, peek: peek,
                stopWhenEmpty: stopWhenEmpty, giveUpAfter: giveUpAfter, storeGiveUpAfter: storeGiveUpAfter,
                backlogGatherTime: backlogGatherTime),
            makeStore: SharedWriter(path: databasePath).store,
            onBatch: onBatch, onCommit: onCommit)
    }

    /// The last path component of a queue URL (its name).
    static func queueName(_ url: String) -> String {
        URL(string: url)?.lastPathComponent ?? url
    }
}

/// One writer connection for all of a poller's workers: they take turns on the store's lock instead of on
/// SQLite's file lock, and each commit finds the page cache warm (another connection's commit empties it).
/// Opened on first use; an open that fails is tried again by the next caller.
private final class SharedWriter: @unchecked Sendable {
    private let path: String
    private let lock = NSLock()
    private var opened: TimelineStore?

    init(path: String) { self.path = path }

    @Sendable func store() throws -> TimelineStore {
        try lock.withLock {
            if let opened { return opened }
            let store = try TimelineStore(path: path)
            opened = store
            return store
        }
    }
}
