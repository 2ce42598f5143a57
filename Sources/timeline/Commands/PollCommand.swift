import ArgumentParser
import Attention
import Foundation
import Ingest
import SQSClient
import TimelineStore

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
        let databasePath = try store.openForWriting().path
        let target = try queue.pollerTarget()
        // Store failures are always logged (the cause matters); stored batches only with -v.
        let verbose = verbose
        let onBatch: @Sendable (BatchOutcome) -> Void = { outcome in
            if case .stored = outcome, !verbose { return }
            standardError(Self.timestamped(PollerText.describe(outcome)))
        }
        let poller = Poller(
            client: target.client,
            configuration: polling.pollerConfiguration(queueURLs: target.queueURLs, storeGiveUpAfter: storeGiveUpAfter),
            databasePath: databasePath, onBatch: onBatch)
        let watcher = SignalWatcher { _ in
            HelperRegistry.shared.terminateAll()  // a credential helper must not hold up the exit
            poller.requestStop(reason: .interrupted)
        }
        standardError("polling \(target.queueURLs.map(MaskedURL.text).joined(separator: ", ")) into \(databasePath)")
        // A headless service notifies too (the command channel only).
        let notifier = try notifyOptions.commandWords.map { words in
            AttentionRelay(monitor: try AttentionMonitor(databasePath: databasePath, policy: notifyOptions.policy,
                                                         startedMicros: NotifyOptions.nowMicros),
                           terminal: nil, notifyCommand: words, desktop: nil)
        }
        func notify(force: Bool = false) {
            if let failure = notifier?.stepNow(nowMicros: NotifyOptions.nowMicros, force: force).failure {
                standardError(Self.timestamped(failure))
            }
        }
        poller.start()
        let retentionTimer = RetentionTimer.start(databasePath: databasePath, keepSeconds: try retention.seconds(),
                                                  log: { standardError(Self.timestamped($0)) })
        defer { retentionTimer?.stop() }
        var log = PollerLog(verbose: verbose, status: poller.status)
        while !poller.waitUntilStopped(deadline: log.nextLook(busy: notifier != nil)) {
            notify()
            for line in log.lines(poller.status) { standardError(Self.timestamped(line)) }
        }
        // At exit: what still waits for its burst window goes out now, and the commands finish.
        notify(force: true)
        notifier?.waitUntilIdle(timeout: 60)
        withExtendedLifetime(watcher) {}
        standardError(Self.timestamped(PollerText.summary(poller.status)))
        if let reason = poller.status.stopReason, reason.isFailure {
            throw CommandFailure(reason.explanation)
        }
    }

    static func timestamped(_ text: String) -> String {
        "\(ISO8601DateFormatter().string(from: Date())) \(text)"
    }
}
