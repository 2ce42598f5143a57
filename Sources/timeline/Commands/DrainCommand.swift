import ArgumentParser
import Foundation
import Ingest
import SQSClient

/// `timeline drain`: poll until the queue reports empty, then print a summary and exit.
struct DrainCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "drain",
        abstract: "Store everything waiting in the queue, then exit with a summary.",
        discussion: "Shows a progress bar on stderr when it is a terminal. Exit code 1 if polling stopped on an error."
    )

    @OptionGroup var queue: QueueOptions
    @OptionGroup var store: StoreOptions

    @OptionGroup var polling: PollingOptions<DrainPolling>

    @Option(help: ArgumentHelp(
        "Exit 1 after this long without a successful request (or with the database failing).",
        valueName: "seconds"))
    var giveUpAfter: Double = 30

    func validate() throws {
        guard giveUpAfter > 0 else { throw ValidationError("--give-up-after must be positive") }
    }

    func run() throws {
        let databasePath = try store.openForWriting().path
        let target = try queue.pollerTarget()
        let depthTimeout = min(giveUpAfter, SQSClient.shortCallTimeout)
        let total = target.queueURLs.reduce(0) { sum, url in
            sum + Self.approximateDepth(target.client, url, timeout: depthTimeout)
        }
        // A short wait: an empty answer comes back quickly, and the queue attributes confirm emptiness.
        let poller = Poller(
            client: target.client,
            configuration: polling.pollerConfiguration(
                queueURLs: target.queueURLs, waitSeconds: 1, stopWhenEmpty: true, giveUpAfter: giveUpAfter,
                storeGiveUpAfter: giveUpAfter, backlogGatherTime: PollerConfiguration.drainBacklogGatherTime),
            databasePath: databasePath)
        let watcher = SignalWatcher { _ in poller.requestStop(reason: .interrupted) }
        let started = Date()
        poller.start()
        var bar = ProgressBar(total: total > 0 ? Int64(total) : nil)
        var lastFault: PollerFault?
        while !poller.waitUntilStopped(deadline: Date().addingTimeInterval(0.2)) {
            let status = poller.status
            // The cause of a wait is shown as it happens, once per new cause, like `poll -v`.
            if case .backingOff(_, let fault) = status.state, fault != lastFault {
                lastFault = fault
                bar.clear()
                standardError("retrying: \(fault.explanation)")
            }
            bar.update(done: Int64(status.received), detail: Self.counts(status))
        }
        bar.clear()
        withExtendedLifetime(watcher) {}
        let status = poller.status
        let seconds = Date().timeIntervalSince(started)
        print(String(format: "drained in %.1fs: ", seconds) + Self.counts(status) + ", deleted \(status.deleted)")
        if let reason = status.stopReason, reason.isFailure {
            throw CommandFailure(reason.explanation)
        }
    }

    static func counts(_ status: PollerStatus) -> String {
        "received \(status.received), stored \(status.stored), duplicates \(status.duplicates), rejected \(status.rejected)"
    }

    /// Visible + in-flight messages (0 when the queue cannot say).
    static func approximateDepth(_ client: SQSClient, _ queueURL: String, timeout: TimeInterval) -> Int {
        guard let attributes = try? client.getQueueAttributes(
            queueURL: queueURL, names: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"],
            timeout: timeout)
        else { return 0 }
        return (Int(attributes["ApproximateNumberOfMessages"] ?? "") ?? 0)
            + (Int(attributes["ApproximateNumberOfMessagesNotVisible"] ?? "") ?? 0)
    }
}
