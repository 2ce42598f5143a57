import ArgumentParser
import Foundation
import Ingest

/// `timeline poll`: headless ingest into the database, for a service manager.
struct PollCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "poll",
        abstract: "Poll SQS and store every event in the database until stopped (SIGINT/SIGTERM).",
        discussion: """
            Prints a status line per minute on stderr (-v: one line per batch). Messages are deleted only \
            after their batch is committed; --peek never deletes (for a queue shared by several viewers).
            """
    )

    @OptionGroup var queue: QueueOptions
    @OptionGroup var store: StoreOptions

    @Option(help: "Long polls in flight at once per queue.")
    var concurrency = 2

    @Flag(help: "Never delete messages (they come back after the visibility timeout; duplicates are ignored).")
    var peek = false

    @Flag(name: .shortAndLong, help: "One line per received batch.")
    var verbose = false

    func validate() throws {
        guard (1...32).contains(concurrency) else { throw ValidationError("--concurrency must be 1 to 32") }
    }

    func run() throws {
        try reportingFailures(poll)
    }

    private func poll() throws {
        do {
            let databasePath = try store.openForWriting().path
            let launcher = try PollerLauncher(options: queue)
            let logBatch: @Sendable (BatchReport) -> Void = { batch in standardError(Self.describe(batch)) }
            let onBatch = verbose ? logBatch : nil
            let poller = launcher.poller(
                databasePath: databasePath, concurrency: concurrency, peek: peek, onBatch: onBatch)
            let watcher = SignalWatcher { _ in poller.requestStop(reason: "interrupted") }
            standardError("polling \(launcher.queueURLs.joined(separator: ", ")) into \(databasePath)")
            poller.start()
            while !poller.waitUntilStopped(deadline: Date().addingTimeInterval(60)) {
                standardError(Self.timestamped(poller.status.summary))
            }
            withExtendedLifetime(watcher) {}
            standardError(Self.timestamped(poller.status.summary))
            if case .stopped(let reason) = poller.status.state, reason != "interrupted" {
                throw CommandFailure(reason)
            }
        }
    }

    static func describe(_ batch: BatchReport) -> String {
        var line = timestamped("batch from \(PollerLauncher.queueName(batch.queueURL)): received \(batch.received), "
            + "stored \(batch.stored), duplicates \(batch.duplicates), rejected \(batch.rejected), deleted \(batch.deleted)")
        for reason in batch.rejectReasons { line += "\n  rejected: \(reason)" }
        return line
    }

    static func timestamped(_ text: String) -> String {
        let formatter = ISO8601DateFormatter()
        return "\(formatter.string(from: Date())) \(text)"
    }
}
