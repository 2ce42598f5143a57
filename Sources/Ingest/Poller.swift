import Foundation
import SQSClient
import TimelineCore
import TimelineStore

/// Long-polls SQS queues on background threads, stores each batch in one transaction, and deletes the
/// stored messages only after the commit (DESIGN.md invariant 1: a crash means redelivery, never loss).
///
/// Retryable errors (throttling, 5xx, network) back off with full jitter, capped so that polling resumes
/// within 2 s of the endpoint coming back. Auth errors and a missing queue stop the poller with a reason.
public final class Poller: @unchecked Sendable {
    public typealias StoreFactory = @Sendable () throws -> TimelineStore

    private let client: SQSClient
    private let makeStore: StoreFactory
    private let configuration: PollerConfiguration
    private let onBatch: (@Sendable (BatchReport) -> Void)?
    private let onCommit: (@Sendable () -> Void)?

    private let condition = NSCondition()
    private var currentStatus = PollerStatus()
    private var stopping = false
    private var runningWorkers = 0
    private var receiveTokens: [ObjectIdentifier: CancellationToken] = [:]
    private var started = false

    /// `makeStore` is called once per worker thread: each has its own SQLite connection.
    /// `onBatch` runs on a worker thread after each non-empty batch; `onCommit` right after each batch's
    /// commit, before the deletes (so a viewer in this process can show the events at once).
    public init(
        client: SQSClient, configuration: PollerConfiguration, makeStore: @escaping StoreFactory,
        onBatch: (@Sendable (BatchReport) -> Void)? = nil, onCommit: (@Sendable () -> Void)? = nil
    ) {
        self.client = client
        self.configuration = configuration
        self.makeStore = makeStore
        self.onBatch = onBatch
        self.onCommit = onCommit
    }

    /// A snapshot of the status; never blocks on the network.
    public var status: PollerStatus { condition.withLock { currentStatus } }

    /// Starts the worker threads (once).
    public func start() {
        let queues: [String] = condition.withLock {
            guard !started else { return [] }
            started = true
            let all = configuration.queueURLs.flatMap { Array(repeating: $0, count: configuration.concurrency) }
            runningWorkers = all.count
            return all
        }
        for queueURL in queues {
            let thread = Thread { [self] in runWorker(queueURL: queueURL) }
            thread.name = "timeline-poller"
            thread.start()
        }
    }

    /// Asks every worker to stop: in-flight long polls are abandoned at once; a batch being stored
    /// finishes (commit, then delete) or is left in the queue for redelivery. Does not wait.
    public func requestStop(reason: String = "stopped on request") {
        let tokens: [CancellationToken] = condition.withLock {
            if !stopping {
                stopping = true
                if !currentStatus.isStopped { currentStatus.state = .stopped(reason: reason) }
            }
            condition.broadcast()
            return Array(receiveTokens.values)
        }
        tokens.forEach { $0.cancel() }
    }

    /// Blocks until every worker has ended, or until `deadline`. Returns true when all ended.
    @discardableResult
    public func waitUntilStopped(deadline: Date = .distantFuture) -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while runningWorkers > 0 {
            if !condition.wait(until: deadline) { return runningWorkers == 0 }
        }
        return true
    }

    /// `requestStop` then wait (up to `timeout` seconds) for the workers to end.
    @discardableResult
    public func stop(timeout: TimeInterval = 10) -> Bool {
        requestStop()
        return waitUntilStopped(deadline: Date().addingTimeInterval(timeout))
    }

    // MARK: - Worker

    private var isStopping: Bool { condition.withLock { stopping } }

    private func runWorker(queueURL: String) {
        // Runs after `poll` returned, so this worker's connection is closed before anyone waiting in
        // `waitUntilStopped` (for example a command about to exit) is told that the worker ended.
        defer {
            condition.withLock {
                runningWorkers -= 1
                condition.broadcast()
            }
        }
        do {
            try poll(queueURL: queueURL, store: makeStore())
        } catch {
            fail("cannot open the database: \(error)")
        }
    }

    /// The receive → store → delete loop of one worker, until the poller stops.
    private func poll(queueURL: String, store: TimelineStore) {
        var backoff = Backoff()
        while !isStopping {
            let token = CancellationToken()
            let tokenID = ObjectIdentifier(token)
            let stillRunning = condition.withLock { () -> Bool in
                guard !stopping else { return false }
                receiveTokens[tokenID] = token
                return true
            }
            guard stillRunning else { break }
            let result: Result<[SQSMessage], SQSError>
            do {
                result = .success(try client.receiveMessage(
                    queueURL: queueURL, maxMessages: configuration.maxMessages,
                    waitSeconds: configuration.waitSeconds, visibilityTimeout: configuration.visibilityTimeout,
                    cancel: token))
            } catch {
                result = .failure(error)
            }
            _ = condition.withLock { receiveTokens.removeValue(forKey: tokenID) }

            switch result {
            case .failure(let error):
                if error.kind == .cancelled || isStopping { return }
                if error.isRetryable {
                    pause(&backoff, reason: error.description)
                } else {
                    fail(StopReason.explain(error, queueURL: queueURL))
                    return
                }
            case .success(let messages):
                backoff.reset()
                condition.withLock {
                    currentStatus.lastReceive = Date()
                    currentStatus.received += messages.count
                    if !currentStatus.isStopped { currentStatus.state = .receiving }
                }
                if messages.isEmpty {
                    if configuration.stopWhenEmpty && queueIsEmpty(queueURL) {
                        requestStop(reason: "queue drained")
                    }
                    continue
                }
                if !storeAndDelete(messages, queueURL: queueURL, store: store) {
                    pause(&backoff, reason: "database busy")
                }
            }
        }
    }

    /// Stores one batch in one transaction, then (unless peeking) deletes what was stored.
    /// Returns false when the batch could not be stored (its messages stay in the queue).
    private func storeAndDelete(_ messages: [SQSMessage], queueURL: String, store: TimelineStore) -> Bool {
        let items = MessageValidation.items(for: messages)
        let outcomes: [IngestOutcome]
        do {
            outcomes = try store.ingest(items)
        } catch {
            return false
        }
        onCommit?()
        var report = BatchReport(
            queueURL: queueURL, received: messages.count, stored: 0, duplicates: 0, rejected: 0, deleted: 0,
            rejectReasons: [])
        for (item, outcome) in zip(items, outcomes) {
            switch outcome {
            case .inserted, .replaced, .keptOlder: report.stored += 1
            case .duplicate: report.duplicates += 1
            case .rejected:
                report.rejected += 1
                if case .rejected(_, _, let reason) = item { report.rejectReasons.append(reason) }
            }
        }
        condition.withLock {
            currentStatus.stored += report.stored
            currentStatus.duplicates += report.duplicates
            currentStatus.rejected += report.rejected
            currentStatus.lastStored = Date()
        }
        if !configuration.peek {
            let (deleted, failures) = MessageDeleter(client: client, queueURL: queueURL)
                .delete(messages, shouldGiveUp: { [self] in isStopping })
            report.deleted = deleted
            condition.withLock {
                currentStatus.deleted += deleted
                currentStatus.deleteFailures += failures
            }
        }
        onBatch?(report)
        return true
    }

    /// Records a retryable failure and sleeps (interruptibly) for the backoff delay.
    private func pause(_ backoff: inout Backoff, reason: String) {
        let until = Date().addingTimeInterval(backoff.nextDelay())
        condition.lock()
        defer { condition.unlock() }
        if !currentStatus.isStopped { currentStatus.state = .backingOff(until: until, reason: reason) }
        while !stopping && Date() < until {
            _ = condition.wait(until: until)
        }
    }

    /// Stops the whole poller for a reason retrying cannot fix.
    private func fail(_ reason: String) {
        condition.withLock {
            if !currentStatus.isStopped { currentStatus.state = .stopped(reason: reason) }
        }
        requestStop(reason: reason)
    }

    /// True when the queue has no visible and no in-flight messages.
    private func queueIsEmpty(_ queueURL: String) -> Bool {
        guard let attributes = try? client.getQueueAttributes(
            queueURL: queueURL, names: ["ApproximateNumberOfMessages", "ApproximateNumberOfMessagesNotVisible"])
        else { return false }
        return attributes["ApproximateNumberOfMessages"] == "0"
            && attributes["ApproximateNumberOfMessagesNotVisible"] == "0"
    }
}
