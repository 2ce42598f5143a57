import Foundation

/// How the poller polls.
public struct PollerConfiguration: Sendable {
    /// Queues to poll (one consumer per queue; several viewers use an SNS fan-out to several queues).
    public var queueURLs: [String]
    /// Long polls in flight at once per queue while it is quiet.
    public var concurrency: Int
    /// Most receive workers per queue while receives come back full (a busy queue); at least `concurrency`.
    public var maxConcurrency: Int
    /// `maxConcurrency` unless given (each worker waits for its receive, its commit and its deletes in turn).
    public static let defaultMaxConcurrency = 8
    /// ReceiveMessage wait time (0–20 s).
    public var waitSeconds: Int
    /// Messages per receive (1–10).
    public var maxMessages: Int
    /// Most messages stored in one commit: while receives come back full (a backlog), a worker receives
    /// again before storing, up to this many (at least `maxMessages`). Drain of 10,000 messages, client
    /// CPU: 0.74 s committing each receive, 0.45 s with commits of 100, 0.40 s with 500 or 1,000.
    public var messagesPerCommit: Int
    /// Longest a worker keeps receiving while receives come back full before it stores what it holds: the
    /// first message it took waits that long to be stored (and shown). Under sustained traffic every
    /// receive is full, so this bounds publish -> on screen: short for viewers, longer for `drain`, where
    /// larger commits matter and nobody watches each event.
    public var backlogGatherTime: TimeInterval
    /// `backlogGatherTime` of the viewers (`poll`, `tui`).
    public static let viewerBacklogGatherTime: TimeInterval = 0.05
    /// `backlogGatherTime` of `drain`.
    public static let drainBacklogGatherTime: TimeInterval = 0.5
    /// Under steady traffic, the least time between the end of one commit and the start of the next: the
    /// workers' batches handed in meanwhile go into one transaction (`GroupCommit`), and a batch waits
    /// about this long at most for its commit. A batch after a quiet spell is committed at once.
    public var commitWindow: TimeInterval
    /// `commitWindow` unless given.
    public static let defaultCommitWindow: TimeInterval = 0.03
    /// Never delete: for a queue shared with other viewers. Redeliveries are absorbed by idempotent ingest.
    public var peek: Bool
    /// Visibility timeout asked for on receive (nil: the queue's default).
    public var visibilityTimeout: Int?
    /// Stop once the queue reports no visible and no in-flight messages (`timeline drain`).
    public var stopWhenEmpty: Bool
    /// Stop (`StopReason.gaveUp`) when no request has succeeded for this long (nil: retry for ever).
    public var giveUpAfter: TimeInterval?
    /// Stop (`StopReason.storeFailed`) when the store has failed to commit for this long (nil: for ever).
    public var storeGiveUpAfter: TimeInterval?

    public init(
        queueURLs: [String], concurrency: Int = 2, waitSeconds: Int = 20, maxMessages: Int = 10,
        messagesPerCommit: Int = 500, peek: Bool = false, visibilityTimeout: Int? = nil, stopWhenEmpty: Bool = false,
        giveUpAfter: TimeInterval? = nil, storeGiveUpAfter: TimeInterval? = nil,
        backlogGatherTime: TimeInterval = PollerConfiguration.viewerBacklogGatherTime, maxConcurrency: Int? = nil,
        commitWindow: TimeInterval = PollerConfiguration.defaultCommitWindow
    ) {
        self.giveUpAfter = giveUpAfter
        self.storeGiveUpAfter = storeGiveUpAfter
        self.queueURLs = queueURLs
        // Callers validate user input (`PollingOptions.validate()`); a bad value here is a programming error.
        precondition(concurrency >= 1, "PollerConfiguration: concurrency must be at least 1, got \(concurrency)")
        self.concurrency = concurrency
        self.maxConcurrency = max(concurrency, maxConcurrency ?? Self.defaultMaxConcurrency)
        self.waitSeconds = min(20, max(0, waitSeconds))
        self.maxMessages = min(10, max(1, maxMessages))
        self.messagesPerCommit = max(self.maxMessages, messagesPerCommit)
        self.backlogGatherTime = max(0, backlogGatherTime)
        self.commitWindow = max(0, commitWindow)
        self.peek = peek
        self.visibilityTimeout = visibilityTimeout
        self.stopWhenEmpty = stopWhenEmpty
    }
}
