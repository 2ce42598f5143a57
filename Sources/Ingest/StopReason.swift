import Foundation
import SQSClient

/// Why the poller stopped.
public enum StopReason: Sendable, Equatable {
    /// `stopWhenEmpty`: the queue reported no visible and no in-flight messages.
    case drained
    /// `requestStop()` without a more precise reason.
    case requested
    /// A signal or the user asked to stop.
    case interrupted
    /// AWS refused the credentials (missing, invalid, expired, or a skewed clock: see `SQSError.clockSkew`).
    case credentialsRefused(SQSError)
    /// The credentials are valid but not allowed to use the queue.
    case accessDenied(SQSError)
    /// The queue does not exist at this endpoint and region (`queueURL` empty: it was looked up by name).
    case queueMissing(queueURL: String, SQSError)
    /// A request failed in a way retrying cannot fix.
    case requestFailed(queueURL: String, SQSError)
    /// The store failed for `after` seconds (0: it could not be opened at all).
    case storeFailed(StoreFailure, after: TimeInterval)
    /// No request succeeded for `after` seconds (`PollerConfiguration.giveUpAfter`); `lastFault` is the last cause.
    case gaveUp(after: TimeInterval, lastFault: PollerFault)
    /// Polling could not start: the settings or credentials cannot be used (their own words, sanitized).
    case notStarted(String)

    /// The reason for a non-retryable SQS error.
    public init(_ error: SQSError, queueURL: String) {
        switch error.kind {
        case .auth where SQSError.accessDeniedCodes.contains(error.code): self = .accessDenied(error)
        case .auth: self = .credentialsRefused(error)
        case .queueMissing: self = .queueMissing(queueURL: queueURL, error)
        default: self = .requestFailed(queueURL: queueURL, error)
        }
    }
}
