import Foundation
import Ingest
import SQSClient
import TimelineUI

/// Runs the Ingest poller in the background of `timeline tui`. Settings are resolved and a queue name is
/// looked up on a background thread, so the UI never waits on the network; until then, and if that
/// fails, the status says so.
final class TUIPollerHook: @unchecked Sendable {
    private let lock = NSLock()
    private var poller: Poller?
    private var failure: String?
    private var queueURL: String?
    private var stopped = false

    /// Starts resolving and polling in the background. `onCommit` runs on a poller thread after each
    /// batch is committed (the TUI looks at the store at once instead of at its next check).
    static func start(
        databasePath: String, options: QueueOptions, concurrency: Int, peek: Bool,
        configuration: SQSConfiguration? = nil,
        onCommit: @escaping @Sendable () -> Void
    ) -> TUIPollerHook {
        let hook = TUIPollerHook()
        let thread = Thread {
            do {
                let launcher = try PollerLauncher(options: options, configuration: configuration)
                let poller = launcher.poller(databasePath: databasePath, concurrency: concurrency, peek: peek,
                                             onCommit: onCommit)
                let shouldStart: Bool = hook.lock.withLock {
                    hook.queueURL = launcher.queueURLs.first
                    guard !hook.stopped else { return false }
                    hook.poller = poller
                    return true
                }
                if shouldStart { poller.start() }
            } catch {
                let message = (error as? CommandFailure)?.message
                    ?? (error as? SQSError).map { SQSErrorHint.describe($0) } ?? "\(error)"
                hook.lock.withLock { hook.failure = message }
            }
        }
        thread.name = "timeline-poller-setup"
        thread.start()
        return hook
    }

    /// The poller's status for the status bar (cheap, thread-safe).
    var status: PollerStatusView {
        let (poller, failure, queueURL) = lock.withLock { (self.poller, self.failure, self.queueURL) }
        let name = queueURL.map(PollerLauncher.queueName)
        if let failure {
            return PollerStatusView(state: .stopped(reason: failure), queueName: name, queueURL: queueURL)
        }
        guard let poller else { return PollerStatusView(state: .connecting, queueName: name, queueURL: queueURL) }
        return Self.view(of: poller.status, queueName: name, queueURL: queueURL)
    }

    /// Stops polling: in-flight long polls are abandoned; a batch being stored finishes first.
    func stop() {
        let poller: Poller? = lock.withLock {
            stopped = true
            return self.poller
        }
        HelperRegistry.shared.terminateAll()  // a credential helper must not hold up quitting
        poller?.stop(timeout: 5)
    }

    static func view(of status: PollerStatus, queueName: String?, queueURL: String?) -> PollerStatusView {
        func micros(_ date: Date) -> Int64 { Int64(date.timeIntervalSince1970 * 1_000_000) }
        let state: PollerStatusView.State
        switch status.state {
        case .connecting: state = .connecting
        case .receiving:
            let recent = status.lastStored.map { Date().timeIntervalSince($0) < 5 } ?? false
            state = recent ? .receiving : .connected
        case .backingOff(let until, let fault):
            state = .backingOff(untilMicros: micros(until), reason: PollerMessages.describe(fault))
        case .stopped(let reason): state = .stopped(reason: PollerMessages.describe(reason))
        }
        return PollerStatusView(
            state: state, queueName: queueName, queueURL: queueURL, lastReceiveMicros: status.lastReceive.map(micros),
            storedCount: status.stored, rejectedCount: status.rejected, receivedManyTimes: status.receivedManyTimes)
    }
}
