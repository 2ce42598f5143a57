import Foundation
import Ingest
import SQSClient

/// The one place where the poller's typed outcomes (stop reasons, faults, batch outcomes, errors) become
/// words and exit codes, for `poll`, `drain` and `tui`. Every string from the network is already
/// sanitized (`SQSError`, `TransportError`); nothing here prints raw input.
enum PollerMessages {
    /// Exit code of `poll`/`drain` after the poller stopped for `reason`: 0 when it was asked to stop or
    /// finished its job, 1 when it stopped on a failure.
    static func exitCode(_ reason: StopReason) -> Int32 {
        switch reason {
        case .drained, .requested, .interrupted: 0
        case .credentialsRefused, .accessDenied, .queueMissing, .requestFailed, .storeFailed, .gaveUp: 1
        }
    }

    /// Why polling stopped, with what to do about it.
    static func describe(_ reason: StopReason) -> String {
        switch reason {
        case .drained: return "queue drained"
        case .requested: return "stopped on request"
        case .interrupted: return "interrupted"
        case .credentialsRefused(let error): return describe(error, queueURL: nil)
        case .accessDenied(let error): return describe(error, queueURL: nil)
        case .queueMissing(let queueURL, let error): return describe(error, queueURL: queueURL)
        case .requestFailed(let queueURL, let error): return "\(error.description) from \(queueURL)"
        case .storeFailed(let failure, let after) where after <= 0:
            return "cannot open the database: \(failure.explanation)"
        case .storeFailed(let failure, let after):
            return "gave up after \(seconds(after)) of failing to store events: \(failure.explanation). "
                + "Received messages were left in the queue"
        case .gaveUp(let after, let fault):
            return "gave up after \(seconds(after)) without a successful request: \(describe(fault))"
        }
    }

    /// A retryable fault in a few words (the status bar and `poll -v`).
    static func describe(_ fault: PollerFault) -> String {
        switch fault {
        case .request(let error):
            if error.transport?.kind == .timeout { return "request timed out: \(error.message)" }
            return error.description
        case .store(let failure): return "cannot store events: \(failure.explanation)"
        }
    }

    /// The poller's state in words (logs).
    static func describe(_ state: PollerStatus.State) -> String {
        switch state {
        case .connecting: "connecting"
        case .receiving: "receiving"
        case .backingOff(let until, let fault):
            String(format: "retry in %.1fs: ", max(0, until.timeIntervalSinceNow)) + describe(fault)
        case .stopped(let reason): "stopped: " + describe(reason)
        }
    }

    /// State and counters on one line (the status line of `poll`).
    static func summary(_ status: PollerStatus) -> String {
        "\(describe(status.state)); \(status.counts)"
    }

    /// One line per batch for `poll -v`.
    static func describe(_ outcome: BatchOutcome) -> String {
        switch outcome {
        case .stored(let batch):
            var line = "batch from \(PollerLauncher.queueName(batch.queueURL)): received \(batch.received), "
                + "stored \(batch.stored), duplicates \(batch.duplicates), rejected \(batch.rejected), deleted \(batch.deleted), "
                + "max receive count \(batch.maxReceiveCount)"
            for reason in batch.rejectReasons { line += "\n  rejected: \(reason)" }
            return line
        case .storeFailed(let queueURL, let messages, let failure):
            return "batch of \(messages) from \(PollerLauncher.queueName(queueURL)) not stored, held and retried "
                + "(no more receives until it commits): \(failure.explanation)"
        }
    }

    /// An SQS error with a hint that fixes it (never a secret).
    static func describe(_ error: SQSError, queueURL: String?) -> String {
        switch error.kind {
        case .auth where error.isClockSkewed:
            return "AWS refused the request because of the clock: \(error.description)"
        case .auth where SQSError.accessDeniedCodes.contains(error.code):
            return "AWS denied access (\(error.code)): \(error.message). The credentials work but are not allowed "
                + "to use the queue: the viewer needs sqs:ReceiveMessage, sqs:DeleteMessage, "
                + "sqs:ChangeMessageVisibility and sqs:GetQueueAttributes on it"
        case .auth:
            return "AWS refused the credentials (\(error.code)): \(error.message). Check AWS_ACCESS_KEY_ID / "
                + "AWS_SECRET_ACCESS_KEY or AWS_PROFILE; for SSO profiles run `aws sso login`"
        case .queueMissing:
            return "queue \(queueURL ?? "the queue") does not exist (\(error.code)). Check the queue URL and the region"
        case .network:
            return "\(error.description). Is the endpoint reachable? (check --endpoint-url, proxies, the network)"
        case .throttled, .server:
            return "\(error.description). AWS is busy or failing; try again"
        case .cancelled, .client:
            return error.description
        }
    }

    private static func seconds(_ interval: TimeInterval) -> String {
        interval >= 120 ? String(format: "%.0f min", interval / 60) : String(format: "%.0f s", interval)
    }
}
