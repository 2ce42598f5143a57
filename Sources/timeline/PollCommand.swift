import ArgumentParser
import Attention
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
    @OptionGroup var notifyOptions: NotifyOptions

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
            let notifier = try PollNotifier(databasePath: databasePath, options: notifyOptions)
            poller.start()
            var nextSummary = Date().addingTimeInterval(60)
            var lastState = poller.status.state
            // -v also samples the state a few times a second to log backoff and recovery as they happen.
            while !poller.waitUntilStopped(
                deadline: min(nextSummary, Date().addingTimeInterval(notifier == nil && !verbose ? 60 : 0.2))) {
                notifier?.step()
                if verbose, let change = Self.describeChange(from: lastState, to: poller.status.state) {
                    standardError(Self.timestamped(change))
                }
                lastState = poller.status.state
                if Date() >= nextSummary {
                    standardError(Self.timestamped(poller.status.summary))
                    nextSummary = Date().addingTimeInterval(60)
                }
            }
            notifier?.finish()
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

    /// A line for `-v` when polling starts backing off (or for a new reason) or recovers; nil otherwise.
    static func describeChange(from old: PollerStatus.State, to new: PollerStatus.State) -> String? {
        switch (old, new) {
        case (.backingOff, .receiving):
            return "recovered: receiving again"
        case (_, .backingOff(let until, let reason)):
            if case .backingOff(_, let previous) = old, previous == reason { return nil }
            let seconds = String(format: "%.1f", max(0, until.timeIntervalSinceNow))
            return "backing off \(seconds)s: \(reason)"
        default:
            return nil
        }
    }

    static func timestamped(_ text: String) -> String {
        let formatter = ISO8601DateFormatter()
        return "\(formatter.string(from: Date())) \(text)"
    }
}
