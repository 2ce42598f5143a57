import Foundation
import SQSClient
import Synchronization
import TimelineCore

/// Where a poller polls: the client and the queue URLs, once settings are resolved and names looked up.
public struct PollerTarget: Sendable {
    public var client: SQSClient
    public var queueURLs: [String]

    public init(client: SQSClient, queueURLs: [String]) {
        self.client = client
        self.queueURLs = queueURLs
    }
}

/// Runs a poller in the background of an interactive viewer. The target is resolved on a background
/// thread (a queue name is looked up: a network call), so the viewer never waits on the network; until
/// then, and if that fails, the status says so. A resolution that fails for a passing reason (network,
/// throttling, 5xx) is retried with backoff, as the poller retries its receives; a lasting cause stops it
/// until `restart()`.
public final class PollerSupervisor: Sendable {
    /// What the supervisor is doing.
    public enum State: Sendable, Equatable {
        /// Resolving the target (no poller yet).
        case starting
        /// Resolving failed for a passing reason; tried again at `until`.
        case retryingStart(until: Date, fault: PollerFault)
        /// Resolving failed for a lasting reason; `restart()` tries again.
        case failedToStart(StopReason)
        /// The poller runs (or has stopped: see its status).
        case polling(PollerStatus)
    }

    /// The state and the first queue polled (once known).
    public struct Status: Sendable, Equatable {
        public var state: State
        public var queueURL: String?

        /// True when nothing polls and only `restart()` would start again.
        public var isStopped: Bool {
            switch state {
            case .failedToStart: true
            case .polling(let status): status.isStopped
            case .starting, .retryingStart: false
            }
        }
    }

    /// Resolves the target; `prepared` is true on the first launch (settings resolved before may be used).
    public typealias Resolve = @Sendable (_ firstLaunch: Bool) throws -> PollerTarget

    /// What the viewer's thread and the set-up thread share.
    private struct Shared {
        var poller: Poller?
        var failure: StopReason?
        var queueURL: String?
        var stopped = false
        var launches = 0
        /// True while a set-up (first start or restart) runs on its background thread.
        var launching = false
        /// While a set-up waits to try again after a passing failure: until when, and why.
        var retrying: (until: Date, fault: PollerFault)?
    }

    private let shared = Mutex(Shared())
    /// Ends a set-up's wait early when the viewer quits.
    private let wake = DispatchSemaphore(value: 0)
    private let resolve: Resolve
    private let configuration: PollerConfiguration
    private let databasePath: String
    private let timing: PollerTiming
    private let backoff: Backoff
    private let onCommit: (@Sendable () -> Void)?

    /// `configuration`: how to poll (its `queueURLs` are replaced by the resolved target's).
    /// `onCommit` runs on a poller thread after each committed batch.
    public init(resolve: @escaping Resolve, configuration: PollerConfiguration, databasePath: String,
                timing: PollerTiming = .system, backoff: Backoff = Backoff(),
                onCommit: (@Sendable () -> Void)? = nil) {
        self.resolve = resolve
        self.configuration = configuration
        self.databasePath = databasePath
        self.timing = timing
        self.backoff = backoff
        self.onCommit = onCommit
    }

    /// Starts resolving and polling in the background. Never blocks.
    public func start() {
        shared.withLock { $0.launching = true }
        launch()
    }

    /// When polling has stopped (or never started), resolves the target again and starts a new poller, so
    /// a fixed cause (queue recreated, credentials renewed) needs no restart of the app. Does nothing while
    /// the poller runs or a set-up is under way. Never blocks.
    public func restart() {
        let old: Poller?? = shared.withLock { shared in
            let isStopped = shared.poller.map { $0.status.isStopped } ?? (shared.failure != nil)
            guard !shared.stopped, !shared.launching, isStopped else { return nil }
            defer { shared.poller = nil; shared.failure = nil; shared.launching = true }
            return .some(shared.poller)
        }
        guard let old else { return }
        old?.requestStop()
        launch()
    }

    private func launch() {
        let first: Bool = shared.withLock { shared in
            defer { shared.launches += 1 }
            return shared.launches == 0
        }
        let thread = Thread { [self] in
            ThreadName.nameThisThread("tl-poller-setup")
            defer { shared.withLock { $0.launching = false; $0.retrying = nil } }
            var backoff = backoff
            while true {
                do {
                    try startPoller(target: try resolve(first))
                    return
                } catch let error as SQSError where error.isRetryable {
                    let until = timing.now().addingTimeInterval(backoff.nextDelay(random: timing.random()))
                    guard shared.withLock({ shared -> Bool in shared.retrying = (until, .request(error)); return !shared.stopped })
                    else { return }
                    _ = wake.wait(timeout: .now() + max(0, until.timeIntervalSince(timing.now())))
                    if shared.withLock({ $0.stopped }) { return }
                } catch {
                    let reason = StopReason(startFailure: error, queueURL: shared.withLock { $0.queueURL })
                    shared.withLock { $0.failure = reason }
                    return
                }
            }
        }
        thread.start()
    }

    private func startPoller(target: PollerTarget) throws {
        var configuration = configuration
        configuration.queueURLs = target.queueURLs
        let poller = Poller(client: target.client, configuration: configuration, databasePath: databasePath,
                            timing: timing, onCommit: onCommit)
        let shouldStart: Bool = shared.withLock { shared in
            shared.queueURL = target.queueURLs.first
            shared.retrying = nil
            guard !shared.stopped else { return false }
            shared.poller = poller
            return true
        }
        if shouldStart { poller.start() }
    }

    /// The current status (cheap, thread-safe).
    public var status: Status {
        let (poller, failure, queueURL, retrying) = shared.withLock { ($0.poller, $0.failure, $0.queueURL, $0.retrying) }
        if let failure { return Status(state: .failedToStart(failure), queueURL: queueURL) }
        if let retrying { return Status(state: .retryingStart(until: retrying.until, fault: retrying.fault), queueURL: queueURL) }
        guard let poller else { return Status(state: .starting, queueURL: queueURL) }
        return Status(state: .polling(poller.status), queueURL: queueURL)
    }

    /// Stops polling: in-flight long polls are abandoned; a batch being stored finishes first.
    public func stop(timeout: TimeInterval = 5) {
        let poller: Poller? = shared.withLock { shared in
            shared.stopped = true
            return shared.poller
        }
        wake.signal()
        _ = poller?.stop(timeout: timeout)
    }
}

extension StopReason {
    /// Why resolving a poller's target failed for good: an SQS error by its kind, anything else (a setting
    /// that cannot be used, credentials that cannot be found) as `.notStarted` with its own words.
    public init(startFailure error: any Error, queueURL: String?) {
        if let error = error as? SQSError {
            self.init(error, queueURL: queueURL ?? "")
        } else {
            self = .notStarted(String(describing: error))
        }
    }
}
