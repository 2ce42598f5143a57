import Foundation
import Ingest
import SQSClient
import TimelineUI

/// Runs the Ingest poller in the background of `timeline tui`. Settings are resolved and a queue name is
/// looked up on a background thread, so the UI never waits on the network; until then, and if that
/// fails, the status says so. A lookup that fails for a passing reason (network, throttling, 5xx) is
/// retried with backoff, as the poller retries its receives; only a lasting cause stops it (`R` retries).
final class TUIPollerHook: @unchecked Sendable {
    private let lock = NSLock()
    private var poller: Poller?
    private var failure: String?
    private var queueURL: String?
    private var stopped = false
    /// True while a set-up (first start or `R` restart) runs on its background thread.
    private var launching = false
    /// While a set-up waits to try again after a passing failure: until when, and why.
    private var retrying: (until: Date, reason: String)?
    /// Ends a set-up's wait early when the TUI quits.
    private let wake = DispatchSemaphore(value: 0)
    private let databasePath: String
    private let options: QueueOptions
    private let concurrency: Int
    private let peek: Bool
    /// Settings resolved before the screen was drawn (an MFA code asked on the terminal); used by the first
    /// launch only: a restart resolves them again.
    private var prepared: SQSConfiguration?
    /// Runs on a poller thread after each committed batch.
    private let onCommit: @Sendable () -> Void

    private init(databasePath: String, options: QueueOptions, concurrency: Int, peek: Bool, prepared: SQSConfiguration?,
                 onCommit: @escaping @Sendable () -> Void) {
        self.prepared = prepared
        self.onCommit = onCommit
        self.databasePath = databasePath
        self.options = options
        self.concurrency = concurrency
        self.peek = peek
    }

    /// Starts resolving and polling in the background. `onCommit` runs on a poller thread after each
    /// batch is committed (the TUI looks at the store at once instead of at its next check).
    static func start(
        databasePath: String, options: QueueOptions, concurrency: Int, peek: Bool,
        configuration: SQSConfiguration? = nil,
        onCommit: @escaping @Sendable () -> Void
    ) -> TUIPollerHook {
        let hook = TUIPollerHook(
            databasePath: databasePath, options: options, concurrency: concurrency, peek: peek, prepared: configuration,
            onCommit: onCommit)
        hook.launch()
        return hook
    }

    /// `R` in the TUI: when polling has stopped (or never started), resolves the settings again and starts
    /// a new poller, so a fixed cause (queue recreated, credentials renewed) needs no restart of the app.
    /// Does nothing while the poller runs or a set-up is under way. Never blocks the caller.
    func restart() {
        let old: Poller?? = lock.withLock {
            let isStopped = poller.map { $0.status.isStopped } ?? (failure != nil)
            guard !stopped, !launching, isStopped else { return nil }
            defer { poller = nil; failure = nil; launching = true }
            return .some(poller)
        }
        guard let old else { return }
        old?.requestStop()
        launch()
    }

    /// Resolves the settings and starts a poller on a background thread (a queue name lookup is a network call).
    private func launch() {
        let configuration: SQSConfiguration? = lock.withLock {
            launching = true
            defer { prepared = nil }
            return prepared
        }
        let thread = Thread { [self] in
            defer { lock.withLock { launching = false; retrying = nil } }
            var backoff = Backoff()
            while true {
                do {
                    try startPoller(configuration: configuration)
                    return
                } catch let error as SQSError where error.isRetryable {
                    let until = Date().addingTimeInterval(backoff.nextDelay())
                    let reason = PollerMessages.describe(PollerFault.request(error))
                    guard lock.withLock({ () -> Bool in retrying = (until, reason); return !stopped }) else { return }
                    _ = wake.wait(timeout: .now() + max(0, until.timeIntervalSinceNow))
                    if lock.withLock({ stopped }) { return }
                } catch {
                    let message = (error as? CommandFailure)?.message
                        ?? (error as? SQSError).map { SQSErrorHint.describe($0) } ?? "\(error)"
                    lock.withLock { failure = message }
                    return
                }
            }
        }
        thread.name = "timeline-poller-setup"
        thread.start()
    }

    /// Resolves the queue (a name is looked up: a network call) and starts a poller, unless the TUI quit.
    private func startPoller(configuration: SQSConfiguration?) throws {
        let launcher = try PollerLauncher(options: options, configuration: configuration)
        let poller = launcher.poller(databasePath: databasePath, concurrency: concurrency, peek: peek, onCommit: onCommit)
        let shouldStart: Bool = lock.withLock {
            queueURL = launcher.queueURLs.first
            retrying = nil
            guard !stopped else { return false }
            self.poller = poller
            return true
        }
        if shouldStart { poller.start() }
    }

    /// The poller's status for the status bar (cheap, thread-safe).
    var status: PollerStatusView {
        let (poller, failure, queueURL, retrying) = lock.withLock { (self.poller, self.failure, self.queueURL, self.retrying) }
        let name = queueURL.map(PollerLauncher.queueName)
        if let failure {
            return PollerStatusView(state: .stopped(reason: failure), queueName: name, queueURL: queueURL)
        }
        if let retrying {
            let until = Int64(retrying.until.timeIntervalSince1970 * 1_000_000)
            return PollerStatusView(state: .backingOff(untilMicros: until, reason: retrying.reason), queueName: name,
                                    queueURL: queueURL)
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
        wake.signal()
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
