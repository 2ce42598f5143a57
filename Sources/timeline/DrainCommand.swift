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

    func run() throws {
        try reportingFailures(drain)
    }

    private func drain() throws {
        do {
            let databasePath = try store.openForWriting().path
            let launcher = try PollerLauncher(options: queue)
            let total = launcher.queueURLs.reduce(0) { sum, url in sum + Self.approximateDepth(launcher.client, url) }
            // A short wait: an empty answer comes back quickly, and the queue attributes confirm emptiness.
            let poller = launcher.poller(
                databasePath: databasePath, concurrency: polling.concurrency, waitSeconds: 1, peek: polling.peek, stopWhenEmpty: true)
            let watcher = SignalWatcher { _ in poller.requestStop(reason: "interrupted") }
            let started = Date()
            poller.start()
            var bar = ProgressBar(total: total > 0 ? Int64(total) : nil)
            while !poller.waitUntilStopped(deadline: Date().addingTimeInterval(0.2)) {
                bar.update(done: Int64(poller.status.received), detail: Self.counts(poller.status))
            }
            bar.clear()
            withExtendedLifetime(watcher) {}
            let status = poller.status
            let seconds = Date().timeIntervalSince(started)
            print(String(format: "drained in %.1fs: ", seconds) + Self.counts(status) + ", deleted \(status.deleted)")
            if case .stopped(let reason) = status.state, reason != "queue drained" {
                throw CommandFailure(reason)
            }
        }
    }

    static func counts(_ status: PollerStatus) -> String {
        "received \(status.received), stored \(status.stored), duplicates \(status.duplicates), rejected \(status.rejected)"
    }

    /// Visible + in-flight messages (0 when the queue cannot say).
    static func approximateDepth(_ client: SQSClient, _ queueURL: String) -> Int {
        guard let attributes = try? client.getQueueAttributes(
            queueURL: queueURL, names: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])
        else { return 0 }
        return (Int(attributes["ApproximateNumberOfMessages"] ?? "") ?? 0)
            + (Int(attributes["ApproximateNumberOfMessagesNotVisible"] ?? "") ?? 0)
    }
}
