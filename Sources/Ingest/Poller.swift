import Foundation
import SQSClient
import TimelineCore
import TimelineStore

/// Long-polls SQS queues on background threads, stores each batch in one transaction, and deletes the
/// stored messages only after the commit (DESIGN.md invariant 1: a crash means redelivery, never loss).
///
/// Each queue has `configuration.concurrency` workers while it is quiet and more (up to
/// `maxConcurrency`) while receives come back full (`ReceiveWorkerScaling`).
///
/// Retryable request errors (throttling, 5xx, network) back off with full jitter, capped so that polling
/// resumes within 2 s of the endpoint coming back; after a failure (and at start) the next receive is a
/// short one, so the state turns `receiving` as soon as a request succeeds. Auth errors and a missing
/// queue stop the poller with a typed reason.
///
/// When the store cannot commit, the worker holds its batch and retries the commit with a backoff growing
/// to a minute, extending the batch's visibility each time, and no worker receives more until the commit
/// works: messages that cannot be stored are not taken, so receive counts do not climb toward a
/// dead-letter queue (DESIGN.md invariant 1).
// @unchecked: its state is guarded by `condition`, an NSCondition because workers wait on it (Mutex cannot).
public final class Poller: @unchecked Sendable {
    public typealias StoreFactory = @Sendable () throws -> TimelineStore

    private let client: SQSClient
    private let makeStore: StoreFactory
    private let configuration: PollerConfiguration
    private let timing: PollerTiming
    private let onBatch: (@Sendable (BatchOutcome) -> Void)?
    private let onCommit: (@Sendable () -> Void)?
    /// The workers' batches that are ready at once go into one transaction.
    private let groupCommit: GroupCommit

    private let condition = NSCondition()
    private var currentStatus = PollerStatus()
    private var stopping = false
    private var runningWorkers = 0
    /// Each queue's receive workers (by queue URL).
    private var scaling: [String: ReceiveWorkerScaling] = [:]
    private var receiveTokens: [ObjectIdentifier: CancellationToken] = [:]
    private var started = false
    /// Workers holding a batch the store could not commit; while > 0 nobody receives.
    private var workersHoldingBatches = 0
    /// When a request last succeeded (or polling started): the base of `giveUpAfter`.
    private var lastSuccess = Date()

    /// Backoff of retryable request failures: capped low so polling resumes quickly.
    static let requestBackoff = (base: 0.1, cap: 1.5)
    /// Backoff of store failures: up to a minute, never reset by a successful receive.
    static let storeBackoff = (base: 1.0, cap: 60.0)
    /// Visibility given to a held batch beyond the next retry, so it does not reappear meanwhile.
    static let heldVisibilityMargin = 30

    /// `makeStore` is called once per worker thread (it may hand every worker the same store: a
    /// `TimelineStore` serializes its calls).
    /// `onBatch` runs on a worker thread after each batch is stored, or when one first fails to be;
    /// `onCommit` right after each commit (one transaction may hold several workers' batches), before the
    /// deletes of what it stored (so a viewer in this process can show the events at once).
    public init(
        client: SQSClient, configuration: PollerConfiguration, makeStore: @escaping StoreFactory,
        timing: PollerTiming = .system, onBatch: (@Sendable (BatchOutcome) -> Void)? = nil,
        onCommit: (@Sendable () -> Void)? = nil
    ) {
        self.client = client
        self.configuration = configuration
        self.makeStore = makeStore
        self.timing = timing
        self.onBatch = onBatch
        self.onCommit = onCommit
        groupCommit = GroupCommit(limit: configuration.messagesPerCommit, window: configuration.commitWindow)
    }

    /// A snapshot of the status; never blocks on the network.
    public var status: PollerStatus { condition.withLock { currentStatus } }

    /// Starts the worker threads (once).
    public func start() {
        let queues: [String] = condition.withLock {
            guard !started else { return [] }
            started = true
            lastSuccess = timing.now()
            for queueURL in configuration.queueURLs {
                scaling[queueURL] = ReceiveWorkerScaling(usual: configuration.concurrency, maximum: configuration.maxConcurrency)
            }
            let all = configuration.queueURLs.flatMap { Array(repeating: $0, count: configuration.concurrency) }
            runningWorkers = all.count
            currentStatus.receiveWorkers = runningWorkers
            return all
        }
        queues.forEach(startThread(queueURL:))
    }

    private func startThread(queueURL: String) {
        Thread { [self] in
            ThreadName.nameThisThread("tl-poller")
            runWorker(queueURL: queueURL)
        }.start()
    }

    /// Applies the scaling rule after one of `queueURL`'s receives answered with `count` messages, starting
    /// a worker when it says so. Returns whether the calling worker ends.
    private func scaleAfterReceive(queueURL: String, count: Int) -> Bool {
        let decision: ReceiveWorkerScaling.Decision = condition.withLock {
            guard !stopping, var rule = scaling[queueURL] else { return .keep }
            let decision = rule.afterReceive(count: count, full: configuration.maxMessages)
            scaling[queueURL] = rule
            if decision == .add {
                runningWorkers += 1
                currentStatus.receiveWorkers = runningWorkers
            }
            return decision
        }
        if decision == .add { startThread(queueURL: queueURL) }
        return decision == .retire
    }

    /// Asks every worker to stop: in-flight long polls are abandoned at once; a batch being stored
    /// finishes (commit, then delete) or is left in the queue for redelivery. Does not wait.
    /// The first reason given is the one kept.
    ///
    /// A drained queue is the exception: in-flight receives are let finish (a drain's waits are short) and
    /// what they bring is stored. An abandoned receive still takes messages on the server, which then stay
    /// hidden for the queue's visibility timeout: an event sent just as a drain ends would wait that long.
    public func requestStop(reason: StopReason = .requested) {
        let tokens: [CancellationToken] = condition.withLock {
            if !stopping {
                stopping = true
                if !currentStatus.isStopped { currentStatus.state = .stopped(reason) }
            }
            condition.broadcast()
            return reason == .drained ? [] : Array(receiveTokens.values)
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
                currentStatus.receiveWorkers = runningWorkers
                condition.broadcast()
            }
        }
        do {
            try poll(queueURL: queueURL, store: makeStore())
        } catch {
            requestStop(reason: .storeFailed(StoreFailure(error), after: 0))
        }
    }

    /// The receive → store → delete loop of one worker, until the poller stops or the worker is one more
    /// than the queue needs.
    private func poll(queueURL: String, store: TimelineStore) {
        var backoff = Backoff(base: Self.requestBackoff.base, cap: Self.requestBackoff.cap)
        var attempt = ReceiveAttempt(queueURL: queueURL)
        // A short receive first and after every failure: its answer comes at once, so the state is true.
        var probe = true
        // Whether this worker's last batch was committed: only then does it gather a backlog (a store that
        // may not commit is never handed more than one receive's messages).
        var storeCommits = false
        while waitWhileStoreFails() {
            let result = receive(
                queueURL: queueURL, waitSeconds: probe ? 0 : configuration.waitSeconds, attemptID: attempt.idForNextReceive())
            switch result {
            case .failure(let error):
                if error.kind == .cancelled || isStopping { return }
                guard error.isRetryable else {
                    requestStop(reason: StopReason(error, queueURL: queueURL))
                    return
                }
                probe = true
                pauseAfterRequestFailure(&backoff, error: error)
            case .success(let messages):
                backoff.reset()
                attempt.succeeded()
                probe = false
                recordReceive(count: messages.count)
                let retire = scaleAfterReceive(queueURL: queueURL, count: messages.count)
                if messages.isEmpty {
                    if retire { return }
                    if configuration.stopWhenEmpty && queueIsEmpty(queueURL) { requestStop(reason: .drained) }
                    continue
                }
                let batch = storeCommits ? gatherBacklog(after: messages, queueURL: queueURL, attempt: &attempt) : messages
                storeCommits = storeAndDelete(batch, queueURL: queueURL, store: store)
                if retire { return }
            }
        }
    }

    /// `first` plus what further receives (without waiting) return while each comes back full, up to
    /// `messagesPerCommit` messages and `configuration.backlogGatherTime`: a backlog is stored in a few large commits
    /// (each commit writes whole index pages, so ten batches in one write far fewer bytes than ten
    /// commits), while a receive that is not full (live traffic) is stored at once. Stops at a failed
    /// receive (the next one retries it), when the poller stops, or when a worker holds a batch the store
    /// cannot commit (no message is taken that may not be stored).
    private func gatherBacklog(after first: [SQSMessage], queueURL: String, attempt: inout ReceiveAttempt) -> [SQSMessage] {
        var messages = first
        var last = first.count
        let until = timing.now().addingTimeInterval(configuration.backlogGatherTime)
        while last == configuration.maxMessages, messages.count + configuration.maxMessages <= configuration.messagesPerCommit,
              timing.now() < until, condition.withLock({ !stopping && workersHoldingBatches == 0 }) {
            guard case .success(let more) = receive(queueURL: queueURL, waitSeconds: 0, attemptID: attempt.idForNextReceive())
            else { break }
            attempt.succeeded()
            recordReceive(count: more.count)
            messages += more
            last = more.count
        }
        return messages
    }

    /// One ReceiveMessage, cancellable by `requestStop`.
    private func receive(queueURL: String, waitSeconds: Int, attemptID: String?) -> Result<[SQSMessage], SQSError> {
        let token = CancellationToken()
        let tokenID = ObjectIdentifier(token)
        let registered = condition.withLock { () -> Bool in
            guard !stopping else { return false }
            receiveTokens[tokenID] = token
            return true
        }
        guard registered else { return .failure(SQSError(kind: .cancelled, code: "Cancelled", message: "stopping")) }
        defer { _ = condition.withLock { receiveTokens.removeValue(forKey: tokenID) } }
        do {
            return .success(try client.receiveMessage(
                queueURL: queueURL, maxMessages: configuration.maxMessages, waitSeconds: waitSeconds,
                visibilityTimeout: configuration.visibilityTimeout, attemptID: attemptID, cancel: token))
        } catch {
            return .failure(error)
        }
    }

    private func recordReceive(count: Int) {
        condition.withLock {
            lastSuccess = timing.now()
            currentStatus.lastReceive = Date()
            currentStatus.received += count
            if !currentStatus.isStopped { currentStatus.state = .receiving }
        }
    }

    /// Blocks while another worker holds a batch the store cannot commit. False once the poller stops.
    private func waitWhileStoreFails() -> Bool {
        condition.lock()
        defer { condition.unlock() }
        while !stopping && workersHoldingBatches > 0 { condition.wait() }
        return !stopping
    }

    /// Stores one batch in one transaction (with the other workers' batches ready at the same time:
    /// `GroupCommit`), then (unless peeking) deletes what was stored. While the
    /// store fails, holds the batch: retries the commit with a growing backoff, extending the messages'
    /// visibility, until it commits, the poller stops, or `storeGiveUpAfter` passes (then the messages'
    /// visibility lapses and they wait in the queue). Returns whether the first commit attempt worked.
    @discardableResult
    private func storeAndDelete(_ messages: [SQSMessage], queueURL: String, store: TimelineStore) -> Bool {
        let items = MessageValidation.items(for: messages)
        var backoff = Backoff(base: Self.storeBackoff.base, cap: Self.storeBackoff.cap)
        var failingSince: Date?
        var committed = false
        defer {
            if failingSince != nil {
                // Given up or stopping: the held messages go back to the queue at once, for the next run.
                if !committed { setVisibility(of: messages, queueURL: queueURL, seconds: 0) }
                releaseStoreHold()
            }
        }
        var outcomes: [IngestOutcome] = []
        while true {
            do {
                outcomes = try groupCommit.ingest(items, store: { try store.ingest($0) }, afterCommit: { onCommit?() })
                committed = true
                break
            } catch {
                let failure = StoreFailure(error)
                let now = timing.now()
                if failingSince == nil {
                    failingSince = now
                    condition.withLock { workersHoldingBatches += 1 }
                    onBatch?(.storeFailed(queueURL: queueURL, messages: messages.count, failure: failure))
                }
                let failedFor = now.timeIntervalSince(failingSince ?? now)
                if let limit = configuration.storeGiveUpAfter, failedFor >= limit {
                    requestStop(reason: .storeFailed(failure, after: failedFor))
                    return false
                }
                let delay = backoff.nextDelay(random: timing.random())
                setVisibility(of: messages, queueURL: queueURL, seconds: Int(delay.rounded(.up)) + Self.heldVisibilityMargin)
                if !pause(for: delay, fault: .store(failure)) { return false }
            }
        }
        var report = BatchReport(
            queueURL: queueURL, received: messages.count, stored: 0, duplicates: 0, rejected: 0, deleted: 0,
            rejectReasons: [], maxReceiveCount: messages.compactMap(\.receiveCount).max() ?? 1)
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
            if failingSince != nil, !currentStatus.isStopped { currentStatus.state = .receiving }
            currentStatus.receivedManyTimes += messages.count { ($0.receiveCount ?? 0) >= QueueDelivery.flaggedReceiveCount }
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
        onBatch?(.stored(report))
        return failingSince == nil
    }

    /// This worker's held batch is resolved (stored, or left to the queue): the others may receive again.
    private func releaseStoreHold() {
        condition.withLock {
            workersHoldingBatches -= 1
            lastSuccess = timing.now()
            condition.broadcast()
        }
    }

    /// Keeps held messages invisible past the next retry, or (0) hands them back to the queue. A failure
    /// is harmless: the message comes back later and idempotent ingest absorbs the duplicate. Bounded by
    /// a short timeout, so a stop is never held up by an endpoint that stopped answering.
    private func setVisibility(of messages: [SQSMessage], queueURL: String, seconds: Int) {
        for start in stride(from: 0, to: messages.count, by: 10) {
            let handles = messages[start..<min(start + 10, messages.count)].map(\.receiptHandle)
            _ = try? client.changeMessageVisibilityBatch(
                queueURL: queueURL, receiptHandles: handles, visibilityTimeout: min(seconds, 43_200),
                timeout: Self.visibilityCallTimeout)
        }
    }

    /// Bound of a ChangeMessageVisibilityBatch call.
    static let visibilityCallTimeout: TimeInterval = 5

    /// Backs off after a retryable request failure, or gives up after `giveUpAfter` without a success.
    private func pauseAfterRequestFailure(_ backoff: inout Backoff, error: SQSError) {
        if let limit = configuration.giveUpAfter {
            let quietFor = condition.withLock { timing.now().timeIntervalSince(lastSuccess) }
            if quietFor >= limit {
                requestStop(reason: .gaveUp(after: quietFor, lastFault: .request(error)))
                return
            }
        }
        pause(for: backoff.nextDelay(random: timing.random()), fault: .request(error))
    }

    /// Records `fault` and sleeps (interruptibly) for `delay` seconds. False when the poller is stopping.
    @discardableResult
    private func pause(for delay: TimeInterval, fault: PollerFault) -> Bool {
        let until = Date().addingTimeInterval(delay)
        condition.lock()
        defer { condition.unlock() }
        if !currentStatus.isStopped { currentStatus.state = .backingOff(until: until, fault: fault) }
        while !stopping && Date() < until {
            _ = condition.wait(until: until)
        }
        return !stopping
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
