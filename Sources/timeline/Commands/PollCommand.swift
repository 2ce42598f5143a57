import ArgumentParser
import Attention
import Foundation
import Ingest
import SQSClient

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

    @OptionGroup var polling: PollingOptions<ViewerPolling>

    @Flag(name: .shortAndLong, help: "One line per received batch.")
    var verbose = false

    @Option(help: ArgumentHelp(
        "Exit 1 when the database has failed to store events for this long (full disk, read-only file…); "
            + "until then receiving pauses and the failed batch is retried.", valueName: "seconds"))
    var storeGiveUpAfter: Double = 600
    @OptionGroup var retention: RetentionOption

    func validate() throws {
        guard storeGiveUpAfter > 0 else { throw ValidationError("--store-give-up-after must be positive") }
    }

    func run() throws {
        try reportingFailures(poll)
    }

    private func poll() throws {
        do {
            let databasePath = try store.openForWriting().path
            let launcher = try PollerLauncher(options: queue)
            // Store failures are always logged (the cause matters); stored batches only with -v.
            let verbose = verbose
            let onBatch: @Sendable (BatchOutcome) -> Void = { outcome in
                if case .stored = outcome, !verbose { return }
                standardError(Self.timestamped(PollerMessages.describe(outcome)))
            }
            let poller = launcher.poller(
                databasePath: databasePath, concurrency: polling.concurrency, peek: polling.peek,
                storeGiveUpAfter: storeGiveUpAfter, onBatch: onBatch)
            let watcher = SignalWatcher { _ in
                HelperRegistry.shared.terminateAll()  // a credential helper must not hold up the exit
                poller.requestStop(reason: .interrupted)
            }
            standardError("polling \(launcher.queueURLs.joined(separator: ", ")) into \(databasePath)")
            let notifier = try PollNotifier(databasePath: databasePath, options: notifyOptions)
            poller.start()
            let retentionTimer = RetentionTimer.start(databasePath: databasePath, keepSeconds: try retention.seconds(),
                                                      log: { standardError(Self.timestamped($0)) })
            defer { retentionTimer?.stop() }
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
                    standardError(Self.timestamped(PollerMessages.summary(poller.status)))
                    nextSummary = Date().addingTimeInterval(60)
                }
            }
            notifier?.finish()
            withExtendedLifetime(watcher) {}
            standardError(Self.timestamped(PollerMessages.summary(poller.status)))
            if let reason = poller.status.stopReason, PollerMessages.exitCode(reason) != 0 {
                throw CommandFailure(PollerMessages.describe(reason), exitCode: PollerMessages.exitCode(reason))
            }
        }
    }

    /// A line for `-v` when polling starts backing off (or for a new reason) or recovers; nil otherwise.
    static func describeChange(from old: PollerStatus.State, to new: PollerStatus.State) -> String? {
        switch (old, new) {
        case (.backingOff, .receiving):
            return "recovered: receiving again"
        case (.connecting, .receiving):
            return "connected: receiving"
        case (_, .backingOff(let until, let fault)):
            if case .backingOff(_, let previous) = old, previous == fault { return nil }
            let seconds = String(format: "%.1f", max(0, until.timeIntervalSinceNow))
            return "backing off \(seconds)s: \(PollerMessages.describe(fault))"
        default:
            return nil
        }
    }

    static func timestamped(_ text: String) -> String {
        let formatter = ISO8601DateFormatter()
        return "\(formatter.string(from: Date())) \(text)"
    }
}
