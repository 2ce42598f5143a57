import Foundation
import TimelineCore
import SQSClient

/// The poller's typed outcomes in words, for every place that shows them (`poll`'s log, `drain`, the
/// TUI's status bar and `!` overlay): a `summary` of a few words and an `explanation` with the fix.
/// Every part from the network is already sanitized (`SQSError`, `TransportError`).
extension StopReason {
    /// True when polling stopped on a failure (not asked to, not done).
    public var isFailure: Bool {
        switch self {
        case .drained, .requested, .interrupted: false
        case .credentialsRefused, .accessDenied, .queueMissing, .requestFailed, .storeFailed, .gaveUp, .notStarted: true
        }
    }

    /// Why polling stopped, in a few words.
    public var summary: String {
        switch self {
        case .drained: "queue drained"
        case .requested: "stopped on request"
        case .interrupted: "interrupted"
        case .credentialsRefused(let error), .accessDenied(let error): error.summary
        case .queueMissing(let queueURL, let error): queueURL.isEmpty ? error.summary : "queue \(AWSNames.queueName(queueURL)) does not exist"
        case .requestFailed(let queueURL, let error): queueURL.isEmpty ? error.summary : "\(error.summary) from \(AWSNames.queueName(queueURL))"
        case .storeFailed(let failure, let after) where after <= 0: "cannot open the database (\(failure.problem.rawValue))"
        case .storeFailed(let failure, _): "gave up storing events (\(failure.problem.rawValue))"
        case .gaveUp(_, let fault): "gave up: \(fault.summary)"
        case .notStarted: "the settings cannot be used"
        }
    }

    /// Why polling stopped, with what to do about it.
    public var explanation: String {
        switch self {
        case .drained, .requested, .interrupted: return summary
        case .credentialsRefused(let error), .accessDenied(let error): return error.explanation()
        case .queueMissing(let queueURL, let error): return error.explanation(queueURL: queueURL.isEmpty ? nil : queueURL)
        case .requestFailed(let queueURL, let error):
            return queueURL.isEmpty ? error.explanation() : "\(error.description) from \(queueURL)"
        case .storeFailed(let failure, let after) where after <= 0:
            return "cannot open the database: \(failure.explanation)"
        case .storeFailed(let failure, let after):
            return "gave up after \(DurationText.prose(seconds: Int64(after))) of failing to store events: \(failure.explanation). "
                + "Received messages were left in the queue"
        case .gaveUp(let after, let fault):
            return "gave up after \(DurationText.prose(seconds: Int64(after))) without a successful request: \(fault.explanation)"
        case .notStarted(let message): return message
        }
    }
}

extension PollerFault {
    /// A retryable fault in a few words.
    public var summary: String {
        switch self {
        case .request(let error): error.summary
        case .store(let failure): "cannot store events (\(failure.problem.rawValue))"
        }
    }

    /// A retryable fault with its detail.
    public var explanation: String {
        switch self {
        case .request(let error):
            if error.transport?.kind == .timeout { return "request timed out: \(error.message)" }
            return error.description
        case .store(let failure): return "cannot store events: \(failure.explanation)"
        }
    }
}

/// The lines `timeline poll` logs.
public enum PollerText {
    /// The poller's state in words.
    public static func describe(_ state: PollerStatus.State, now: Date = Date()) -> String {
        switch state {
        case .connecting: "connecting"
        case .receiving: "receiving"
        case .backingOff(let until, let fault):
            String(format: "retry in %.1fs: ", max(0, until.timeIntervalSince(now))) + fault.explanation
        case .stopped(let reason): "stopped: " + reason.explanation
        }
    }

    /// State and counters on one line (the status line of `poll`).
    public static func summary(_ status: PollerStatus, now: Date = Date()) -> String {
        "\(describe(status.state, now: now)); \(status.counts)"
    }

    /// A line when polling starts backing off (or for a new reason) or recovers; nil otherwise.
    public static func change(from old: PollerStatus.State, to new: PollerStatus.State, now: Date = Date()) -> String? {
        switch (old, new) {
        case (.backingOff, .receiving):
            return "recovered: receiving again"
        case (.connecting, .receiving):
            return "connected: receiving"
        case (_, .backingOff(let until, let fault)):
            if case .backingOff(_, let previous) = old, previous == fault { return nil }
            let seconds = String(format: "%.1f", max(0, until.timeIntervalSince(now)))
            return "backing off \(seconds)s: \(fault.explanation)"
        default:
            return nil
        }
    }

    /// One line per batch (`poll -v`).
    public static func describe(_ outcome: BatchOutcome) -> String {
        switch outcome {
        case .stored(let batch):
            var line = "batch from \(AWSNames.queueName(batch.queueURL)): received \(batch.received), "
                + "stored \(batch.stored), duplicates \(batch.duplicates), rejected \(batch.rejected), deleted \(batch.deleted), "
                + "max receive count \(batch.maxReceiveCount)"
            for reason in batch.rejectReasons { line += "\n  rejected: \(reason)" }
            return line
        case .storeFailed(let queueURL, let messages, let failure):
            return "batch of \(messages) from \(AWSNames.queueName(queueURL)) not stored, held and retried "
                + "(no more receives until it commits): \(failure.explanation)"
        }
    }
}
